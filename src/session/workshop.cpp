#include "session/workshop.hpp"

#include <filesystem>

#include "clock/clock.hpp"
#include "process/interrupt.hpp"
#include "process/run.hpp"

namespace benchkit::session {
namespace {

class RealWorkshop final : public Workshop {
 public:
  model::Result<Workplace> open(const BuildChoice& choice) override {
    std::error_code error;
    const auto root = vcs::repository_root(std::filesystem::current_path(error).string());
    if (!root) return root.error();
    Workplace place;
    place.root = *root;
    auto recipe = build_recipe(place.root, choice, place.description);
    if (!recipe) return recipe.error();
    place.recipe = std::move(*recipe);
    return place;
  }

  model::Result<std::pair<Revision, vcs::Checkout>> resolve(const std::string& root,
                                                            const std::string& role,
                                                            const std::string& name) override {
    return resolve_revision(root, role, name);
  }

  model::Result<Prepared> prepare(const std::string& root, const Revision& revision,
                                  const vcs::Checkout& checkout, const vcs::BuildRecipe& recipe,
                                  const PrepareProgress& progress) override {
    return prepare_revision(root, revision, checkout, recipe, progress);
  }

  model::Result<AbRuns> measure_binaries(const AbRequest& request) override {
    process::install_interrupt_handler();
    auto runs = measure_ab(request);
    // Side by side puts the default action back when it ends: Ctrl-C must still stop a build
    // (bisect's next step) cleanly.
    process::install_interrupt_handler();
    return runs;
  }

  CommandOutcome measure_commands(const CommandRequest& request, const CommandPlan& plan,
                                  CommandObserver& observer) override {
    CommandRequest with_context = request;
    with_context.context = command_context(0, request.context.command_line);
    process::ExecutorChoice executor = process::make_executor();
    return run_command_rounds(with_context, plan, *executor.executor, clock::steady_clock(),
                              observer);
  }

  model::Result<std::vector<vcs::CommitNode>> commits_between(const std::string& root,
                                                              const std::string& good,
                                                              const std::string& bad) override {
    return vcs::commits_between(root, good, bad);
  }

  std::string subject(const std::string& root, const std::string& commit) override {
    return vcs::commit_subject(root, commit);
  }
};

}  // namespace

std::unique_ptr<Workshop> make_workshop() {
  return std::make_unique<RealWorkshop>();
}

}  // namespace benchkit::session
