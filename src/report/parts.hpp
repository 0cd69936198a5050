// Inside report/: each part of a Document in each format that has a form for it. The reporters
// (console_reporter.cpp, markdown_reporter.cpp, ...) assemble a Document from these; callers
// outside report/ go through Reporter. Each function lives in the file of its part.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "report/machine_checks.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"

namespace benchkit::report::parts {

// console_reporter.cpp: the benchmark table, scenario blocks, failures, diagnostics, warnings.
std::string results_console(const RunResult& run, Options options);
// command_table.cpp: the whole-process table of `benchkit run`.
std::string command_table(const RunResult& run, Options options);
// Whether every benchmark of `run` is a whole command (`benchkit run`, a hyperfine export): its
// results read best in the command table, in the console and in Markdown.
bool all_commands(const RunResult& run);
// The command table's cells: headers, a row per command, which columns align right.
struct CommandCells {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right;
};
CommandCells command_cells(const RunResult& run);
// complexity_text.cpp: the run's complexity fits in words, a paragraph per sweep after a blank
// line; empty when the run has none.
std::string complexity_text(const RunResult& run);
// The same fits as a Markdown list after the results table (empty when there are none).
std::string complexity_markdown(const RunResult& run);
// markdown_reporter.cpp, json_reporter.cpp, csv_reporter.cpp.
std::string results_markdown(const RunResult& run);
std::string results_json(const RunResult& run);
std::string results_csv(const RunResult& run);

// comparison.cpp
std::string comparison_console(const analysis::Comparison& comparison, Options options);
std::string comparison_markdown(const analysis::Comparison& comparison);
std::string comparison_json(const analysis::Comparison& comparison);
std::string comparison_csv(const analysis::Comparison& comparison);

// noise.cpp
std::string noise_console(const NoiseReport& report);
std::string noise_markdown(const NoiseReport& report);
std::string noise_json(const NoiseReport& report);
std::string noise_csv(const NoiseReport& report);

// machine_checks.cpp
std::string machine_checks_console(const SystemReport& report);
std::string machine_checks_json(const SystemReport& report);

// The rendered parts of a multi-part format, in order, a blank line between two.
std::string join(const std::vector<std::string>& rendered);

}  // namespace benchkit::report::parts
