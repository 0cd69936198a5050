#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "measure/memory.hpp"
#include "process/interrupt.hpp"
#include "process/worker_invocation.hpp"
#include "process/worker_protocol.hpp"
#include "session/launchers.hpp"

namespace benchkit::session {
namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

// A child process read through its stream pipe and its stderr pipe.
class PipeWorker final : public Worker {
 public:
  PipeWorker(pid_t pid, int stream_fd, int stderr_fd)
      : pid_(pid), stream_fd_(stream_fd), stderr_fd_(stderr_fd) {}
  PipeWorker(const PipeWorker&) = delete;
  PipeWorker& operator=(const PipeWorker&) = delete;
  ~PipeWorker() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
    close_fd(stream_fd_);
    close_fd(stderr_fd_);
  }

  WorkerEvent next(std::optional<Deadline> deadline) override {
    for (;;) {
      if (auto frame = reader_.next()) return event_of(std::move(*frame));
      if (reader_.broken()) return end_now(false);
      if (stream_fd_ < 0 && stderr_fd_ < 0) return finish();
      if (process::interrupt_requested()) return end_now(false, /*interrupted=*/true);
      // Wake up at least every 200 ms: a worker whose pipes a grandchild keeps open has still
      // ended when waitpid says so.
      int wait_ms = 200;
      if (deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            *deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return end_now(true);
        wait_ms = static_cast<int>(std::min<std::int64_t>(wait_ms, left.count() + 1));
      }
      const int ready = read_ready(wait_ms);
      if (ready < 0 && poll_error_ != EINTR) return end_now(false);
      if (ready <= 0 && exited_without_waiting()) {
        drain();
        close_fd(stream_fd_);
        close_fd(stderr_fd_);
      }
    }
  }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }

  WorkerEvent event_of(process::worker::Frame frame) {
    WorkerEvent event;
    switch (frame.kind) {
      case process::worker::FrameKind::started:
        // The tail is not cut here: a frame and the stderr written after it can arrive in
        // either order, and the lines a crash leaves would be lost. A forked worker runs one
        // benchmark; a fresh process's tail may begin with an earlier benchmark's lines.
        event.kind = WorkerEvent::Kind::started;
        break;
      case process::worker::FrameKind::finished:
        event.kind = WorkerEvent::Kind::finished;
        break;
      case process::worker::FrameKind::fact:
        event.kind = WorkerEvent::Kind::fact;
        break;
    }
    event.text = std::move(frame.payload);
    return event;
  }

  void read_stream() {
    // 16 KiB: a stack page touched stays resident for the rest of the run, and a pipe holds
    // 64 KiB, so a larger buffer only saved a few reads of each result.
    char buffer[16384];
    const ssize_t got = ::read(stream_fd_, buffer, sizeof buffer);
    if (got > 0) {
      reader_.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      close_fd(stream_fd_);
    }
  }

  void read_stderr() {
    char buffer[8192];
    const ssize_t got = ::read(stderr_fd_, buffer, sizeof buffer);
    if (got > 0) {
      // Passed on as it comes: a benchmark's own messages, and a crash's, reach the user.
      write_all(STDERR_FILENO, buffer, static_cast<std::size_t>(got));
      stderr_text_.append(buffer, static_cast<std::size_t>(got));
      if (stderr_text_.size() > 4 * kStderrTailBytes)
        stderr_text_.erase(0, stderr_text_.size() - kStderrTailBytes);
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      close_fd(stderr_fd_);
    }
  }

  // Waits up to `wait_ms` for either pipe and reads what has arrived; poll's result (its errno
  // in poll_error_ when negative).
  int read_ready(int wait_ms) {
    pollfd fds[2];
    nfds_t count = 0;
    if (stream_fd_ >= 0) fds[count++] = pollfd{stream_fd_, POLLIN, 0};
    if (stderr_fd_ >= 0) fds[count++] = pollfd{stderr_fd_, POLLIN, 0};
    const int ready = ::poll(fds, count, wait_ms);
    poll_error_ = ready < 0 ? errno : 0;
    for (nfds_t i = 0; ready > 0 && i < count; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == stream_fd_) {
        read_stream();
      } else if (fds[i].fd == stderr_fd_) {
        read_stderr();
      }
    }
    return ready;
  }

  // Reads what is left in both pipes without waiting.
  void drain() {
    for (int round = 0; round < 64 && (stream_fd_ >= 0 || stderr_fd_ >= 0); ++round) {
      if (read_ready(0) <= 0) return;
    }
  }

  bool exited_without_waiting() {
    if (pid_ <= 0) return true;
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done != pid_) return false;
    status_ = status;
    pid_ = -1;
    return true;
  }

  void reap() {
    if (pid_ <= 0) return;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = status;
    pid_ = -1;
  }

  WorkerEvent finish() {
    reap();
    WorkerEvent event;
    event.kind = WorkerEvent::Kind::ended;
    event.end.exit = process::exit_from_status(status_);
    event.end.stderr_tail = stderr_tail(stderr_text_);
    // A terminal's Ctrl-C reaches the worker too (one process group), and can end it before this
    // process has seen its own: a worker ended by SIGINT, or when Ctrl-C was asked, was
    // interrupted, not crashed (`benchkit noise` then lost every process of the benchmark).
    event.end.interrupted =
        event.end.exit.signal == SIGINT || (process::interrupt_requested() && !event.end.exit.ok());
    return event;
  }

  // Kills the worker (at its deadline, on Ctrl-C, or for a broken stream) and says so.
  WorkerEvent end_now(bool timed_out, bool interrupted = false) {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
    reap();
    drain();
    close_fd(stream_fd_);
    close_fd(stderr_fd_);
    WorkerEvent event;
    event.kind = WorkerEvent::Kind::ended;
    event.end.exit = process::exit_from_status(status_);
    event.end.timed_out = timed_out;
    event.end.interrupted = interrupted;
    event.end.stderr_tail = stderr_tail(stderr_text_);
    return event;
  }

  pid_t pid_;
  int stream_fd_;
  int stderr_fd_;
  int status_ = 0;
  int poll_error_ = 0;
  process::worker::FrameReader reader_;
  std::string stderr_text_;
};

struct Pipes {
  int stream[2] = {-1, -1};
  int err[2] = {-1, -1};
  ~Pipes() {
    for (int fd : {stream[0], stream[1], err[0], err[1]}) {
      if (fd >= 0) ::close(fd);
    }
  }
  bool open() { return ::pipe2(stream, O_CLOEXEC) == 0 && ::pipe2(err, O_CLOEXEC) == 0; }
  // The parent's ends, non-blocking, handed to a PipeWorker.
  std::unique_ptr<Worker> parent_side(pid_t pid) {
    ::close(stream[1]);
    ::close(err[1]);
    stream[1] = err[1] = -1;
    ::fcntl(stream[0], F_SETFL, ::fcntl(stream[0], F_GETFL) | O_NONBLOCK);
    ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
    auto worker = std::make_unique<PipeWorker>(pid, stream[0], err[0]);
    stream[0] = err[0] = -1;
    return worker;
  }
};

// In a child: it dies with this process. A worker outlives a supervisor killed with kill -9
// otherwise, and a hanging benchmark would run on for ever (holding the terminal or a pipe).
// Async-signal-safe, for use between fork and exec. Out of line: it is the first thing a forked
// worker runs, where scripts/hot-functions tells a worker's code from its supervisor's.
[[gnu::noinline]] void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(137);  // the parent died before the line above
}

model::Error cannot_start(const char* what) {
  return model::Error{
      fmt::format("cannot start a worker process ({} failed: {})", what, std::strerror(errno))};
}

// Forks a worker with `pipes`: in the child, `child` runs with its stderr on the stderr pipe,
// Ctrl-C back to its default (the parent records the interruption) and death with this process;
// it must end the child (_exit or exec). Nothing buffered here may be written twice, once by
// each process, so the streams are flushed first.
template <class Child>
model::Result<std::unique_ptr<Worker>> fork_worker(Pipes& pipes, Child child) {
  if (!pipes.open()) return cannot_start("pipe");
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return cannot_start("fork");
  if (pid == 0) {
    // Only async-signal-safe calls until `child` (which execs, or runs a forked benchmark).
    die_with_parent(parent);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::dup2(pipes.err[1], STDERR_FILENO);
    child();
    ::_exit(127);
  }
  return pipes.parent_side(pid);
}

}  // namespace

model::Result<std::unique_ptr<Worker>> ForkLauncher::launch(
    const std::vector<std::size_t>& benchmarks) {
  // A forked worker's resident set starts with every page of this process's heap that is
  // resident, free or not. The previous benchmark's result (its samples parsed, rendered for
  // --out) leaves a few MiB of freed chunks behind; glibc keeps them until the top of the heap
  // is free. Handed back first, they count neither in the worker's peak nor in this one's.
  measure::release_free_heap();
  Pipes pipes;
  return fork_worker(pipes, [&] {
    // A forked benchmark ends with _exit: the parent's atexit work is not its own.
    ::close(pipes.stream[0]);
    ::close(pipes.err[0]);
    int status = 0;
    try {
      body_(benchmarks, pipes.stream[1]);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "error: %s\n", error.what());
      status = 1;
    } catch (...) {
      status = 1;
    }
    std::cout.flush();
    std::fflush(nullptr);
    ::_exit(status);
  });
}

model::Result<std::unique_ptr<Worker>> ExecLauncher::launch(
    const std::vector<std::size_t>& benchmarks) {
  process::WorkerInvocation invocation = invocation_;
  invocation.indices = benchmarks;
  invocation.stream_fd = process::worker::kStreamFd;
  std::vector<std::string> argv = program_;
  const std::vector<std::string> flags = invocation.to_argv();
  argv.insert(argv.end(), flags.begin(), flags.end());
  std::vector<char*> pointers;
  for (std::string& word : argv) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  std::vector<std::string> environment = options_.environment.value_or(std::vector<std::string>{});
  std::vector<char*> variables;
  for (std::string& variable : environment) variables.push_back(variable.data());
  variables.push_back(nullptr);
  const bool own_environment = options_.environment.has_value();
  const bool fixed_addresses = options_.fixed_addresses;
  Pipes pipes;
  return fork_worker(pipes, [&] {
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    if (pipes.stream[1] == process::worker::kStreamFd) {
      ::fcntl(pipes.stream[1], F_SETFD, 0);
    } else {
      ::dup2(pipes.stream[1], process::worker::kStreamFd);  // dup2 clears close-on-exec
    }
    if (fixed_addresses) ::personality(ADDR_NO_RANDOMIZE);
    if (own_environment) {
      ::execve(pointers[0], pointers.data(), variables.data());
    } else {
      ::execv(pointers[0], pointers.data());
    }
    const char message[] = "error: cannot execute the bench binary\n";
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(127);
  });
}

}  // namespace benchkit::session
