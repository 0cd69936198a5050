#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "process/interrupt.hpp"
#include "process/spawn.hpp"
#include "process/turns.hpp"

extern char** environ;

namespace benchkit::process {

namespace {

bool send_byte(int fd, char byte) {
  for (;;) {
    const ssize_t sent = send(fd, &byte, 1, MSG_NOSIGNAL);
    if (sent == 1) return true;
    if (sent < 0 && errno == EINTR) continue;
    return false;
  }
}

// The next byte, or '\0' at end of file or on an error.
char receive_byte(int fd) {
  char byte = 0;
  for (;;) {
    const ssize_t got = recv(fd, &byte, 1, 0);
    if (got == 1) return byte;
    if (got < 0 && errno == EINTR) continue;
    return '\0';
  }
}

}  // namespace

bool await_turn(int fd) {
  return send_byte(fd, 'R') && receive_byte(fd) == 'G';
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

model::Result<TurnTaker> TurnTaker::spawn(const std::vector<std::string>& argv,
                                          std::optional<int> cpu, const std::string& stderr_path) {
  if (argv.empty()) return model::Error{"no program to run"};
  // The child inherits this thread's CPU mask: narrowed to `cpu` for the spawn, then restored.
  const SpawnOnCpu on_cpu(cpu);
  if (!on_cpu.error().empty()) return model::Error{on_cpu.error()};
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    return model::Error{fmt::format("cannot create a socket pair: {}", std::strerror(errno))};
  }
  // The child's end is moved above kTurnFd first, so that the dup2 onto kTurnFd always clears
  // close-on-exec (a dup2 of a descriptor onto itself would not).
  const int child_end = fcntl(pair[1], F_DUPFD_CLOEXEC, 10);
  close(pair[1]);
  if (child_end < 0) {
    close(pair[0]);
    return model::Error{fmt::format("cannot set up the socket: {}", std::strerror(errno))};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_end, kTurnFd);
  if (!stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  }
  std::vector<char*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
  pointers.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(child_end);
  if (error != 0) {
    close(pair[0]);
    return model::Error{fmt::format("cannot run {}: {}", argv[0], std::strerror(error))};
  }
  return TurnTaker(pid, pair[0]);
}

TurnTaker::TurnTaker(TurnTaker&& other) noexcept : pid_(other.pid_), fd_(other.fd_) {
  other.pid_ = -1;
  other.fd_ = -1;
}

TurnTaker::~TurnTaker() {
  if (fd_ >= 0) close(fd_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    wait_for_exit(pid_);
  }
}

char TurnTaker::receive() {
  if (timed_out_ || interrupted_) return '\0';
  // Stops waiting for good: the worker is killed, and `why` says for what.
  auto give_up = [this](bool& why) {
    why = true;
    kill(pid_, SIGKILL);
    return '\0';
  };
  const auto deadline = timeout_ ? std::chrono::steady_clock::now() + *timeout_
                                 : std::chrono::steady_clock::time_point::max();
  for (;;) {
    // Ctrl-C (process/interrupt.hpp), before the wait or during it (poll then says EINTR).
    if (interrupt_requested()) return give_up(interrupted_);
    int wait_ms = -1;
    if (timeout_) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::max<std::int64_t>(0, left.count()));
    }
    pollfd watched{fd_, POLLIN, 0};
    const int ready = poll(&watched, 1, wait_ms);
    if (ready > 0) break;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return give_up(timed_out_);
    break;  // a poll error: let recv report it
  }
  return receive_byte(fd_);
}

bool TurnTaker::wait_ready() {
  return receive() == 'R';
}

bool TurnTaker::give_turn() {
  return send_byte(fd_, 'G') && receive() == 'R';
}

Exit TurnTaker::finish() {
  if (fd_ >= 0) {
    send_byte(fd_, 'S');
    close(fd_);
    fd_ = -1;
  }
  // A worker that hangs while it writes its results is killed too.
  if (timeout_ && !timed_out_) {
    const auto deadline = std::chrono::steady_clock::now() + *timeout_;
    for (;;) {
      int status = 0;
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        pid_ = -1;
        return exit_from_status(status);
      }
      if (done < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        timed_out_ = true;
        kill(pid_, SIGKILL);
        break;
      }
      usleep(1000);
    }
  }
  const Exit exit = wait_for_exit(pid_);
  pid_ = -1;
  return exit;
}

}  // namespace benchkit::process
