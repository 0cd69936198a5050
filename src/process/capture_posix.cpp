#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>

#include "process/capture.hpp"

extern char** environ;

namespace benchkit::process {
namespace {

using Clock = std::chrono::steady_clock;

// Milliseconds left until `deadline` for poll(): -1 (no limit) without one, never below 0.
int poll_timeout(const std::optional<Clock::time_point>& deadline) {
  if (!deadline) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
  return static_cast<int>(std::max<std::int64_t>(0, left.count()));
}

// Reads the pipe until end of file, or until the deadline passes (then returns false).
bool drain(int fd, std::string& out, std::size_t limit,
           const std::optional<Clock::time_point>& deadline) {
  std::array<char, 4096> buffer{};
  while (true) {
    pollfd waiting{fd, POLLIN, 0};
    const int ready = poll(&waiting, 1, poll_timeout(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return false;
    if (ready < 0) return true;  // nothing more can be read; the exit status still counts
    const ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    const std::size_t room = limit - std::min(limit, out.size());
    out.append(buffer.data(), std::min(room, static_cast<std::size_t>(n)));
  }
}

}  // namespace

model::Result<Captured> run_captured(const std::vector<std::string>& argv,
                                     const CaptureOptions& options) {
  if (argv.empty()) return model::Error{"run_captured: no program given"};
  std::array<int, 2> pipe_fds = {-1, -1};
  const bool capture = options.out == Stream::capture;
  if (capture && pipe2(pipe_fds.data(), O_CLOEXEC) != 0) {
    return model::Error{"cannot create a pipe to read " + argv[0] + ": " + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (capture) {
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);  // clears CLOEXEC
  } else if (options.out == Stream::discard) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  }
  if (!options.err_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options.err_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  } else if (options.err != Stream::inherit) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  std::vector<char*> pointers;
  for (const std::string& argument : argv) pointers.push_back(const_cast<char*>(argument.c_str()));
  pointers.push_back(nullptr);
  pid_t pid = 0;
  int error = 0;
  std::string pin_error;
  {
    // Narrowed for the spawn only: the child keeps the CPU, this thread waits on all of its own.
    const SpawnOnCpu on_cpu(options.cpu);
    pin_error = on_cpu.error();
    if (pin_error.empty()) {
      error = argv[0].find('/') == std::string::npos
                  ? posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, pointers.data(), environ)
                  : posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, pointers.data(), environ);
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  if (capture) close(pipe_fds[1]);
  if (!pin_error.empty() || error != 0) {
    if (capture) close(pipe_fds[0]);
    return model::Error{"cannot start " + argv[0] + ": " +
                        (pin_error.empty() ? std::string(std::strerror(error)) : pin_error)};
  }

  Captured result;
  std::optional<Clock::time_point> deadline;
  if (options.timeout) deadline = Clock::now() + *options.timeout;
  if (capture) {
    result.timed_out = !drain(pipe_fds[0], result.out, options.limit, deadline);
    close(pipe_fds[0]);
  }
  // The child may have closed its output and still run: wait for it up to the deadline too.
  while (deadline && !result.timed_out) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      result.exit = exit_from_status(status);
      return result;
    }
    if (done < 0 && errno != EINTR) break;
    if (Clock::now() >= *deadline) {
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (result.timed_out) kill(pid, SIGKILL);
  result.exit = wait_for_exit(pid);
  return result;
}

}  // namespace benchkit::process
