// Rendering `benchkit history trend`: each benchmark's points across commits.
#pragma once

#include <string>

#include "analysis/history_trend.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// console: per benchmark a heading and one line per commit (commit, date, median, 95% CI,
// change from the line before, and "◆ change point" where the level changed); markdown: the
// same as a table per benchmark; json: the "benchkit/trend" document (version 1); csv: one row
// per point.
std::string render_trend(const analysis::Trend& trend, Format format);

}  // namespace benchkit::report
