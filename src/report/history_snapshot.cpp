#include "report/history_snapshot.hpp"

#include <fmt/format.h>

#include <set>

#include "report/comparison.hpp"
#include "report/html_reporter.hpp"
#include "report/reporter.hpp"
#include "report/trend.hpp"

namespace benchkit::report {
namespace {

using analysis::HistorySnapshot;
using analysis::SnapshotChangePoint;
using analysis::SnapshotRun;

std::string short_text(const std::string& text) {
  return text.empty() ? "—" : markdown_escape(text.substr(0, kShownDigits));
}

std::string runs_table(const HistorySnapshot& snapshot) {
  std::string text =
      "| run | date | commit | branch | machine | host | benchmarks |\n"
      "|---|---|---|---|---|---|---:|\n";
  for (const SnapshotRun& run : snapshot.runs) {
    text +=
        fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", short_text(run.id),
                    markdown_escape(run.date), short_text(run.commit), markdown_escape(run.branch),
                    markdown_escape(run.machine), markdown_escape(run.host), run.benchmarks);
  }
  return text;
}

std::string change_points_table(const HistorySnapshot& snapshot) {
  if (snapshot.change_points.empty()) return "No change point in this period.\n";
  std::string text =
      "| benchmark | between commits | before | after | change | p |\n"
      "|---|---|---:|---:|---:|---:|\n";
  for (const SnapshotChangePoint& point : snapshot.change_points) {
    const double change = point.before > 0 ? point.after / point.before - 1.0 : 0.0;
    text += fmt::format("| {} | {} … {} | {} | {} | {:+.1f}% | {:.2g} |\n",
                        markdown_escape(point.benchmark), short_text(point.from),
                        short_text(point.to), format_duration(point.before),
                        format_duration(point.after), change * 100.0, point.p_value);
  }
  return text;
}

}  // namespace

std::string render_snapshot_markdown(const HistorySnapshot& snapshot) {
  std::set<std::string> commits;
  std::set<std::string> hosts;
  for (const SnapshotRun& run : snapshot.runs) {
    if (!run.commit.empty()) commits.insert(run.commit);
    hosts.insert(run.host);
  }
  const SnapshotRun& first = snapshot.runs.front();
  const SnapshotRun& last = snapshot.runs.back();
  std::string text = fmt::format("# Performance since {}\n\n", markdown_escape(snapshot.since));
  text += fmt::format(
      "{} runs of {} commits on machine {} ({} host{}), branch {}: the first, {} at {} ({}), "
      "compared with the newest, {} at {} ({}).\n\n",
      snapshot.runs.size(), commits.size(), markdown_escape(snapshot.machine), hosts.size(),
      hosts.size() == 1 ? "" : "s", markdown_escape(snapshot.branch), short_text(first.id),
      short_text(first.commit), markdown_escape(first.date), short_text(last.id),
      short_text(last.commit), markdown_escape(last.date));
  text += "## Changes from the first run to the newest\n\n";
  text += render_comparison(snapshot.comparison, Format::markdown);
  text += "\n## Change points\n\n" + change_points_table(snapshot);
  text += "\n## Runs\n\n" + runs_table(snapshot);
  return text;
}

std::string render_snapshot_html(const HistorySnapshot& snapshot) {
  html::ChartSection section =
      trend_charts(snapshot.trend, "history", "History since " + snapshot.since);
  const SnapshotRun& first = snapshot.runs.front();
  const SnapshotRun& last = snapshot.runs.back();
  auto named = [](const SnapshotRun& run) {
    return fmt::format("run {} (commit {}, {})", run.id.substr(0, kShownDigits),
                       run.commit.empty() ? "none" : run.commit.substr(0, kShownDigits), run.date);
  };
  section.intro =
      fmt::format(
          "{} runs in the period; the table and the forest plot above compare the first, {}, with "
          "the newest, {}. {} change point{} in the period. ",
          snapshot.runs.size(), named(first), named(last), snapshot.change_points.size(),
          snapshot.change_points.size() == 1 ? "" : "s") +
      section.intro;
  return html::render_page(Document{.comparison = &snapshot.comparison}, {section});
}

}  // namespace benchkit::report
