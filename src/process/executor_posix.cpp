// The real executors: through the benchkit-spawner helper, or from this process as a fallback.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>

#include "process/run.hpp"
#include "process/spawn.hpp"
#include "process/wire.hpp"

extern char** environ;

namespace benchkit::process {
namespace {

constexpr const char* kHelperMethod =
    "wait4 ru_maxrss of a child started (vfork) from the small benchkit-spawner helper: "
    "benchkit's own memory is not counted; floor about 0.8 MiB";

class LocalExecutor : public Executor {
 public:
  RunRecord run(const RunRequest& request) override { return run_one(request); }
  std::string peak_rss_method() const override {
    return "wait4 ru_maxrss of a child started from benchkit itself (benchkit-spawner not "
           "found): small commands show benchkit's own memory as a floor";
  }
};

class SpawnerExecutor : public Executor {
 public:
  SpawnerExecutor(pid_t pid, int requests, int records)
      : pid_(pid), requests_(requests), records_fd_(records), records_(records) {
    // Runs announced ahead are written only when the pipe has room (wire::try_write_frame), so
    // this process never waits on the helper while the helper waits on it.
    ::fcntl(requests_, F_SETFL, O_NONBLOCK);
  }
  ~SpawnerExecutor() override {
    // Runs sent ahead and never asked for (the caller stopped: a failure, an interrupt) are cut
    // short: the helper's interrupt handler kills the one running and starts no other, then
    // end of file ends the helper.
    if (!ahead_.empty() && !dead_) ::kill(pid_, SIGTERM);
    ::close(requests_);
    ::close(records_fd_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  SpawnerExecutor(const SpawnerExecutor&) = delete;
  SpawnerExecutor& operator=(const SpawnerExecutor&) = delete;

  bool announce(const RunRequest& request) override {
    if (dead_ || ahead_.size() >= kMostAhead) return false;
    std::string frame(1, static_cast<char>(wire::Turn::ahead));
    frame += wire::encode(request);
    if (!wire::try_write_frame(requests_, frame)) return false;
    frame.erase(0, 1);
    ahead_.push_back(std::move(frame));
    return true;
  }

  RunRecord run(const RunRequest& request) override {
    const std::string body = wire::encode(request);
    // The helper answers in the order it was asked: the records of runs announced before this
    // one (and not asked for: a failure stopped their benchmark) come first and are dropped.
    while (!ahead_.empty() && !dead_) {
      const bool asked = ahead_.front() == body;
      ahead_.pop_front();
      std::optional<RunRecord> record = read_record();
      if (!asked || !record) continue;
      if (!skipped_) return *record;
      // Skipped: a run before it failed, and the helper skips every run sent ahead after a
      // failure until it is asked for one now. Drop the rest, and ask for this one now.
      while (!ahead_.empty() && !dead_) {
        ahead_.pop_front();
        read_record();
      }
    }
    std::string frame(1, static_cast<char>(wire::Turn::now));
    frame += body;
    if (!dead_) dead_ = !wire::write_frame(requests_, frame);
    if (std::optional<RunRecord> record = read_record(); record && !skipped_) return *record;
    dead_ = true;
    RunRecord failed;
    failed.error = "the benchkit-spawner helper stopped answering (killed?)";
    return failed;
  }
  std::string peak_rss_method() const override { return kHelperMethod; }

 private:
  // Enough runs ahead that the helper still has runs to start while this process reads a batch
  // of records (the helper sends up to 16 at a time).
  static constexpr std::size_t kMostAhead = 48;

  // The next record from the helper (skipped_ says whether it skipped that run); nothing, and
  // dead_, when the helper is gone or the record is damaged.
  std::optional<RunRecord> read_record() {
    std::string_view frame;
    if (!dead_ && records_.next(frame) && !frame.empty()) {
      skipped_ = frame[0] == static_cast<char>(wire::Outcome::skipped);
      if (auto record = wire::decode_record(frame.substr(1))) return record;
    }
    dead_ = true;
    return std::nullopt;
  }

  pid_t pid_;
  int requests_;
  int records_fd_;
  wire::FrameInput records_;
  bool dead_ = false;
  bool skipped_ = false;
  std::deque<std::string> ahead_;  // requests announced and sent, whose records are not read
};

std::string find_helper() {
  if (const char* path = std::getenv("BENCHKIT_SPAWNER"); path && *path) return path;
  const std::filesystem::path self = self_executable();
  for (const std::filesystem::path& candidate :
       {self.parent_path() / "benchkit-spawner",
        self.parent_path().parent_path() / "libexec" / "benchkit" / "benchkit-spawner"}) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

}  // namespace

ExecutorChoice make_executor() {
  ExecutorChoice choice;
  const std::string helper = find_helper();
  int requests[2] = {-1, -1};
  int records[2] = {-1, -1};
  if (!helper.empty() && pipe2(requests, O_CLOEXEC) == 0 && pipe2(records, O_CLOEXEC) == 0) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, requests[0], 3);
    posix_spawn_file_actions_adddup2(&actions, records[1], 4);
    char* argv[] = {const_cast<char*>(helper.c_str()), nullptr};
    pid_t pid = 0;
    const int error = posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(requests[0]);
    ::close(records[1]);
    if (error == 0) {
      choice.executor = std::make_unique<SpawnerExecutor>(pid, requests[1], records[0]);
      return choice;
    }
    ::close(requests[1]);
    ::close(records[0]);
    choice.warning = "cannot start " + helper + " (" + std::strerror(error) + ")";
  } else if (helper.empty()) {
    choice.warning =
        "the benchkit-spawner helper was not found next to this executable (set "
        "BENCHKIT_SPAWNER to its path)";
  }
  choice.warning +=
      "; commands are started from benchkit itself, so a small command's peak RSS "
      "includes benchkit's own memory";
  choice.executor = std::make_unique<LocalExecutor>();
  return choice;
}

}  // namespace benchkit::process
