// The git state of a folder (commit, branch, uncommitted changes), read by running git directly
// with an argument vector, never through a shell.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::vcs {

struct GitFacts {
  std::string commit;  // full hash of HEAD; empty outside a repository or before its first commit
  std::string
      branch;  // the checked-out branch ("main"); empty on a detached HEAD (but see git_facts)
  // Whether tracked files differ from HEAD (in the index or the work tree; untracked files do
  // not count, build folders are often untracked). Unset when there is no commit.
  std::optional<bool> dirty;

  bool empty() const { return commit.empty(); }
  friend bool operator==(const GitFacts&, const GitFacts&) = default;
};

// Runs git with `arguments` (what follows "git") in `folder`; its standard output when git
// exited with status 0, nothing when it could not start, failed or took too long.
using GitRunner = std::function<std::optional<std::string>(const std::string& folder,
                                                           const std::vector<std::string>&)>;

// The real runner: git from PATH, stdin from /dev/null, stderr discarded, at most 10 s.
std::optional<std::string> run_git(const std::string& folder,
                                   const std::vector<std::string>& arguments);

// The same with a time limit of 10 minutes: for checking out a revision of a large repository.
std::optional<std::string> run_git_unhurried(const std::string& folder,
                                             const std::vector<std::string>& arguments);

// The arguments git_facts passes to the runner: one `git status` that reports HEAD's commit,
// its branch and the changed tracked files, taking no optional lock (a benchmark started beside
// an editor's or a build's git must not make theirs fail).
std::vector<std::string> status_arguments();

// Facts from the output of status_arguments() (porcelain v2 with branch headers). Text that is
// not such output gives empty facts.
GitFacts parse_status(std::string_view porcelain);

// The git state of `folder` as `run` reports it; empty facts when it is not inside a repository,
// git is missing or git fails. Prints nothing.
GitFacts git_facts(const std::string& folder, const GitRunner& run);

// The same with the real git, which is not started at all when may_be_in_repository(folder) is
// false: outside a repository git would only fail, after 2 ms of start-up that `benchkit run`
// would otherwise spend beside its first runs. A detached HEAD at the commit a CI service built
// has the branch that service names (with_ci_branch, vcs/ci_checkout.hpp).
GitFacts git_facts(const std::string& folder);

// Whether git could see a repository from `folder`: GIT_DIR is set, or `folder` or one of its
// parents holds a `.git` (a folder, or the file of a linked worktree or submodule).
bool may_be_in_repository(const std::string& folder);

// Writes `facts` into the git fields of a result's context (commit, branch, dirty).
void record(const GitFacts& facts, Context& context);

}  // namespace benchkit::vcs
