// Rendering a comparison (baseline against a new run) as a table, Markdown or JSON.
#pragma once

#include <string>

#include "analysis/compare.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// One line: "1 regressed, 0 improved, 2 inconclusive, 5 unchanged" (+ added/removed if any).
std::string comparison_summary(const analysis::Comparison& comparison);

// GitHub refuses a comment over 65,536 characters; the Markdown comparison stays under this,
// leaving room for a heading or a link a CI job adds around it.
inline constexpr std::size_t kMarkdownCommentLimit = 60000;

// console: a table, then notes for inconclusive benchmarks; markdown, for a pull-request
// comment: the verdict summary in bold, the warnings, the regressions and improvements in a
// table, every other benchmark in a collapsed <details> table, the method in one line, then the
// notes; rows that would take it past kMarkdownCommentLimit are left out, and a line says how
// many; json: the
// "benchkit/comparison" document (version 2, formats/comparison_json.hpp); csv: one row per
// benchmark. The same as make_reporter(format, options)->render({.comparison = &comparison}), kept
// for callers not yet moved to Reporter.
std::string render_comparison(const analysis::Comparison& comparison, Format format,
                              Options options = {});

}  // namespace benchkit::report
