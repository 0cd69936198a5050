#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "process/capture.hpp"
#include "process/spawn.hpp"

namespace benchkit::process {

Exit exit_from_status(int status) {
  Exit exit;
  if (WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  return exit;
}

Exit wait_for_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return exit_from_status(status);
}

model::Result<Exit> run_and_wait(const std::vector<std::string>& argv) {
  CaptureOptions options;
  options.out = Stream::inherit;
  options.err = Stream::inherit;
  auto finished = run_captured(argv, options);
  if (!finished) return finished.error();
  return finished->exit;
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<std::size_t>(length)) : std::string();
}

}  // namespace benchkit::process
