// The terminal table of whole-process benchmarks (`benchkit run`).
#pragma once

#include <string>

#include "benchkit/result.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// One row per command: median with its 95% CI, mean ± σ, min … max, median user and system
// CPU time, largest peak RSS, runs; then the warm-up, failures and diagnostics in full.
// The console Reporter renders results this way when every benchmark is a command; this
// renders any run so, for callers not yet moved to Reporter.
std::string render_command_table(const RunResult& run, Options options = {});

}  // namespace benchkit::report
