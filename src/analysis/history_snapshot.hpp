// What `benchkit history report --since DATE` shows (docs/history.md): the runs of a period on one
// machine and branch, the comparison of its first run with its newest, and the change points
// found in it. session/history.hpp builds it from the store; report/history_snapshot.hpp renders
// it as Markdown and HTML.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/history_trend.hpp"

namespace benchkit::analysis {

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
  Comparison comparison = {};
  std::vector<SnapshotChangePoint> change_points = {};
  Trend trend = {};  // every benchmark's series over the period, change points marked
};

}  // namespace benchkit::analysis
