// Where `benchkit ab` and `benchkit bisect` meet git, the compiler and the bench binaries: the
// repository found, a revision resolved, checked out and built, two builds' bench binaries run
// side by side (or counted), two builds' commands run in rounds. Behind one interface so that the
// orchestration of both commands (session/revisions_run.hpp, session/bisect_run.hpp) is tested
// with a fake whose builds fail and whose workers crash or are interrupted on cue.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "session/ab.hpp"
#include "session/commands.hpp"
#include "session/revisions.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::session {

// The repository this process runs in and how each of its revisions is built.
struct Workplace {
  std::string root;
  vcs::BuildRecipe recipe;
  std::string description;  // how revisions are built, for the method note
};

class Workshop {
 public:
  virtual ~Workshop() = default;
  // The repository of the current folder and its build recipe (build_recipe's errors).
  virtual model::Result<Workplace> open(const BuildChoice& choice) = 0;
  // resolve_revision.
  virtual model::Result<std::pair<Revision, vcs::Checkout>> resolve(const std::string& root,
                                                                    const std::string& role,
                                                                    const std::string& name) = 0;
  // prepare_revision: checked out and built (or the build kept from an earlier run).
  virtual model::Result<Prepared> prepare(const std::string& root, const Revision& revision,
                                          const vcs::Checkout& checkout,
                                          const vcs::BuildRecipe& recipe,
                                          const PrepareProgress& progress) = 0;
  // measure_ab: the bench binaries of two builds side by side (or counted).
  virtual model::Result<AbRuns> measure_binaries(const AbRequest& request) = 0;
  // run_command_rounds with the real executor and clock; `request.context` holds the command
  // line, the rest of the context is collected here.
  virtual CommandOutcome measure_commands(const CommandRequest& request, const CommandPlan& plan,
                                          CommandObserver& observer) = 0;
  // Bisect: the commits between (vcs::commits_between) and a commit's subject line.
  virtual model::Result<std::vector<vcs::CommitNode>> commits_between(const std::string& root,
                                                                      const std::string& good,
                                                                      const std::string& bad) = 0;
  virtual std::string subject(const std::string& root, const std::string& commit) = 0;
};

// The real one: git, CMake (or the --build command), real processes.
std::unique_ptr<Workshop> make_workshop();

}  // namespace benchkit::session
