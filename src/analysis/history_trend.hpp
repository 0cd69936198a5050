// A benchmark's history across commits as `benchkit history trend` shows it: one point per
// commit (docs/history.md says which runs make a point), the change from the point before, and
// the change points found in the series.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "stats/change_points.hpp"

namespace benchkit::analysis {

struct HistoryPoint {
  std::string run_id = {};
  std::string commit = {};
  std::string date = {};
  double median = 0;  // ns per iteration, with its 95% CI
  double lower = 0;
  double upper = 0;
  // Filled by mark_trend: median / previous median - 1 (none for the first point).
  std::optional<double> change = {};
  // Filled by mark_trend: the series changed level at this point (this point is the first of
  // the new level), with the test's p-value.
  bool change_point = false;
  double p_value = 1;
};

struct BenchmarkTrend {
  std::string name = {};
  std::vector<HistoryPoint> points = {};  // oldest first
};

struct Trend {
  std::string machine = {};  // machine fingerprint id
  std::string branch = {};
  std::vector<BenchmarkTrend> benchmarks = {};  // by name
};

// Fills each point's change from the point before it, and marks the change points of the series
// (stats::detect_change_points on the points' medians and intervals).
void mark_changes(BenchmarkTrend& trend, const stats::ChangePointSettings& settings = {});

// The points as the change-point method and the gate read them.
std::vector<stats::IntervalPoint> interval_points(std::span<const HistoryPoint> points);

}  // namespace benchkit::analysis
