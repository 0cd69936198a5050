// Running a child process directly (no shell) and waiting for it.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"

namespace benchkit::process {

struct Exit {
  int exit_code = -1;  // when the child exited
  int signal = 0;      // when a signal ended it (exit_code is then -1)
  bool ok() const { return signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exited with status 3", "killed by signal 11 (SIGSEGV)"
};

// How a child ended, from the status waitpid reported.
Exit exit_from_status(int status);

// Waits for child `pid` to end (retrying when a signal interrupts the wait) and says how.
Exit wait_for_exit(pid_t pid);

// Spawns argv[0] with `argv` (searched in PATH when it has no '/'), stdin from /dev/null, stdout
// and stderr inherited, and waits for it. The error names the program when it cannot start.
model::Result<Exit> run_and_wait(const std::vector<std::string>& argv);

// While it lives, the calling thread runs on CPU `cpu` only (none: on the CPUs it had), so that a
// child spawned meanwhile inherits that one CPU; the previous CPUs come back when it ends. Two
// processes that a comparison pairs run on one CPU so: the CPUs of a VM can differ in speed for
// seconds at a time (docs/verdicts.md, "Why one CPU").
class SpawnOnCpu {
 public:
  explicit SpawnOnCpu(std::optional<int> cpu);
  ~SpawnOnCpu();
  SpawnOnCpu(const SpawnOnCpu&) = delete;
  SpawnOnCpu& operator=(const SpawnOnCpu&) = delete;
  // Empty when the thread is on `cpu` (or none was asked for); else why it could not be.
  const std::string& error() const { return error_; }

 private:
  bool pinned_ = false;
  cpu_set_t previous_{};
  std::string error_;
};

// The path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace benchkit::process
