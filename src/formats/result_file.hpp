// The one reader of a result file, whatever wrote it: a benchkit result, Google Benchmark JSON
// or a hyperfine export, told apart by their content (not their name). Every command that takes
// a result file (compare, report, noise, import, history, HTML reports) reads it through this,
// via session/result_files.hpp.
#pragma once

#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

enum class SourceFormat { benchkit, google_benchmark, hyperfine };

// "benchkit", "Google Benchmark", "hyperfine": for messages.
std::string_view to_string(SourceFormat format);

struct LoadedRun {
  RunResult run;
  // Whether every benchmark's estimates came with the file (only a benchkit result has them);
  // when not, compute them from the samples.
  bool estimates_present = false;
  SourceFormat format = SourceFormat::benchkit;
};

// Parses `text` and reads it in the format its content shows. `origin` (a path) starts every
// error message; one that is none of the three says which it expected and how each tool writes
// its JSON.
model::Result<LoadedRun> read_result(std::string_view text, const std::string& origin);

}  // namespace benchkit::formats
