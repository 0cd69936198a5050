// Reading result files and baselines for comparison, with estimates recomputed when absent.
#pragma once

#include <string>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

// Reads and parses a result file (a benchkit result, Google Benchmark JSON or a hyperfine export,
// told apart by content: formats/result_file.hpp); estimates absent from it are computed from
// the samples. Every command that takes a result file loads it through this.
model::Result<RunResult> load_result_file(const std::string& path);

// Reads baseline `name` from the baselines folder.
model::Result<RunResult> load_baseline(const std::string& name);

// `reference` is a result file when such a file exists, else a baseline name; the error says
// which were tried.
model::Result<RunResult> load_file_or_baseline(const std::string& reference);

}  // namespace benchkit::session
