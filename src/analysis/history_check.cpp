#include "analysis/history_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "stats/distributions.hpp"
#include "stats/intervals.hpp"
#include "stats/summary.hpp"

namespace benchkit::analysis {
namespace {

// The points' intervals and the candidate's are 95% intervals of the median: half-width / z is
// the standard error.
constexpr double kIntervalZ = 1.959963984540054;

double log_standard_error(double lower, double upper) {
  if (!(lower > 0.0) || !(upper > lower)) return std::nan("");
  return (std::log(upper) - std::log(lower)) / (2.0 * kIntervalZ);
}

struct Measured {
  BenchmarkComparison comparison;
  bool tested = false;  // takes part in the adjustment across the suite
};

Measured measure(std::string_view name, std::span<const stats::IntervalPoint> history,
                 const BenchmarkResult& candidate, const CompareSettings& settings) {
  Measured out;
  BenchmarkComparison& c = out.comparison;
  c.name = std::string(name);
  c.design = Design::processes;  // every point of the history is a run of its own
  c.candidate_median = candidate.estimates.median.value;
  // A count is judged with the count threshold (noise_threshold_for), as compare does.
  c.metric = candidate.metric;
  for (const Diagnostic& d : candidate.diagnostics) c.candidate_diagnostics.push_back(d.code);
  if (!candidate.valid()) {
    c.verdict = Verdict::invalid;
    c.note = fmt::format("the new run {} ({}), so it is not checked",
                         candidate.failure ? "failed to run" : "failed its checks",
                         candidate.failures.front());
    return out;
  }
  if (candidate.samples.empty()) {
    c.note = "the new run has no samples";
    return out;
  }
  if (std::any_of(history.begin(), history.end(), [](const stats::IntervalPoint& p) {
        return !(p.value > 0.0) || !std::isfinite(p.value) || !std::isfinite(p.lower) ||
               !std::isfinite(p.upper);
      })) {
    c.note =
        "the history holds a time that is not positive or not finite; it cannot be compared as "
        "a ratio";
    return out;
  }

  // The reference: the runs since the last change point, the newest kHistoryWindow of them.
  std::size_t start = 0;
  std::string since;
  if (history.size() >= kMinimumHistory) {
    // Only the newest kSearchedHistory runs are searched: a change further back cannot shorten
    // the reference, and the search costs O(n²).
    const std::size_t searched_from =
        history.size() > kSearchedHistory ? history.size() - kSearchedHistory : 0;
    const auto changes = stats::detect_change_points(history.subspan(searched_from));
    if (!changes.empty()) {
      start = searched_from + changes.back().index;
      since = fmt::format(" since its level changed at run {} of {} ({:+.1f}%)", start + 1,
                          history.size(), (changes.back().after / changes.back().before - 1) * 100);
    }
  }
  start = std::max(start, history.size() > kHistoryWindow ? history.size() - kHistoryWindow : 0);
  const auto reference = history.subspan(start);
  const std::size_t n = reference.size();
  if (n > 0) {
    std::vector<double> values;
    for (const auto& p : reference) values.push_back(p.value);
    c.baseline_median = stats::median(values);
  }
  if (n < kMinimumHistory) {
    c.note = fmt::format(
        "{} run{} of history on this machine and branch{}; the check needs at least {}: record "
        "{} more",
        n, n == 1 ? "" : "s", since, kMinimumHistory, kMinimumHistory - n);
    return out;
  }

  std::vector<double> logs;
  double within = 0.0;  // mean squared standard error of the runs, from their intervals
  std::size_t with_interval = 0;
  for (const auto& p : reference) {
    logs.push_back(std::log(p.value));
    const double se = log_standard_error(p.lower, p.upper);
    if (!std::isnan(se)) {
      within += se * se;
      ++with_interval;
    }
  }
  within = with_interval > 0 ? within / static_cast<double>(with_interval) : 0.0;
  const double centre = stats::mean(logs);
  const double spread = stats::variance(logs);
  const double between = std::max(0.0, spread - within);

  // The candidate from its samples: median and distribution-free interval.
  std::vector<double> times = candidate.per_iteration_ns();
  for (double& t : times) t = std::max(t, 1e-3);  // as compare: logs need positive times
  const double candidate_median = stats::median(times);
  c.candidate_median = candidate_median;
  double own = std::nan("");
  if (times.size() >= 2) {
    const stats::Interval interval = stats::median_ci(times, 0.95);
    own = log_standard_error(interval.lower, interval.upper);
  }
  // One sample, or an interval of zero width: as precise as the history's runs.
  if (std::isnan(own)) own = std::sqrt(within);

  const double scale = std::sqrt(between + own * own + spread / static_cast<double>(n));
  const double degrees_of_freedom = static_cast<double>(n - 1);
  const double difference = std::log(candidate_median) - centre;
  c.baseline_median = std::exp(centre);
  c.ratio = std::exp(difference);
  if (scale > 0.0) {
    const double t = stats::student_t_quantile(0.5 + settings.confidence / 2.0, degrees_of_freedom);
    c.ratio_lower = std::exp(difference - t * scale);
    c.ratio_upper = std::exp(difference + t * scale);
    c.p_value = stats::student_t_two_sided_p(difference / scale, degrees_of_freedom);
    const double detectable =
        (stats::student_t_quantile(1.0 - settings.alpha / 2.0, degrees_of_freedom) +
         stats::student_t_quantile(settings.power, degrees_of_freedom)) *
        scale;
    c.minimum_detectable_change = std::expm1(detectable);
  } else {
    // A metric that never varied (an instruction count): any difference is certain.
    c.ratio_lower = c.ratio_upper = c.ratio;
    c.p_value = difference == 0.0 ? 1.0 : 0.0;
    c.minimum_detectable_change = 0.0;
  }
  c.note = fmt::format("against {} runs of history{}", n, since);
  out.tested = true;
  return out;
}

void decide(BenchmarkComparison& c, const CompareSettings& settings) {
  c.verdict = verdict_for(c, settings);
  if (c.verdict != Verdict::inconclusive) return;
  const bool beyond = c.ratio_lower > 1.0 + settings.noise_threshold ||
                      c.ratio_upper < 1.0 - settings.noise_threshold;
  std::string advice;
  if (beyond) {
    advice = fmt::format(
        "the change lies beyond the noise threshold but is not significant after adjustment "
        "(p = {:.2g}); run again to confirm",
        c.p_adjusted);
  } else if (c.minimum_detectable_change) {
    advice = fmt::format(
        "this check could detect changes of about {:.1f}% or more; more runs of history (up to "
        "{}) or a longer run (--time-budget) sharpen it",
        *c.minimum_detectable_change * 100.0, kHistoryWindow);
  }
  if (!advice.empty()) c.note = c.note.empty() ? advice : c.note + "; " + advice;
}

}  // namespace

BenchmarkComparison check_against_history(std::string_view name,
                                          std::span<const stats::IntervalPoint> history,
                                          const BenchmarkResult& candidate,
                                          const CompareSettings& settings) {
  Measured measured = measure(name, history, candidate, settings);
  if (measured.tested) {
    measured.comparison.p_adjusted = measured.comparison.p_value;
    decide(measured.comparison, settings);
  }
  return measured.comparison;
}

Comparison check_against_history(
    const std::map<std::string, std::vector<stats::IntervalPoint>, std::less<>>& history,
    const RunResult& candidate, const CompareSettings& settings) {
  Comparison comparison;
  comparison.settings = settings;
  comparison.method_note =
      "checked against the recent runs of this machine and branch: a prediction interval from "
      "their spread, widened by the new run's own interval (docs/change-points.md)";
  std::vector<std::size_t> tested;
  std::set<std::string, std::less<>> seen;
  for (const BenchmarkResult& result : candidate.benchmarks) {
    seen.insert(result.name);
    const auto found = history.find(result.name);
    if (found == history.end()) {
      BenchmarkComparison added;
      added.name = result.name;
      added.candidate_median = result.estimates.median.value;
      added.verdict = Verdict::added;
      added.note = "no history on this machine and branch";
      comparison.benchmarks.push_back(std::move(added));
      continue;
    }
    Measured measured = measure(result.name, found->second, result, settings);
    if (measured.tested) tested.push_back(comparison.benchmarks.size());
    comparison.benchmarks.push_back(std::move(measured.comparison));
  }
  for (const auto& [name, points] : history) {
    if (seen.count(name) > 0) continue;
    BenchmarkComparison removed;
    removed.name = name;
    if (!points.empty()) removed.baseline_median = points.back().value;
    removed.verdict = Verdict::removed;
    comparison.benchmarks.push_back(std::move(removed));
  }
  std::vector<double> p_values;
  for (std::size_t index : tested) p_values.push_back(comparison.benchmarks[index].p_value);
  const std::vector<double> adjusted = adjust_p_values(p_values, settings.adjustment);
  for (std::size_t i = 0; i < tested.size(); ++i) {
    BenchmarkComparison& c = comparison.benchmarks[tested[i]];
    c.p_adjusted = adjusted[i];
    decide(c, settings);
  }
  order_for_report(comparison.benchmarks);
  return comparison;
}

std::vector<stats::ChangePoint> recent_change_points(std::span<const stats::IntervalPoint> series,
                                                     std::size_t last,
                                                     const stats::ChangePointSettings& settings) {
  std::vector<stats::ChangePoint> changes = stats::detect_change_points(series, settings);
  const std::size_t first = series.size() > last ? series.size() - last : 0;
  std::erase_if(changes, [&](const stats::ChangePoint& c) { return c.index < first; });
  return changes;
}

}  // namespace benchkit::analysis
