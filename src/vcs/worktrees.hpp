// Worktrees that benchkit ab and bisect build revisions in: ROOT/.benchkit/worktrees/NAME, one
// per commit (and per diff of uncommitted changes), made with git worktree add --detach so that
// the user's checkout, index, branches and stash are never touched. A worktree is kept once it
// is complete (its builds are cached beside it) and checked each time it is used again.
//
// Protocol: the worktree is made, the diff (if any) applied, then the marker NAME.ready written
// beside it. A folder without its marker was left by an interrupted run; a complete one whose
// files were changed since is refused too (a build of it would not be the revision it claims).
#pragma once

#include <string>

#include "model/error.hpp"
#include "vcs/git.hpp"

namespace benchkit::vcs {

// What to check out: a commit, and optionally the uncommitted changes of the user's work tree
// as a patch file and its hash.
struct Checkout {
  std::string commit;
  std::string diff_file;  // empty: the commit as it is
  std::string diff_hash;
  bool dirty() const { return !diff_file.empty(); }
};

struct Worktree {
  std::string path;
  std::string name;  // the folder's name: commit[:12] or commit[:12]-dirty-hash[:12]
  Checkout checkout;
};

// ROOT/.benchkit (benchkit's folder in the repository) and its parts. Each part holds a
// .gitignore of "*" so that the user's git status does not list them.
std::string benchkit_folder(const std::string& root);
std::string worktrees_folder(const std::string& root);
// Makes `folder` (and its parents) with a .gitignore of "*"; the error names the folder.
model::Result<std::string> make_ignored_folder(const std::string& folder);

// The name of the worktree of `checkout`.
std::string worktree_name(const Checkout& checkout);

// The worktree of `checkout` under worktrees_folder(root): reused when it is complete and
// unchanged, made otherwise. The error names the worktree and the fix (git worktree remove).
model::Result<Worktree> prepare_worktree(const std::string& root, const Checkout& checkout,
                                         const GitRunner& run = run_git_unhurried);

// Removes a worktree (git worktree remove --force, and its marker); errors are ignored.
void remove_worktree(const std::string& root, const std::string& path,
                     const GitRunner& run = run_git_unhurried);

}  // namespace benchkit::vcs
