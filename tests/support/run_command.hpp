// Runs a real process for CLI tests: exit status, stdout and stderr.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>

namespace benchkit::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `command` is run by /bin/sh; stderr is captured through a temporary file.
inline CommandResult run_command(const std::string& command) {
  char err_path[] = "/tmp/benchkit-test-stderr-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd >= 0) close(fd);
  CommandResult result;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  std::remove(err_path);
  return result;
}

// `command` run by /bin/sh in a process group of its own, with SIGINT sent to the whole group
// (as a terminal's Ctrl-C reaches every process of the job) once `ready()` holds; its exit
// status, stdout and stderr. When `ready()` never holds within a minute, the group is killed
// and the exit status is -1.
inline CommandResult run_interrupted_when(const std::string& command,
                                          const std::function<bool()>& ready) {
  char out_path[] = "/tmp/benchkit-test-stdout-XXXXXX";
  char err_path[] = "/tmp/benchkit-test-stderr-XXXXXX";
  const int out_fd = mkstemp(out_path);
  const int err_fd = mkstemp(err_path);
  CommandResult result;
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_fd);
  close(err_fd);
  setpgid(pid, pid);  // as the child does: whichever runs first
  bool interrupted = false;
  for (int waited_ms = 0; waited_ms < 60'000 && !interrupted; waited_ms += 20) {
    if (ready()) {
      killpg(pid, SIGINT);
      interrupted = true;
    } else {
      usleep(20'000);
    }
  }
  if (!interrupted) killpg(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (interrupted) {
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  for (auto [path, text] : {std::pair{out_path, &result.out}, std::pair{err_path, &result.err}}) {
    std::ifstream file(path);
    std::stringstream read;
    read << file.rdbuf();
    *text = read.str();
    std::remove(path);
  }
  return result;
}

}  // namespace benchkit::testing
