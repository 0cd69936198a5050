// benchkit-spawner: the small helper that benchkit's process runner forks commands from.
//
// A child's ru_maxrss starts from the memory of the process that started it (across exec the
// kernel keeps the larger of the new program's peak and the resident set of the memory it left,
// which after vfork is the parent's), so commands started from benchkit itself would be charged
// benchkit's megabytes. This helper is small and statically linked; it reads run requests on
// fd 3, runs each (vfork, exec, wait4) and answers on fd 4. benchkit may send a request before
// the answer to the one before it has been read, so that the next run starts without a round trip.
#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "process/interrupt.hpp"
#include "process/run.hpp"
#include "process/wire.hpp"

int main() {
  using namespace benchkit::process;
  constexpr int kRequests = 3;
  constexpr int kRecords = 4;
  if (fcntl(kRequests, F_SETFD, FD_CLOEXEC) != 0 || fcntl(kRecords, F_SETFD, FD_CLOEXEC) != 0) {
    static const char message[] =
        "benchkit-spawner: this helper is started by benchkit, not by hand\n";
    [[maybe_unused]] auto ignored = write(STDERR_FILENO, message, sizeof message - 1);
    return 2;
  }
  install_interrupt_handler();
  freeze_signal_dispositions();
  std::string frame;
  while (wire::read_frame(kRequests, frame)) {
    RunRecord record;
    if (interrupt_requested()) {
      // Requests sent ahead of their turn after Ctrl-C (or benchkit's SIGTERM): not started.
      record.interrupted = true;
    } else if (const auto request = wire::decode_request(frame)) {
      record = run_one(*request);
    } else {
      record.error = "benchkit-spawner: a request could not be decoded (mismatched versions?)";
    }
    if (!wire::write_frame(kRecords, wire::encode(record))) return 1;
  }
  return 0;
}
