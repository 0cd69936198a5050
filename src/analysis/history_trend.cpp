#include "analysis/history_trend.hpp"

namespace benchkit::analysis {

std::vector<stats::IntervalPoint> interval_points(std::span<const HistoryPoint> points) {
  std::vector<stats::IntervalPoint> series;
  series.reserve(points.size());
  for (const HistoryPoint& point : points) {
    series.push_back({.value = point.median, .lower = point.lower, .upper = point.upper});
  }
  return series;
}

void mark_changes(BenchmarkTrend& trend, const stats::ChangePointSettings& settings) {
  for (std::size_t i = 1; i < trend.points.size(); ++i) {
    const double previous = trend.points[i - 1].median;
    if (previous > 0) trend.points[i].change = trend.points[i].median / previous - 1.0;
  }
  const std::vector<stats::IntervalPoint> series = interval_points(trend.points);
  for (const stats::ChangePoint& change : stats::detect_change_points(series, settings)) {
    trend.points[change.index].change_point = true;
    trend.points[change.index].p_value = change.p_value;
  }
}

}  // namespace benchkit::analysis
