#include "session/plans.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "analysis/compare.hpp"
#include "session/bench_options.hpp"
#include "system/context.hpp"
#include "vcs/git.hpp"

namespace benchkit::session {

Outcome run(Plan plan, Observer& observer) {
  std::unique_ptr<Measurer> measurer =
      std::visit([](auto& what) { return make_measurer(std::move(what)); }, plan.what);
  const std::unique_ptr<Keeper> keeper = make_keeper();
  return run_pipeline(*measurer, plan.then, observer, *keeper);
}

bool is_program(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) || ::access(path.c_str(), X_OK) != 0) {
    return false;
  }
  char first = 0;
  std::ifstream(path, std::ios::binary).get(first);
  return first != '{';
}

bool names_nothing(const std::string& path) {
  std::error_code error;
  return path.find('/') != std::string::npos && !std::filesystem::exists(path, error);
}

void identify_build(const std::string& executable, Context& context) {
  if (context.executable_sha256.empty()) {
    context.executable = executable;
    context.executable_sha256 = system::sha256_of_file(executable);
  }
  if (context.git_commit.empty()) vcs::record(vcs::git_facts("."), context);
}

void look_after_every_round(BinariesPlan& binaries, Steps& then, std::size_t max_rounds) {
  binaries.max_rounds = max_rounds > 0 ? max_rounds : kMaxRoundsFactor * binaries.rounds;
  then.compare.sequential_alpha =
      analysis::sequential_levels(binaries.rounds, binaries.max_rounds, then.compare.alpha);
  binaries.compare = then.compare;
}

}  // namespace benchkit::session
