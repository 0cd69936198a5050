// The versioned JSON result format (docs/result-format.md): writing and reading it.
#pragma once

#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

// Serialises a run: schema "benchkit/result", version 1, context, every benchmark with its raw
// samples, estimates and diagnostics. Indented, stable key order, ends with a newline.
std::string to_json(const RunResult& run);

// Parses a result document. `origin` names the source (a file path) in error messages.
// The smallest valid document holds only schema, version and benchmarks[].name with
// benchmarks[].samples[].{iters, ns}; estimates absent from the file are left empty (all zero)
// and `estimates_present` below says so, so the caller can recompute them from the samples.
struct ParsedRun {
  RunResult run;
  bool estimates_present = false;
};
model::Result<ParsedRun> from_json(std::string_view text, const std::string& origin);

}  // namespace benchkit::formats
