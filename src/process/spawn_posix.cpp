#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "process/spawn.hpp"

extern char** environ;

namespace benchkit::process {

std::string Exit::describe() const {
  if (signal != 0) {
    const char* name = sigabbrev_np(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "exited with status " + std::to_string(exit_code);
}

model::Result<Exit> run_and_wait(const std::vector<std::string>& argv) {
  if (argv.empty()) return model::Error{"run_and_wait: no program given"};
  std::vector<char*> pointers;
  for (const std::string& argument : argv) pointers.push_back(const_cast<char*>(argument.c_str()));
  pointers.push_back(nullptr);
  pid_t pid = 0;
  const int error =
      argv[0].find('/') == std::string::npos
          ? posix_spawnp(&pid, argv[0].c_str(), nullptr, nullptr, pointers.data(), environ)
          : posix_spawn(&pid, argv[0].c_str(), nullptr, nullptr, pointers.data(), environ);
  if (error != 0) {
    return model::Error{"cannot start " + argv[0] + ": " + std::strerror(error)};
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return model::Error{"waiting for " + argv[0] + ": " + std::strerror(errno)};
  }
  Exit exit;
  if (WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  return exit;
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<std::size_t>(length)) : std::string();
}

}  // namespace benchkit::process
