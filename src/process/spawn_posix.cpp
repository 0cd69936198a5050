#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

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

SpawnOnCpu::SpawnOnCpu(std::optional<int> cpu) {
  if (!cpu) return;
  if (sched_getaffinity(0, sizeof(previous_), &previous_) != 0) {
    error_ = fmt::format("cannot read this process's CPUs: {}", std::strerror(errno));
    return;
  }
  cpu_set_t only;
  CPU_ZERO(&only);
  CPU_SET(*cpu, &only);
  if (sched_setaffinity(0, sizeof(only), &only) != 0) {
    error_ = fmt::format("cannot run on CPU {}: {}", *cpu, std::strerror(errno));
    return;
  }
  pinned_ = true;
}

SpawnOnCpu::~SpawnOnCpu() {
  if (pinned_) sched_setaffinity(0, sizeof(previous_), &previous_);
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<std::size_t>(length)) : std::string();
}

}  // namespace benchkit::process
