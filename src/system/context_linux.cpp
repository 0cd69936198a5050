#include <fcntl.h>
#include <spawn.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sha2.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string_view>
#include <thread>
#include <vector>

#include "system/context.hpp"

extern char** environ;

namespace benchkit::system {
namespace {

std::string trim(std::string text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

// Output of git with fixed arguments, started without a shell; empty when git is missing or
// fails (not a repository).
std::string git(std::vector<const char*> arguments) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  arguments.insert(arguments.begin(), "git");
  arguments.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, "git", &actions, nullptr,
                                 const_cast<char* const*>(arguments.data()), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string output;
  if (error == 0) {
    std::array<char, 4096> buffer{};
    for (;;) {
      const ssize_t n = ::read(out[0], buffer.data(), buffer.size());
      if (n > 0) {
        output.append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        break;
      }
    }
  }
  ::close(out[0]);
  if (error != 0) return {};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? output : std::string();
}

// The commit, the branch and whether tracked files changed, from one `git status` (porcelain v2
// with --branch prints "# branch.oid" and "# branch.head" before the changed entries): three
// `sh -c "git ..."` took 30-40 ms of every benchkit invocation in a checkout here. Without
// optional locks git does not rewrite the index (faster, and no lock to collide with a build).
void read_git(Context& context) {
  const std::string status = git({"--no-optional-locks", "status", "--porcelain=v2", "--branch",
                                  "--untracked-files=no", "--no-renames"});
  std::size_t start = 0;
  while (start < status.size()) {
    std::size_t end = status.find('\n', start);
    if (end == std::string::npos) end = status.size();
    const std::string_view line(status.data() + start, end - start);
    start = end + 1;
    if (line.rfind("# branch.oid ", 0) == 0) {
      const std::string_view oid = line.substr(13);
      if (oid != "(initial)") context.git_commit = oid;
    } else if (line.rfind("# branch.head ", 0) == 0) {
      const std::string_view head = line.substr(14);
      context.git_branch = head == "(detached)" ? "HEAD" : head;  // as rev-parse --abbrev-ref
    } else if (!line.empty() && line.front() != '#') {
      context.git_dirty = true;
    }
  }
  if (context.git_commit.empty()) {
    context.git_branch.clear();
    context.git_dirty = false;
  }
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return trim(line.substr(colon + 1));
    }
  }
  return {};
}

std::string os_name() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
  }
  return "Linux";
}

}  // namespace

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

// libmd (Debian's libmd0, 70 KiB) rather than OpenSSL's libcrypto: mapped in every bench binary
// and every `benchkit` command, libcrypto's relocations and start-up alone kept 2.8 MiB resident
// (smaps of bench/peers/benchkit_peers), 30% of a small suite's peak RSS.
std::string sha256_of_file(const std::string& path) {
  std::array<char, SHA256_DIGEST_STRING_LENGTH> hex{};
  if (SHA256File(path.c_str(), hex.data()) == nullptr) return {};
  return hex.data();
}

Context collect_context(bool identify_executable) {
  Context context;
  context.date = utc_now_iso8601();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) context.hostname = host.data();
  context.os = os_name();
  utsname names{};
  if (uname(&names) == 0) {
    context.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
  }
  context.cpu_model = cpu_model();
  context.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  read_git(context);
  if (!identify_executable) return context;
  std::array<char, 4096> exe{};
  const ssize_t length = readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (length > 0) {
    context.executable.assign(exe.data(), static_cast<std::size_t>(length));
    context.executable_sha256 = sha256_of_file(context.executable);
  }
  return context;
}

}  // namespace benchkit::system
