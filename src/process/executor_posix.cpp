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
      : pid_(pid), requests_(requests), records_(records) {}
  ~SpawnerExecutor() override {
    // A run sent ahead and never asked for (the caller stopped: a failure, an interrupt) is
    // cut short: the helper's interrupt handler kills it, then end of file ends the helper.
    if (ahead_ && !dead_) ::kill(pid_, SIGTERM);
    ::close(requests_);
    ::close(records_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  SpawnerExecutor(const SpawnerExecutor&) = delete;
  SpawnerExecutor& operator=(const SpawnerExecutor&) = delete;

  RunRecord run(const RunRequest& request) override { return exchange(request, nullptr); }
  RunRecord run_then(const RunRequest& request, const RunRequest& next) override {
    return exchange(request, &next);
  }
  std::string peak_rss_method() const override { return kHelperMethod; }

 private:
  // Sends `request` (unless it went ahead already) and `next`, then reads `request`'s record.
  // The helper reads its requests in order, so `next` starts as soon as `request` ends.
  RunRecord exchange(const RunRequest& request, const RunRequest* next) {
    std::string frame = wire::encode(request);
    bool sent = false;
    if (ahead_) {
      sent = *ahead_ == frame;
      // Not the run sent ahead: it ran all the same; its record is read and dropped.
      if (!sent && !dead_) dead_ = !wire::read_frame(records_, answer_);
      ahead_.reset();
    }
    if (!sent && !dead_) dead_ = !wire::write_frame(requests_, frame);
    if (next && !dead_) {
      // Only a frame that fits an empty pipe whatever its size (PIPE_BUF): the helper, still
      // running `request`, reads it only after it has written that record.
      std::string following = wire::encode(*next);
      if (following.size() + sizeof(std::uint32_t) <= PIPE_BUF) {
        dead_ = !wire::write_frame(requests_, following);
        if (!dead_) ahead_ = std::move(following);
      }
    }
    if (!dead_ && wire::read_frame(records_, answer_)) {
      if (auto record = wire::decode_record(answer_)) return *record;
    }
    dead_ = true;
    RunRecord failed;
    failed.error = "the benchkit-spawner helper stopped answering (killed?)";
    return failed;
  }

  pid_t pid_;
  int requests_;
  int records_;
  bool dead_ = false;
  std::optional<std::string> ahead_;  // the frame of a request sent before its turn
  std::string answer_;
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
