// A revision made ready to measure: resolved by git, checked out in its worktree (with the
// user's uncommitted changes for the working tree), and built (vcs/worktrees.hpp,
// vcs/build.hpp). Used by benchkit ab and benchkit bisect; prints nothing.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "vcs/build.hpp"
#include "vcs/worktrees.hpp"

namespace benchkit::session {

// How every revision is built, found from the flags and the user's build folder.
struct BuildChoice {
  std::string build_dir;             // --build-dir (CMake; empty: looked for)
  std::vector<std::string> targets;  // --target
  std::string command;               // --build "CMD"
  std::string binary;                // --binary PATH
  bool all_targets = false;          // CMake without --target for whole commands: build everything
};

// The recipe for `root`: the --build command when given, else CMake with the settings of the
// user's build folder. The error names what is missing and the fix.
model::Result<vcs::BuildRecipe> build_recipe(const std::string& root, const BuildChoice& choice,
                                             std::string& description);

struct Revision {
  std::string role;     // "BASE", "NEW", "GOOD", "BAD", or "step 3"
  std::string name;     // as given ("v1.0", "HEAD~2"); empty: the working tree
  std::string commit;   // full hash
  std::string subject;  // of the commit
  bool dirty = false;   // the working tree's uncommitted changes are in it
  std::string diff_hash;
  std::string label() const;  // "BASE v1.0 (1a2b3c4d5e6f)", "NEW the working tree (... + ...)"
};

// `name` resolved in `root` (empty: the working tree: HEAD and, when there are any, the
// uncommitted changes of tracked files, written under ROOT/.benchkit/diffs).
model::Result<std::pair<Revision, vcs::Checkout>> resolve_revision(const std::string& root,
                                                                   const std::string& role,
                                                                   const std::string& name);

struct Prepared {
  Revision revision;
  vcs::Worktree worktree;
  vcs::Built built;
};

// Says what is being done to which revision ("checking out", "configuring", "built in 3.1 s").
using PrepareProgress = std::function<void(const Revision&, const std::string& step)>;

// Checks out and builds a resolved revision. Errors name the revision; Ctrl-C gives kind
// interrupted (a worktree being made is removed, a build being made is stopped and not cached).
model::Result<Prepared> prepare_revision(const std::string& root, const Revision& revision,
                                         const vcs::Checkout& checkout,
                                         const vcs::BuildRecipe& recipe,
                                         const PrepareProgress& progress = {});

// The git fields of a result's context for a revision: commit, dirty (the branch stays empty:
// a worktree is detached).
void record_revision(const Revision& revision, Context& context);

}  // namespace benchkit::session
