// Revisions of a repository as git names them: the commit a name resolves to, its subject, the
// uncommitted changes of the work tree, and the commits between two revisions with their parents
// (for bisection). Every question is one git command run directly through a GitRunner (no shell),
// so that tests can answer with a fake.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "vcs/git.hpp"

namespace benchkit::vcs {

// The top folder of the repository `folder` is in (git rev-parse --show-toplevel). The error
// names the folder and says to run from inside a git repository.
model::Result<std::string> repository_root(const std::string& folder,
                                           const GitRunner& run = run_git);

// The full commit hash `name` resolves to (a tag, a branch, a commit, HEAD~3). The error (kind
// input) names the revision and the repository, and says how to list what git knows.
model::Result<std::string> resolve_commit(const std::string& root, const std::string& name,
                                          const GitRunner& run = run_git);

// The first line of the commit message; empty when git cannot tell.
std::string commit_subject(const std::string& root, const std::string& commit,
                           const GitRunner& run = run_git);

// Writes the uncommitted changes of tracked files (git diff HEAD, binary, with no colour, no
// external diff tool and no user's diff settings that change its bytes) to `diff_file`; returns
// whether there were any. Untracked files are not part of it.
model::Result<bool> write_uncommitted_diff(const std::string& root, const std::string& diff_file,
                                           const GitRunner& run = run_git);

// The git object hash (SHA-1 or SHA-256, as the repository uses) of a file's bytes, for naming a
// diff; the error names the file.
model::Result<std::string> hash_file(const std::string& root, const std::string& path,
                                     const GitRunner& run = run_git);

// A commit and its parents.
struct CommitNode {
  std::string commit;
  std::vector<std::string> parents;
  friend bool operator==(const CommitNode&, const CommitNode&) = default;
};

// The output of git rev-list --parents: one line per commit, its hash then its parents'.
std::vector<CommitNode> parse_rev_list_parents(const std::string& text);

// The commits that descend from `good` and lead to `bad` (git rev-list --ancestry-path
// good..bad), `bad` included and `good` not, newest first, each with its parents. The error says
// when `good` is not an ancestor of `bad` (the order was swapped, or they are on separate
// branches).
model::Result<std::vector<CommitNode>> commits_between(const std::string& root,
                                                       const std::string& good,
                                                       const std::string& bad,
                                                       const GitRunner& run = run_git);

// The first 12 characters of a commit hash, as messages and folder names show it.
std::string short_commit(const std::string& commit);

}  // namespace benchkit::vcs
