// vfork, exec, poll and wait4: one run of a command, accounted for.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>

#include "process/interrupt.hpp"
#include "process/run.hpp"
#include "process/spawn.hpp"

extern char** environ;

namespace benchkit::process {
namespace {

constexpr std::size_t kStderrKept = 16 * 1024;
constexpr double kKillGraceSeconds = 1.0;

double now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double timeval_ns(const timeval& t) {
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_usec) * 1e3;
}

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return true;
}

std::string errno_text(int error) {
  return std::strerror(error);
}

// The environment of the child: ours with the request's KEY=VALUE entries added or replaced.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> result;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const std::string_view key = text.substr(0, text.find('='));
    bool replaced = false;
    for (const std::string& e : extra) {
      replaced = replaced || std::string_view(e).substr(0, e.find('=')) == key;
    }
    if (!replaced) result.emplace_back(text);
  }
  result.insert(result.end(), extra.begin(), extra.end());
  return result;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// Reads what is available on `fd`; returns false at end of file or on an error.
bool read_available(int fd, std::string* keep, std::uint64_t* count, bool echo) {
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (count) *count += static_cast<std::uint64_t>(n);
      if (keep) {
        keep->append(buffer, static_cast<std::size_t>(n));
        if (keep->size() > 2 * kStderrKept) keep->erase(0, keep->size() - kStderrKept);
      }
      if (echo) {
        [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, buffer, std::size_t(n));
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

// /dev/null for reading and for writing, opened once and kept (close-on-exec): the input and
// output of most runs, which otherwise cost two opens and two closes each.
int dev_null(int flags) {
  static const int read_only = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  static const int write_only = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  return flags == O_RDONLY ? read_only : write_only;
}

void set_nonblocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// The path that execvp would run for `program` (a name without '/'), searched in this process's
// PATH once and remembered: a run of `true` with a PATH of eleven folders otherwise costs ten
// failed execve calls in the child before the one that works, every run (strace of `benchkit run
// --runs 200 -- true` here). Empty when no folder holds it as an executable regular file: the
// child then searches itself, and fails with execvp's own error.
const std::string& resolved_program(const std::string& program) {
  static std::map<std::string, std::string, std::less<>> found;
  if (const auto known = found.find(program); known != found.end()) return known->second;
  static const std::string none;
  const char* path = ::getenv("PATH");
  // execvp's default when PATH is unset.
  std::string_view folders = path ? path : "/bin:/usr/bin";
  while (true) {
    const std::size_t colon = folders.find(':');
    const std::string_view folder = folders.substr(0, colon);
    // An empty entry means the current folder.
    std::string candidate = folder.empty() ? program : std::string(folder) + "/" + program;
    struct stat status {};
    if (::stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      if (candidate.find('/') == std::string::npos) candidate = "./" + candidate;
      return found.emplace(program, std::move(candidate)).first->second;
    }
    if (colon == std::string_view::npos) return none;
    folders.remove_prefix(colon + 1);
  }
}

// What the child of vfork needs, prepared before: after vfork it may only make system calls.
struct ChildPlan {
  const char* program = nullptr;  // the file to execute (or the name to search, search_path)
  char* const* argv = nullptr;
  char* const* env = nullptr;
  bool search_path = false;
  int input = -1;
  int output = -1;  // -1: inherit
  int error = -1;
  cpu_set_t cpus;
  bool pin = false;
  sigset_t reset;                // the signals whose disposition the child sets back to the default
  volatile int exec_errno = 0;   // written by the child when it cannot exec
  volatile int failed_step = 0;  // 1: pinning, 2: exec
};

// Runs in the vfork child: its own process group (a timeout kills the whole tree), default
// signal handlers, the requested CPUs and file descriptors, then exec.
[[noreturn]] __attribute__((noinline)) void exec_child(ChildPlan& plan) {
  ::setpgid(0, 0);
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; ++number) {
    if (sigismember(&plan.reset, number) == 1) ::sigaction(number, &fallback, nullptr);
  }
  if (plan.pin && ::sched_setaffinity(0, sizeof plan.cpus, &plan.cpus) != 0) {
    plan.failed_step = 1;
    plan.exec_errno = errno;
    ::_exit(127);
  }
  ::dup2(plan.input, STDIN_FILENO);
  if (plan.output >= 0) ::dup2(plan.output, STDOUT_FILENO);
  ::dup2(plan.error, STDERR_FILENO);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (plan.search_path) {
    ::execvpe(plan.program, plan.argv, plan.env);
  } else {
    ::execve(plan.program, plan.argv, plan.env);
  }
  plan.failed_step = 2;
  plan.exec_errno = errno;
  ::_exit(127);
}

// The signals a child must set back to the default before exec: a handler of this process
// must not run in the child (it shares this process's memory until exec), and an ignored
// signal would stay ignored in the command. Each look-up is a system call (about 2 us here,
// as much as setting it), so by default every signal is reset; a process whose dispositions no
// longer change (the spawner) looks them up once with freeze_signal_dispositions().
struct Dispositions {
  bool frozen = false;
  sigset_t changed;
};
Dispositions dispositions;

// The child's argv and environment as the strings and the null-terminated pointer arrays that
// exec takes; built in place, since the pointers point into the strings.
struct ChildArguments {
  explicit ChildArguments(const RunRequest& request)
      : argv(request.argv), argv_pointers(pointers(argv)) {
    // Without KEY=VALUE entries of its own the child gets ours as it is: copying the environment
    // for every run was 70% of the helper's instructions per run (callgrind: 19 300 per run of
    // `true`, 13 500 of them in child_environment, malloc and free).
    if (!request.env.empty()) {
      env = child_environment(request.env);
      env_pointers = pointers(env);
    }
  }
  ChildArguments(const ChildArguments&) = delete;
  ChildArguments& operator=(const ChildArguments&) = delete;

  std::vector<std::string> argv;
  std::vector<char*> argv_pointers;
  std::vector<std::string> env;
  std::vector<char*> env_pointers;
};

// The child's standard streams as this process opens them before the fork: the input file, the
// output (a file, or a pipe and its read end) and the pipe that catches standard error.
struct Streams {
  Fd input;
  int input_fd = -1;  // what the child reads: the input file or /dev/null
  Fd output;
  Fd output_read;
  Fd error_read;
  Fd error_write;
};

// Opens the streams of the request; the error that names what could not be opened, or nothing.
std::optional<std::string> open_streams(const RunRequest& request, Streams& streams) {
  streams.input.reset(
      request.input_path.empty() ? -1 : ::open(request.input_path.c_str(), O_RDONLY | O_CLOEXEC));
  streams.input_fd = request.input_path.empty() ? dev_null(O_RDONLY) : streams.input.get();
  if (streams.input_fd < 0) {
    return "cannot open the input file " +
           (request.input_path.empty() ? std::string("/dev/null") : request.input_path) + ": " +
           errno_text(errno);
  }
  switch (request.output) {
    case Output::null:
      if (dev_null(O_WRONLY) < 0) return "cannot open /dev/null for writing: " + errno_text(errno);
      break;
    case Output::file:
      streams.output.reset(
          ::open(request.output_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
      if (streams.output.get() < 0) {
        return "cannot open the output file " + request.output_path + ": " + errno_text(errno);
      }
      break;
    case Output::pipe:
      if (!make_pipe(streams.output_read, streams.output)) {
        return "cannot create a pipe: " + errno_text(errno);
      }
      break;
    case Output::inherit:
      break;
  }
  if (!make_pipe(streams.error_read, streams.error_write)) {
    return "cannot create a pipe: " + errno_text(errno);
  }
  return std::nullopt;
}

// Fills what the vfork child reads (`program` is the resolved file; empty: let exec search).
void plan_child(const RunRequest& request, const ChildArguments& arguments, const Streams& streams,
                const std::string& program, ChildPlan& plan) {
  plan.program = program.empty() ? arguments.argv_pointers[0] : program.c_str();
  plan.argv = arguments.argv_pointers.data();
  plan.env = request.env.empty() ? environ : arguments.env_pointers.data();
  plan.search_path = program.empty();
  plan.input = streams.input_fd;
  plan.output = request.output == Output::null ? dev_null(O_WRONLY) : streams.output.get();
  plan.error = streams.error_write.get();
  CPU_ZERO(&plan.cpus);
  for (int cpu : request.cpus) CPU_SET(cpu, &plan.cpus);
  plan.pin = !request.cpus.empty();
  if (dispositions.frozen) {
    plan.reset = dispositions.changed;
  } else {
    sigfillset(&plan.reset);
  }
}

// The read ends of the child's standard error and output (-1: none), and whether each is
// still open; read as they fill, so that the child never blocks on a full pipe.
struct ChildPipes {
  int error_fd;
  int output_fd;
  bool error_open;
  bool output_open;
  bool echo;  // standard error is also copied to ours (Output::inherit)
};

// The child's end as wait4 reported it, and when it was seen.
struct Reaped {
  int status = 0;
  rusage usage{};
  double end_ns = 0.0;
};

// The timeout, once its deadline has passed: SIGTERM to the process group, then SIGKILL when the
// grace period after it has passed too (the deadline then becomes 0: none).
void enforce_timeout(pid_t pid, double& deadline, bool& killed, RunRecord& record) {
  if (!killed) {
    record.resources.timed_out = true;
    ::kill(-pid, SIGTERM);
    killed = true;
    deadline = now_ns() + kKillGraceSeconds * 1e9;
  } else {
    ::kill(-pid, SIGKILL);
    deadline = 0;
  }
}

// A poll wait of `wait_ms` (-1: none) shortened to end by `left_ms` from now.
int wait_at_most(int wait_ms, double left_ms) {
  const int left = static_cast<int>(std::ceil(left_ms));
  return wait_ms < 0 ? left : std::min(wait_ms, left);
}

// Reads the pipes that poll found ready (the pidfd only wakes the poll).
void read_ready(const pollfd* fds, nfds_t count, int pidfd, ChildPipes& pipes, RunRecord& record) {
  for (nfds_t i = 0; i < count; ++i) {
    if (fds[i].revents == 0 || fds[i].fd == pidfd) continue;
    const bool is_error = fds[i].fd == pipes.error_fd;
    const bool open =
        read_available(fds[i].fd, is_error ? &record.stderr_tail : nullptr,
                       is_error ? nullptr : &record.stdout_bytes, is_error && pipes.echo);
    (is_error ? pipes.error_open : pipes.output_open) = open;
  }
}

// Waits for the child to end, reading its pipes meanwhile; kills it on Ctrl-C or at the
// deadline (0: none), and makes the `meanwhile` call when its time comes.
Reaped wait_for_child(pid_t pid, double deadline, const Meanwhile& meanwhile, ChildPipes& pipes,
                      RunRecord& record) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  set_nonblocking(pipes.error_fd);
  if (pipes.output_fd >= 0) set_nonblocking(pipes.output_fd);
  bool killed = false;
  bool meanwhile_done = !meanwhile.call;
  Reaped reaped;
  for (;;) {
    if (interrupt_requested() && !record.interrupted) {
      record.interrupted = true;
      ::kill(-pid, SIGKILL);
    }
    const pid_t found = ::wait4(pid, &reaped.status, WNOHANG, &reaped.usage);
    if (found == pid) break;
    pollfd fds[3];
    nfds_t count = 0;
    if (pidfd >= 0) fds[count++] = pollfd{pidfd, POLLIN, 0};
    if (pipes.error_open) fds[count++] = pollfd{pipes.error_fd, POLLIN, 0};
    if (pipes.output_open) fds[count++] = pollfd{pipes.output_fd, POLLIN, 0};
    int wait_ms = pidfd >= 0 ? -1 : 5;  // without a pidfd, look at the child every 5 ms
    if (deadline > 0) {
      const double left_ms = (deadline - now_ns()) / 1e6;
      if (left_ms <= 0) {
        enforce_timeout(pid, deadline, killed, record);
        continue;
      }
      wait_ms = wait_at_most(wait_ms, left_ms);
    }
    if (!meanwhile_done) {
      const double left_ms = (meanwhile.at_ns - now_ns()) / 1e6;
      if (left_ms <= 0) {
        meanwhile.call();
        meanwhile_done = true;
        continue;
      }
      wait_ms = wait_at_most(wait_ms, left_ms);
    }
    const int ready = ::poll(fds, count, wait_ms);
    if (ready < 0) continue;  // EINTR: look at the interrupt flag and the child again
    read_ready(fds, count, pidfd, pipes, record);
  }
  reaped.end_ns = now_ns();
  if (pidfd >= 0) ::close(pidfd);
  return reaped;
}

// What is left in the pipes once the child has ended (a background grandchild may hold them
// open: do not wait), and the standard error kept to its last kStderrKept bytes.
void drain_rest(const ChildPipes& pipes, RunRecord& record) {
  if (pipes.error_open) read_available(pipes.error_fd, &record.stderr_tail, nullptr, pipes.echo);
  if (pipes.output_open) read_available(pipes.output_fd, nullptr, &record.stdout_bytes, false);
  if (record.stderr_tail.size() > kStderrKept) {
    record.stderr_tail.erase(0, record.stderr_tail.size() - kStderrKept);
  }
}

// The run's wall time, and its resources and exit status from wait4.
void account(const Reaped& reaped, double start, RunRecord& record) {
  record.wall_ns = reaped.end_ns - start;
  const rusage& usage = reaped.usage;
  Resources& r = record.resources;
  r.user_ns = timeval_ns(usage.ru_utime);
  r.system_ns = timeval_ns(usage.ru_stime);
  r.peak_rss_bytes = static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
  r.minor_faults = usage.ru_minflt;
  r.major_faults = usage.ru_majflt;
  r.voluntary_switches = usage.ru_nvcsw;
  r.involuntary_switches = usage.ru_nivcsw;
  if (WIFEXITED(reaped.status)) r.exit_code = WEXITSTATUS(reaped.status);
  if (WIFSIGNALED(reaped.status)) r.signal = WTERMSIG(reaped.status);
}

}  // namespace

void freeze_signal_dispositions() {
  sigemptyset(&dispositions.changed);
  for (int number = 1; number < NSIG; ++number) {
    struct sigaction current {};
    if (::sigaction(number, nullptr, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL) sigaddset(&dispositions.changed, number);
  }
  dispositions.frozen = true;
}

// Here rather than in spawn_posix.cpp: the spawner helper is built from this file without the
// rest of the process layer, and RunRecord::describe uses it.
std::string Exit::describe() const {
  if (signal != 0) {
    const char* name = sigabbrev_np(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "exited with status " + std::to_string(exit_code);
}

std::string RunRecord::describe(double timeout_seconds) const {
  if (!started) return error;
  if (interrupted) return "interrupted";
  if (resources.timed_out) {
    if (timeout_seconds <= 0) return "timed out (killed)";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
    return std::string("timed out after ") + seconds + " s (killed)";
  }
  return Exit{resources.exit_code.value_or(-1), resources.signal.value_or(0)}.describe();
}

std::string last_lines(const std::string& text, std::size_t max_lines) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  std::size_t start = end;
  std::size_t lines = 0;
  while (start > 0) {
    if (text[start - 1] == '\n' && ++lines == max_lines) break;
    --start;
  }
  return text.substr(start, end - start);
}

RunRecord run_one(const RunRequest& request, const Meanwhile& meanwhile) {
  RunRecord record;
  if (request.argv.empty()) {
    record.error = "no command given";
    return record;
  }
  // Everything the child needs is prepared before fork: after it, only exec and dup2.
  const ChildArguments arguments(request);
  Streams streams;
  if (std::optional<std::string> error = open_streams(request, streams)) {
    record.error = std::move(*error);
    return record;
  }
  ChildPlan plan;
  // The command's own argv[0] is left as given; only the file executed is the resolved one.
  const std::string& program = request.argv[0].find('/') == std::string::npos
                                   ? resolved_program(request.argv[0])
                                   : request.argv[0];
  plan_child(request, arguments, streams, program, plan);

  // vfork: the child borrows this small process's memory until it execs, which is cheaper than
  // copying it (fork) and keeps the command's ru_maxrss floor at this helper's own small peak.
  // Signals stay blocked until the child has reset their handlers.
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &previous);
  const double start = now_ns();
  const pid_t pid = ::vfork();
  if (pid == 0) exec_child(plan);
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) {
    record.error = "cannot start a process: " + errno_text(errno);
    return record;
  }
  ::setpgid(pid, pid);  // also here: no race with a kill of the group before the child ran
  streams.error_write.reset();
  streams.output.reset();
  streams.input.reset();
  // The child has exec'd or failed by now (vfork waits for either); a failure left its errno.
  if (plan.exec_errno != 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    record.error = (plan.failed_step == 1 ? "cannot pin to CPUs: "
                                          : "cannot start " + request.argv[0] + ": ") +
                   errno_text(plan.exec_errno);
    return record;
  }
  record.started = true;

  ChildPipes pipes{streams.error_read.get(), streams.output_read.get(), true,
                   streams.output_read.get() >= 0, request.output == Output::inherit};
  const double deadline = request.timeout_seconds > 0 ? start + request.timeout_seconds * 1e9 : 0.0;
  const Reaped reaped = wait_for_child(pid, deadline, meanwhile, pipes, record);
  drain_rest(pipes, record);
  account(reaped, start, record);
  return record;
}

}  // namespace benchkit::process
