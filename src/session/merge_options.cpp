#include "session/merge_options.hpp"

#include <fmt/format.h>

namespace benchkit::session {

std::optional<model::Error> check_result_merge(const MergeOptions& options) {
  if (options.fail_on_regression) {
    return model::Error{
        "--fail-on-regression: result files hold no verdicts to fail on; merge the shards' "
        "comparisons (compare/ab --shard K/N --format json), or judge the merged run with "
        "benchkit compare or benchkit history check --fail-on-regression",
        model::ErrorKind::usage};
  }
  if (options.format != model::Format::json) {
    return model::Error{
        fmt::format("--format {}: a merged run is written as a result file (JSON); give it to "
                    "benchkit report --format {} (--format applies to merged comparisons)",
                    model::to_string(options.format), model::to_string(options.format)),
        model::ErrorKind::usage};
  }
  return std::nullopt;
}

std::vector<model::Error> merge_gaps(const std::vector<std::string>& missing,
                                     const std::vector<std::string>& failed) {
  std::vector<model::Error> gaps;
  for (const std::string& shard : missing) {
    gaps.push_back({"missing from the merge: " + shard, model::ErrorKind::failed});
  }
  for (const std::string& benchmark : failed) {
    gaps.push_back({fmt::format("benchmark {} failed", benchmark), model::ErrorKind::failed});
  }
  return gaps;
}

int merge_status(const MergedShards& merged) {
  return merged.incomplete() ? 1 : 0;
}

int merge_status(const MergedComparisons& merged, const MergeOptions& options) {
  const bool regressed = options.fail_on_regression && merged.comparison.any_regression();
  return merged.incomplete() || regressed ? 1 : 0;
}

}  // namespace benchkit::session
