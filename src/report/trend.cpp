#include "report/trend.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <span>

namespace benchkit::report {
namespace {

using analysis::BenchmarkTrend;
using analysis::HistoryPoint;

// 12 hex digits name a commit unambiguously in any repository benchkit is likely to see, and
// fit a terminal column.
constexpr std::size_t kCommitDigits = 12;

std::string short_commit(const HistoryPoint& point) {
  if (point.commit.empty()) return "(run " + point.run_id.substr(0, 8) + ")";
  return point.commit.substr(0, kCommitDigits);
}

std::string change_text(const HistoryPoint& point) {
  return point.change ? change_percent(*point.change) : "";
}

}  // namespace

namespace {

// change_percent(change) written at the start of `text`: its end, or nullptr when it is not a
// finite number or does not fit.
char* change_percent_to(std::span<char, 32> text, double change) {
  const double percent = change * 100.0;
  if (!std::isfinite(percent)) return nullptr;
  char* start = text.data();
  if (!std::signbit(percent)) *start++ = '+';
  const auto written =
      std::to_chars(start, text.data() + text.size() - 1, percent, std::chars_format::fixed, 1);
  if (written.ec != std::errc()) return nullptr;
  *written.ptr = '%';
  return written.ptr + 1;
}

}  // namespace

void append_change_percent(std::string& out, double change) {
  std::array<char, 32> text;  // written before it is read
  if (const char* end = change_percent_to(text, change)) {
    out.append(static_cast<const char*>(text.data()), end);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{:+.1f}%", change * 100.0);
}

std::string change_percent(double change) {
  std::string text;
  append_change_percent(text, change);
  return text;
}

namespace {

std::string mark_text(const HistoryPoint& point) {
  return point.change_point ? fmt::format("◆ change point (p={:.2g})", point.p_value) : "";
}

// "1.23 µs … 1.25 µs", the 95% CI, appended to `out`.
void append_interval(std::string& out, const HistoryPoint& point) {
  out += format_duration(point.lower);
  out += " … ";
  out += format_duration(point.upper);
}

std::vector<std::string> cells(const HistoryPoint& point) {
  std::string interval;
  append_interval(interval, point);
  return {short_commit(point), point.date,         format_duration(point.median),
          std::move(interval), change_text(point), mark_text(point)};
}

const std::vector<std::string>& trend_headers() {
  static const std::vector<std::string> list = {"commit", "date", "median", "95% CI", "change", ""};
  return list;
}

std::string heading(const analysis::Trend& trend) {
  return fmt::format("history of machine {} on branch {}", trend.machine,
                     trend.branch.empty() ? "(none)" : trend.branch);
}

// The cells of cells(point), written straight into `table`'s buffer: a trend of every
// benchmark of a fleet's history is ten million rows.
void add_cells(TableCells& table, const HistoryPoint& point) {
  table.add(short_commit(point));  // at most 15 bytes: no allocation
  table.add(point.date);
  // The numbers are written in place, and their widths are known as they are written.
  std::size_t width = 0;
  char* at = table.room(64);
  if (const char* end = duration_to(std::span<char, 64>(at, 64), point.median, width)) {
    table.end_cell_at(end, width);
  } else {
    table.add(format_duration(point.median));
  }
  // "lower … upper": " … " is three columns and five bytes.
  at = table.room(2 * 64 + 5);
  std::size_t upper_width = 0;
  char* end = duration_to(std::span<char, 64>(at, 64), point.lower, width);
  if (end != nullptr) {
    std::memcpy(end, " \xE2\x80\xA6 ", 5);
    end = duration_to(std::span<char, 64>(end + 5, 64), point.upper, upper_width);
  }
  if (end != nullptr) {
    table.end_cell_at(end, width + 3 + upper_width);
  } else {
    std::string interval;
    append_interval(interval, point);
    table.add(interval);
  }
  at = table.room(32);
  end = point.change ? change_percent_to(std::span<char, 32>(at, 32), *point.change) : at;
  if (end != nullptr) {
    table.end_cell_at(end, static_cast<std::size_t>(end - at));  // ASCII
  } else {
    table.add(change_text(point));
  }
  table.add(mark_text(point));  // "" on all but the few change points
  table.end_row();
}

void append_console_part(std::string& out, const BenchmarkTrend& benchmark) {
  // Kept from one benchmark to the next on each thread: its buffers keep their size.
  thread_local TableCells table;
  table.clear();
  for (const HistoryPoint& point : benchmark.points) add_cells(table, point);
  fmt::format_to(std::back_inserter(out), "\n{} ({} commit{})\n", benchmark.name,
                 benchmark.points.size(), benchmark.points.size() == 1 ? "" : "s");
  append_table(out, trend_headers(), table, {false, false, true, true, true, false}, "  ");
}

std::string markdown_part(const BenchmarkTrend& benchmark) {
  std::string text = "\n### " + markdown_escape(benchmark.name) + "\n\n";
  text += "| commit | date | median | 95% CI | change | |\n|---|---|---:|---:|---:|---|\n";
  for (const HistoryPoint& point : benchmark.points) {
    std::string row = "|";
    for (const std::string& cell : cells(point)) row += " " + markdown_escape(cell) + " |";
    text += row + "\n";
  }
  return text;
}

std::string json(const analysis::Trend& trend) {
  nlohmann::ordered_json document = {{"schema", "benchkit/trend"},
                                     {"version", 1},
                                     {"machine", trend.machine},
                                     {"branch", trend.branch},
                                     {"benchmarks", nlohmann::ordered_json::array()}};
  for (const BenchmarkTrend& benchmark : trend.benchmarks) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const HistoryPoint& point : benchmark.points) {
      nlohmann::ordered_json entry = {{"commit", point.commit},  {"date", point.date},
                                      {"run", point.run_id},     {"median_ns", point.median},
                                      {"lower_ns", point.lower}, {"upper_ns", point.upper}};
      entry["change"] = point.change ? nlohmann::ordered_json(*point.change) : nullptr;
      entry["change_point"] = point.change_point;
      if (point.change_point) entry["p_value"] = point.p_value;
      points.push_back(std::move(entry));
    }
    document["benchmarks"].push_back({{"name", benchmark.name}, {"points", std::move(points)}});
  }
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// 7 hex digits on a chart's axis, as git's short form: the hover text has the 12 of the tables.
constexpr std::size_t kAxisDigits = 7;

std::string axis_commit(const HistoryPoint& point) {
  if (point.commit.empty()) return "run " + point.run_id.substr(0, kAxisDigits);
  return point.commit.substr(0, kAxisDigits);
}

std::string hover_text(const HistoryPoint& point) {
  std::string text = short_commit(point);
  if (!point.date.empty()) text += " · " + point.date;
  if (point.change) text += " · " + change_text(point);
  if (point.change_point) text += fmt::format(" · change point (p={:.2g})", point.p_value);
  return text;
}

constexpr const char* kCsvHeader =
    "benchmark,commit,date,run,median_ns,lower_ns,upper_ns,change,change_point\n";

std::string csv_part(const BenchmarkTrend& benchmark) {
  std::string text;
  for (const HistoryPoint& point : benchmark.points) {
    text +=
        fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_quote(benchmark.name),
                    csv_quote(point.commit), csv_quote(point.date), point.run_id, point.median,
                    point.lower, point.upper, point.change ? fmt::format("{}", *point.change) : "",
                    point.change_point ? "true" : "false");
  }
  return text;
}

}  // namespace

html::ChartSection trend_charts(const analysis::Trend& trend, const std::string& id,
                                const std::string& title) {
  html::ChartSection section{
      .id = id,
      .title = title,
      .intro = fmt::format(
          "The {} of machine {} on branch {}: per benchmark the median of each commit with its "
          "95% CI, oldest first; change points (the first commit of a new level) are the larger "
          "points in the warning colour. Hover a point for its commit and date.",
          trend.benchmarks.size() == 1 ? "benchmark" : "benchmarks", trend.machine,
          trend.branch.empty() ? "(none)" : trend.branch),
      .charts = {},
      .flame = {},
      .tables = {},
      .notes = {}};
  if (trend.benchmarks.empty()) section.intro = "No benchmark matches.";
  for (const BenchmarkTrend& benchmark : trend.benchmarks) {
    html::LineChart chart{.title = benchmark.name,
                          .x_label = "commit (oldest first)",
                          .y_label = "time per iteration",
                          .y_unit = html::Unit::nanoseconds,
                          .log_x = false,
                          .categories = {},
                          .series = {{.name = "", .points = {}}}};
    for (std::size_t i = 0; i < benchmark.points.size(); ++i) {
      const HistoryPoint& point = benchmark.points[i];
      chart.categories.push_back(axis_commit(point));
      chart.series[0].points.push_back({.x = static_cast<double>(i),
                                        .y = point.median,
                                        .lower = point.lower,
                                        .upper = point.upper,
                                        .label = hover_text(point),
                                        .marked = point.change_point});
    }
    section.charts.push_back(std::move(chart));
  }
  return section;
}

bool streams_trend(Format format) {
  return format == Format::console || format == Format::markdown || format == Format::csv;
}

std::string trend_head(const analysis::Trend& trend, Format format) {
  if (format == Format::markdown) return "## " + markdown_escape(heading(trend)) + "\n";
  if (format == Format::csv) return kCsvHeader;
  return heading(trend) + "\n";
}

std::string trend_part(const analysis::BenchmarkTrend& benchmark, Format format) {
  std::string text;
  append_trend_part(text, benchmark, format);
  return text;
}

void append_trend_part(std::string& out, const analysis::BenchmarkTrend& benchmark, Format format) {
  if (format == Format::markdown) {
    out += markdown_part(benchmark);
  } else if (format == Format::csv) {
    out += csv_part(benchmark);
  } else {
    append_console_part(out, benchmark);
  }
}

std::string trend_end(std::size_t benchmarks, Format format) {
  return format == Format::console && benchmarks == 0 ? "no benchmark matches\n" : "";
}

std::string render_trend(const analysis::Trend& trend, Format format) {
  if (streams_trend(format)) {
    std::string text = trend_head(trend, format);
    for (const BenchmarkTrend& benchmark : trend.benchmarks) text += trend_part(benchmark, format);
    return text + trend_end(trend.benchmarks.size(), format);
  }
  switch (format) {
    case Format::console:
    case Format::markdown:
    case Format::csv:
      break;  // above
    case Format::json:
      return json(trend);
    case Format::html:
      return html::render_page(Document{}, {trend_charts(trend)});
    case Format::junit:
    case Format::gbench:
    case Format::bmf:
    case Format::github_action:
      // Refused by `history trend --format` (its check lists the five above): a trend has no
      // JUnit or dashboard form.
      break;
  }
  return render_trend(trend, Format::console);
}

}  // namespace benchkit::report
