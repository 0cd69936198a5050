#include "session/compare_options.hpp"

#include <fmt/format.h>

#include "session/shard.hpp"

namespace benchkit::session {

model::Result<Plan> plan_for(const CompareOptions& o) {
  const bool base_runs = is_program(o.base);
  const bool candidate_runs = is_program(o.candidate);
  if (base_runs != candidate_runs) {
    return usage_error(fmt::format(
        "{} and {}: give two executables, or two result files or baselines, not one of each",
        o.base, o.candidate));
  }
  Steps then;
  then.compare = comparison_settings(o.comparison);
  then.fail_on_regression = o.fail_on_regression;
  // The status answers for the comparison: a benchmark that failed is an invalid verdict.
  then.fail_on_failed_benchmark = false;
  auto shard = optional_shard(o.shard);
  if (!shard) return shard.error();
  if (!base_runs) {
    if (*shard) {
      return usage_error(
          "--shard splits the benchmarks of two executables run now; two result files are "
          "compared whole (join shards' files with benchkit merge first)");
    }
    return Plan{FilesPlan{o.base, o.candidate}, then};
  }
  return Plan{BinariesPlan{o.base, o.candidate, o.trailing, o.filter, o.rounds, *shard}, then};
}

}  // namespace benchkit::session
