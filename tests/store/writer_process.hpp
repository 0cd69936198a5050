// Starts tests/store/history_writer as a real process and reads the identities it prints after
// each committed run: the concurrency and kill -9 tests of both stores.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

extern char** environ;

namespace benchkit::testing {

class WriterProcess {
 public:
  WriterProcess(const std::string& location, int writer, int count) {
    int fds[2];
    if (pipe(fds) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const std::string program = std::string(BENCHKIT_BINARY_DIR) + "/tests/history_writer";
    std::vector<std::string> words{program, location, std::to_string(writer),
                                   std::to_string(count)};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      pid_ = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
  }
  WriterProcess(const WriterProcess&) = delete;
  WriterProcess& operator=(const WriterProcess&) = delete;
  ~WriterProcess() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_) fclose(out_);
  }

  bool started() const { return pid_ > 0 && out_ != nullptr; }

  // The next committed identity, or "" at the end of the output.
  std::string next() {
    char line[128];
    if (!out_ || !fgets(line, sizeof line, out_)) return {};
    std::string id(line);
    while (!id.empty() && id.back() == '\n') id.pop_back();
    return id;
  }

  void kill_now() { kill(pid_, SIGKILL); }

  // The exit status (128 + signal for a killed process).
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  bool reaped_ = false;
};

}  // namespace benchkit::testing
