// Rendering an A/A noise analysis (`benchkit noise`) as a table, Markdown, JSON or CSV.
#pragma once

#include <string>
#include <vector>

#include "analysis/noise.hpp"
#include "benchkit/result.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

struct NoiseReport {
  std::string subject;  // what ran in fresh processes: "./my_bench", "sleep 0.1"
  // How the user runs a comparison, completed with the recommended flags in the summary, e.g.
  // "./my_bench --baseline NAME"; empty: the flags are given alone.
  std::string example;
  analysis::NoiseAnalysis analysis;
  std::vector<Diagnostic> warnings;  // the run's machine warnings, shown once below the summary
  // The processes of a Google Benchmark suite (`benchkit run ./gb --export-json`): its builds are
  // compared side by side in paired rounds, never by saved process medians, so the summary says
  // that instead of a --baseline and --processes a Google Benchmark binary does not have.
  bool side_by_side = false;
};

// console: a heading, a table per benchmark (median, spread, CV, thresholds for 1, 3 and 5
// processes a side, recommendation), a legend, a one-paragraph summary with the --processes and
// --noise-threshold to use, notes on benchmarks not analysed; markdown: the same for a pull
// request or a wiki; json: the "benchkit/noise" document (version 1) with every threshold;
// csv: one row per benchmark.
// The same as make_reporter(format, options)->render({.noise = &report}), kept for callers not
// yet moved to Reporter.
std::string render_noise(const NoiseReport& report, Format format, Options options = {});

// The summary paragraph alone (unwrapped).
std::string noise_summary(const NoiseReport& report);

}  // namespace benchkit::report
