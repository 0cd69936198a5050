// `benchkit merge FILE... --out FILE` (docs/ci.md): the result files of a suite's shards (--shard
// K/N, session/shard.hpp), each measured by its own CI runner, joined into one run that reads
// everywhere a result file does. Prints nothing.
//
// Refused (exit status 2), each naming the two files and the fix: a benchmark in two files (the
// shards overlap), different builds (executable SHA-256), different commits, files of different
// splits (another N or --shard-by), and different machines (machine fingerprint,
// system/fingerprint.hpp) unless mixed machines are allowed; then each benchmark keeps its own
// machine (BenchmarkResult::machine). Merged, but named: a shard whose file is missing (from the
// recorded K/N) and the benchmarks that failed; either makes the exit status 1.
//
// The comparisons of a suite's shards (`compare OLD NEW --shard K/N`, `ab --shard K/N`, written
// with --format json) are merged the same way, with the same checks (a benchmark in two files,
// different baseline builds or new builds, different commits of either, different splits; and
// different comparison settings), and their rows judged again as one suite
// (analysis::judge_suite): the multiple-comparison adjustment over every shard's benchmarks at
// once, as if one comparison had measured them all. A missing shard is named the same way.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

// One shard's result, as read, and the file it came from.
struct ShardFile {
  std::string path;
  RunResult run;
};

struct MergedShards {
  RunResult run;
  std::size_t files = 0;
  // What no file gave: "shard 3/4 (...)" of the recorded K/N, or "2 of the 47 selected
  // benchmarks (...)" when every shard is there but they split the suite differently.
  std::vector<std::string> missing;
  // "sort/size=64 (shard-2.json): crashed (signal 11)": benchmarks that failed to run.
  std::vector<std::string> failed;
  bool incomplete() const { return !missing.empty() || !failed.empty(); }
};

// The shards joined (the pure part: runs already read); the error is of kind input.
model::Result<MergedShards> merge_shard_runs(std::vector<ShardFile> shards,
                                             bool allow_mixed_machines);

// Reads each file (session/result_files.hpp) and merges them.
model::Result<MergedShards> merge_shard_files(const std::vector<std::string>& paths,
                                              bool allow_mixed_machines);

// One shard's comparison, as read, and the file it came from.
struct ComparisonFile {
  std::string path;
  analysis::Comparison comparison;
};

struct MergedComparisons {
  analysis::Comparison comparison;  // judged again over all its rows
  std::size_t files = 0;
  std::vector<std::string> missing;  // as MergedShards::missing
  bool incomplete() const { return !missing.empty(); }
};

// The comparisons joined (the pure part: files already read); the error is of kind input.
model::Result<MergedComparisons> merge_shard_comparisons(std::vector<ComparisonFile> shards);

// Reads each comparison file (formats/comparison_json.hpp) and merges them.
model::Result<MergedComparisons> merge_comparison_files(const std::vector<std::string>& paths);

// What `benchkit merge` was given, told by content: result files, or comparisons. A mix of the
// two is refused (kind input), naming one file of each.
enum class MergeKind { results, comparisons };
model::Result<MergeKind> merge_kind(const std::vector<std::string>& paths);

}  // namespace benchkit::session
