// `benchkit history report --since DATE`: the Markdown snapshot a team keeps in its repository
// (perf/2026-11.md): which runs were compared, their commits and machines, the table of changes
// from the first run of the period to the newest, and the change points found in it.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/history_trend.hpp"

namespace benchkit::report {

struct SnapshotRun {
  std::string id = {};
  std::string date = {};
  std::string commit = {};
  std::string branch = {};
  std::string machine = {};
  std::string host = {};
  std::size_t benchmarks = 0;
};

// A level change found in the period: the benchmark moved from `before` to `after` ns between
// commit `from` (the last of the old level) and commit `to` (the first of the new one).
struct SnapshotChangePoint {
  std::string benchmark = {};
  std::string from = {};
  std::string to = {};
  double before = 0;
  double after = 0;
  double p_value = 1;
};

struct HistorySnapshot {
  std::string since = {};
  std::string machine = {};
  std::string branch = {};
  std::vector<SnapshotRun> runs = {};  // oldest first; the first and last are compared
  analysis::Comparison comparison = {};
  std::vector<SnapshotChangePoint> change_points = {};
  analysis::Trend trend = {};  // every benchmark's series over the period, change points marked
};

std::string render_snapshot_markdown(const HistorySnapshot& snapshot);

// The snapshot as one HTML page (html::render_page): the comparison of the first run of the
// period with the newest (summary table and forest plot), then the period's trend line of every
// benchmark with its change points marked (trend_charts), the runs compared named in its intro.
std::string render_snapshot_html(const HistorySnapshot& snapshot);

}  // namespace benchkit::report
