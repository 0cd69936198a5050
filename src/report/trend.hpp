// Rendering `benchkit history trend`: each benchmark's points across commits.
#pragma once

#include <string>

#include "analysis/history_trend.hpp"
#include "report/html_reporter.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// console: per benchmark a heading and one line per commit (commit, date, median, 95% CI,
// change from the line before, and "◆ change point" where the level changed); markdown: the
// same as a table per benchmark; json: the "benchkit/trend" document (version 1); csv: one row
// per point; html: the page of html::render_page with the trend_charts section alone. Other
// formats: the console text (the commands refuse them first).
std::string render_trend(const analysis::Trend& trend, Format format);

// render_trend in pieces, for a trend written as it is made (`history trend .` of a long
// history: session::stream_trend): the head (machine and branch; csv: the header row), one
// benchmark, and the end given how many benchmarks came. For the formats streams_trend accepts
// (console, markdown, csv), render_trend is exactly head + every part + end.
bool streams_trend(Format format);
std::string trend_head(const analysis::Trend& trend, Format format);
std::string trend_part(const analysis::BenchmarkTrend& benchmark, Format format);
// trend_part appended to `out` (console: straight into it, the cells into a table kept by the
// calling thread from one benchmark to the next; no string per cell or per part).
void append_trend_part(std::string& out, const analysis::BenchmarkTrend& benchmark, Format format);
std::string trend_end(std::size_t benchmarks, Format format);

// A change (0.015: 1.5% slower) as the trend's change column writes it, "+1.5%": what
// fmt::format("{:+.1f}%", change * 100) writes, with std::to_chars (which rounds as printf
// does) — one per line of a trend, ten million for every benchmark of a fleet's history, where
// fmt's parsing of the format took longer than the number.
std::string change_percent(double change);
// change_percent(change) appended to `out`.
void append_change_percent(std::string& out, double change);

// The trend as a section of the HTML report: per benchmark one line chart, x the commits in
// order (their first 7 hex digits on the axis), y the median with its 95% CI, each change point
// marked; a point's hover text names its commit (12 hex digits) and date, and says when it is a
// change point. `id` and `title` head the section.
html::ChartSection trend_charts(const analysis::Trend& trend, const std::string& id = "history",
                                const std::string& title = "History");

}  // namespace benchkit::report
