// The analysis and printing half of `benchkit noise`, shared by its two forms: a bench binary
// run in N fresh processes (noise_command.cpp) and any command run N times (`benchkit noise --
// CMD`, where each run is its own process).
#pragma once

#include <string>

#include "analysis/noise.hpp"
#include "benchkit/result.hpp"

namespace benchkit::cli {

struct NoiseOptions {
  std::string format = "console";  // any of report::format_names()
  std::string out;                 // write the report to this file (atomically), else stdout
  std::string html;                // also write it as an HTML page to this file, when set
  std::string subject;             // what ran, for the heading: "./my_bench", "sleep 0.1"
  // How the user runs a comparison; the summary completes it with the recommended flags, e.g.
  // "./my_bench --baseline NAME". Empty: the flags are given alone.
  std::string example;
  analysis::NoiseSettings settings;
};

// Analyses `run` (samples carrying process indices; estimates need not be computed) and prints
// the report on stdout or writes it to options.out. Returns the exit status: 0; 2 when no
// benchmark ran in 2 or more processes (the report still says so) or the file cannot be written.
int report_noise(const RunResult& run, const NoiseOptions& options);

}  // namespace benchkit::cli
