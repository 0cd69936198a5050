// Rendering a comparison (baseline against a new run) as a table, Markdown or JSON.
#pragma once

#include <string>

#include "analysis/compare.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// One line: "1 regressed, 0 improved, 2 inconclusive, 5 unchanged" (+ added/removed if any).
std::string comparison_summary(const analysis::Comparison& comparison);

// console: a table, then notes for inconclusive benchmarks; markdown: a one-line summary,
// then the table, regressions first, ready for a pull-request comment; json: the
// "benchkit/comparison" document (version 1); csv: one row per benchmark.
// The same as make_reporter(format, options)->render({.comparison = &comparison}), kept for
// callers not yet moved to Reporter.
std::string render_comparison(const analysis::Comparison& comparison, Format format,
                              Options options = {});

}  // namespace benchkit::report
