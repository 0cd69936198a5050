// `benchkit merge`'s flags as plain data (cli/merge_command.cpp binds them), what they allow, and
// what a merge's outcome means for its exit status. The merging itself: session/shard_merge.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "session/shard_merge.hpp"

namespace benchkit::session {

struct MergeOptions {
  std::vector<std::string> files;
  std::string out;
  model::Format format = model::Format::json;
  bool allow_mixed_machines = false;
  bool fail_on_regression = false;  // comparisons only: a merged run has no verdicts
};

// A merge of result files is refused --fail-on-regression (a run has no verdicts to fail on) and
// a --format other than json (a merged run is written as a result file): a usage error naming
// what to do instead; nullopt when the flags fit.
std::optional<model::Error> check_result_merge(const MergeOptions& options);

// What a merge lacks, each an error of kind failed: the shards missing ("missing from the merge:
// SHARD") and the benchmarks that failed ("benchmark NAME failed").
std::vector<model::Error> merge_gaps(const std::vector<std::string>& missing,
                                     const std::vector<std::string>& failed = {});

// The exit status of a merge that was written: 1 when a shard is missing or a benchmark failed,
// or (comparisons, --fail-on-regression) a benchmark regressed in the merged comparison; else 0.
int merge_status(const MergedShards& merged);
int merge_status(const MergedComparisons& merged, const MergeOptions& options);

}  // namespace benchkit::session
