// Reading result files and baselines for comparison, with estimates recomputed when absent.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/comparison.hpp"
#include "model/error.hpp"

namespace benchkit::session {

// The two sides of a comparison of builds (side by side, a Google Benchmark binary's two builds),
// as messages name them: index 0 the baseline, 1 the new build (files: kSideFileNames below).
inline constexpr std::array<const char*, 2> kSideNames = {"baseline", "new"};
// The two sides in the names of the files their processes are given (executable copies, result
// files): as long as each other, so that both sides' processes start with argv of one length and
// so the same stack layout. With "baseline" and "new" in those paths, A/A comparisons of one
// binary found the new side 1.5-3% faster at copy_string in 12 of 12 comparisons
// (docs/verdicts.md, "Both sides start alike").
inline constexpr std::array<const char*, 2> kSideFileNames = {"old", "new"};

// The largest result file read, in MiB, unless $BENCHKIT_MAX_RESULT_MB says otherwise: a file
// is read whole, parsed into a JSON tree and then into the run, which takes about
// kResultMemoryFactor times its size at the peak (measured by bench/load/big_inputs.py: a file of
// 1 million samples, 31 MiB, peaked at 679 MiB in report and history add; compare reads two).
// 128 MiB, about 4 million samples, so needs about 3 GiB; a larger file is refused up front with
// a message naming it, its size and the limit, rather than killed by the kernel half-way.
inline constexpr std::uintmax_t kDefaultResultLimitMiB = 128;
inline constexpr int kResultMemoryFactor = 22;
inline constexpr const char* kResultLimitVariable = "BENCHKIT_MAX_RESULT_MB";
// The limit in bytes: $BENCHKIT_MAX_RESULT_MB (a positive whole number of MiB) or the default.
std::uintmax_t result_file_limit_bytes();

// Reads and parses a result file (a benchkit result, Google Benchmark JSON or a hyperfine export,
// told apart by content: formats/result_file.hpp); estimates absent from it are computed from
// the samples. Every command that takes a result file loads it through this. A file larger
// than result_file_limit_bytes() is refused before it is read.
model::Result<RunResult> load_result_file(const std::string& path);

// What `benchkit report` renders: a run (any file load_result_file reads), or a comparison (a
// benchkit/comparison document, formats/comparison_json.hpp: what `compare`, `ab` and `merge`
// write with --format json), told apart by content. Exactly one of the two is set.
struct RunOrComparison {
  std::optional<RunResult> run;
  std::optional<model::Comparison> comparison;
};
// The size limit of load_result_file applies; the comparison reader's errors name the file and
// the field.
model::Result<RunOrComparison> load_run_or_comparison(const std::string& path);
// `benchkit report FILE --recompute` of a comparison: refused (kind usage), a comparison keeping
// its verdicts but no samples to compute them again from; nullopt for a result file, or without
// `recompute`.
std::optional<model::Error> refuse_recompute(const RunOrComparison& input, const std::string& path,
                                             bool recompute);

// Reads baseline `name` from the baselines folder.
model::Result<RunResult> load_baseline(const std::string& name);

// `reference` is a result file when such a file exists, else a baseline name; the error says
// which were tried.
model::Result<RunResult> load_file_or_baseline(const std::string& reference);

// The code of the run warning of several files, merged, that name different programs or builds.
inline constexpr const char* kMixedPrograms = "mixed_programs";

// Whether Google Benchmark measured `run` (a Google Benchmark file, or `benchkit run ./gb`'s
// processes): its context names the library's build.
bool from_google_benchmark(const RunResult& run);

// Several result files read (each format told from its content) as one run (`benchkit import`):
// one file as it is; several merged, a benchmark held by several getting the samples of all,
// numbered by file (the file is its process), and its estimates computed again.
model::Result<RunResult> load_merged(const std::vector<std::string>& paths);

}  // namespace benchkit::session
