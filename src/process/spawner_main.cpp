// benchkit-spawner: the small helper that benchkit's process runner forks commands from.
//
// A child's ru_maxrss starts from the memory of the process that started it (across exec the
// kernel keeps the larger of the new program's peak and the resident set of the memory it left,
// which after vfork is the parent's), so commands started from benchkit itself would be charged
// benchkit's megabytes. This helper is small and statically linked; it reads run requests on
// fd 3, runs each (vfork, exec, wait4) and answers on fd 4 (process/wire.hpp).
//
// benchkit sends the runs that follow for certain ahead of their turn, so that each starts as
// soon as the one before it ends; and this helper sends its records in batches (when nothing
// more is waiting to run, every kBatch records, kBatchNs after the first one held, and at once
// after a failed run), so that benchkit is not woken for every run: on a 2-core virtual
// machine a wake-up of a third process per run cost 0.3 ms of a 2.5 ms run of `true`.
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

#include "process/interrupt.hpp"
#include "process/run.hpp"
#include "process/wire.hpp"

namespace {

using namespace benchkit::process;

constexpr int kRequests = 3;
constexpr int kRecords = 4;
constexpr int kBatch = 16;
constexpr double kBatchNs = 50e6;

double now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Records not yet sent, as frames.
class Batch {
 public:
  void add(wire::Outcome outcome, const RunRecord& record) {
    if (held_ == 0) first_ns_ = now_ns();
    ++held_;
    std::string frame(1, static_cast<char>(outcome));
    frame += wire::encode(record);
    wire::append_frame(frames_, frame);
  }
  bool due(bool failed) const {
    return held_ > 0 && (failed || held_ >= kBatch || now_ns() - first_ns_ >= kBatchNs);
  }
  // When the records held now are due at the latest (while the next run is under way).
  Meanwhile deadline() {
    if (held_ == 0) return {};
    return Meanwhile{first_ns_ + kBatchNs, [this] { send(false); }};
  }
  // Sends the records held; without `wait`, only what the pipe takes now (the rest stays held).
  bool send(bool wait) {
    if (held_ == 0) return true;
    if (wait) {
      const bool sent = wire::write_all(kRecords, frames_);
      frames_.clear();
      held_ = 0;
      return sent;
    }
    std::size_t done = 0;
    while (done < frames_.size()) {
      const ssize_t n = ::write(kRecords, frames_.data() + done, frames_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    frames_.erase(0, done);
    if (frames_.empty()) held_ = 0;
    return true;
  }

 private:
  std::string frames_;
  int held_ = 0;
  double first_ns_ = 0.0;
};

}  // namespace

int main() {
  if (fcntl(kRequests, F_SETFD, FD_CLOEXEC) != 0 || fcntl(kRecords, F_SETFD, FD_CLOEXEC) != 0) {
    static const char message[] =
        "benchkit-spawner: this helper is started by benchkit, not by hand\n";
    [[maybe_unused]] auto ignored = write(STDERR_FILENO, message, sizeof message - 1);
    return 2;
  }
  // Non-blocking requests: when none is waiting, the held records go out before the wait.
  // Non-blocking records: while a run is under way they go out only as far as the pipe takes.
  fcntl(kRequests, F_SETFL, O_NONBLOCK);
  fcntl(kRecords, F_SETFL, O_NONBLOCK);
  install_interrupt_handler();
  freeze_signal_dispositions();
  wire::FrameInput requests(kRequests);
  Batch batch;
  bool send_failed = false;
  const auto send_held = [&] { send_failed = !batch.send(true) || send_failed; };
  bool skipping = false;  // a run failed: requests sent ahead are skipped until the next `now`
  std::string_view frame;
  while (!send_failed && requests.next(frame, send_held)) {
    RunRecord record;
    const bool ahead = !frame.empty() && frame[0] == static_cast<char>(wire::Turn::ahead);
    if (!ahead) skipping = false;
    if (skipping) {
      batch.add(wire::Outcome::skipped, record);
      continue;
    }
    if (interrupt_requested()) {
      // Requests sent ahead of their turn after Ctrl-C (or benchkit's SIGTERM): not started.
      record.interrupted = true;
    } else if (const auto request =
                   frame.empty() ? std::nullopt : wire::decode_request(frame.substr(1))) {
      record = run_one(*request, batch.deadline());
    } else {
      record.error = "benchkit-spawner: a request could not be decoded (mismatched versions?)";
    }
    skipping = !record.ok();
    batch.add(wire::Outcome::done, record);
    if (batch.due(!record.ok())) send_held();
  }
  send_held();
  return send_failed ? 1 : 0;
}
