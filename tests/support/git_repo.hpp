// A real git repository in a temporary folder, for the tests of git worktrees, revisions and
// builds: files written, committed, tagged, with a fixed identity and no user configuration.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process/capture.hpp"
#include "process/temporary_folder.hpp"

namespace benchkit::testing {

class GitRepo {
 public:
  GitRepo() {
    // The user's and the system's git configuration must not change what the tests see.
    ::setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    ::setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    ::setenv("GIT_AUTHOR_NAME", "benchkit test", 1);
    ::setenv("GIT_AUTHOR_EMAIL", "test@example.com", 1);
    ::setenv("GIT_COMMITTER_NAME", "benchkit test", 1);
    ::setenv("GIT_COMMITTER_EMAIL", "test@example.com", 1);
    auto made = process::make_temporary_folder("benchkit-git-repo");
    root_ = made ? std::filesystem::canonical(*made).string() : std::string("/nonexistent");
    git({"init", "--quiet", "--initial-branch=main"});
  }
  ~GitRepo() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  GitRepo(const GitRepo&) = delete;
  GitRepo& operator=(const GitRepo&) = delete;

  const std::string& root() const { return root_; }

  // git ARGS in the repository; its stdout. A failure fails the test.
  std::string git(const std::vector<std::string>& arguments) const {
    std::vector<std::string> argv = {"git", "-C", root_};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const auto done = process::run_captured(argv);
    EXPECT_TRUE(done && done->exit.ok()) << "git " << arguments.front() << " failed";
    return done ? done->out : std::string();
  }

  void write(const std::string& path, const std::string& text) const {
    const auto full = std::filesystem::path(root_) / path;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full) << text;
  }

  // Writes the files and commits them; the new commit's hash.
  std::string commit(const std::string& message,
                     const std::vector<std::pair<std::string, std::string>>& files) const {
    for (const auto& [path, text] : files) write(path, text);
    git({"add", "--all"});
    git({"commit", "--quiet", "-m", message});
    return head();
  }

  std::string head() const {
    std::string out = git({"rev-parse", "HEAD"});
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  // What the user sees: status, stash, branches, HEAD; equal before and after a command.
  std::string user_state() const {
    return git({"status", "--porcelain", "--untracked-files=all"}) + "--\n" +
           git({"stash", "list"}) + "--\n" + git({"branch", "--list"}) + "--\n" + head() + "\n" +
           git({"diff", "--cached"});
  }

 private:
  std::string root_;
};

}  // namespace benchkit::testing
