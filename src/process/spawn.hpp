// Running a child process directly (no shell) and waiting for it.
#pragma once

#include <sys/types.h>

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

// The path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace benchkit::process
