#include "analysis/estimates.hpp"

#include "analysis/complexity.hpp"
#include "analysis/machine_speed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "model/merge.hpp"
#include "stats/intervals.hpp"
#include "stats/summary.hpp"

namespace benchkit::analysis {

// One-way random effects on ln(time) with processes as groups (method of moments, unequal
// group sizes: Searle, Casella & McCulloch 1992, §3.6).
std::optional<double> between_process_share(const BenchmarkResult& result) {
  std::map<std::uint32_t, std::vector<double>> groups;
  const std::vector<double> times = result.per_iteration_ns();
  for (std::size_t i = 0; i < times.size(); ++i) {
    groups[result.samples[i].process].push_back(std::log(std::max(times[i], 1e-3)));
  }
  const auto a = static_cast<double>(groups.size());
  if (groups.size() < 2) return std::nullopt;
  double n = 0.0;
  double squares_of_sizes = 0.0;
  double grand = 0.0;
  for (const auto& [process, values] : groups) {
    if (values.size() < 2) return std::nullopt;
    const auto size = static_cast<double>(values.size());
    n += size;
    squares_of_sizes += size * size;
    for (const double v : values) grand += v;
  }
  grand /= n;
  double within = 0.0;
  double between = 0.0;
  for (const auto& [process, values] : groups) {
    const double mean = stats::mean(values);
    for (const double v : values) within += (v - mean) * (v - mean);
    between += static_cast<double>(values.size()) * (mean - grand) * (mean - grand);
  }
  const double mean_square_within = within / (n - a);
  const double mean_square_between = between / (a - 1.0);
  const double n0 = (n - squares_of_sizes / n) / (a - 1.0);  // the "average" group size
  const double component = std::max(0.0, (mean_square_between - mean_square_within) / n0);
  const double total = component + mean_square_within;
  return total > 0 ? std::optional<double>(component / total) : std::nullopt;
}

void compute_estimates(BenchmarkResult& result) {
  Estimates estimates;
  // Only the samples taken while the machine ran at its usual speed (analysis/machine_speed.hpp).
  const SteadySelection selection = steady_samples(result);
  estimates.slow_samples = selection.slow;
  const std::vector<double> times = selection.steady.per_iteration_ns();
  if (times.empty()) {
    result.estimates = estimates;
    return;
  }
  const std::vector<double> sorted = stats::sorted_copy(times);
  const double median = stats::quantile_sorted(sorted, 0.5);
  const stats::Interval median_interval = stats::median_ci_sorted(sorted, 0.95);
  estimates.median =
      Estimate{median, median_interval.lower, median_interval.upper, median_interval.confidence};
  const double mean = stats::mean(times);
  const double sd = stats::stddev(times);
  // Mean ± 1.96 standard errors: the normal approximation, adequate for n >= 30 samples that
  // are themselves averages of many iterations (central limit theorem).
  const double half_width =
      times.size() > 1 ? 1.96 * sd / std::sqrt(static_cast<double>(times.size())) : 0.0;
  estimates.mean =
      Estimate{mean, mean - half_width, mean + half_width, times.size() > 1 ? 0.95 : 0};
  estimates.min = sorted.front();
  estimates.max = sorted.back();
  estimates.stddev = sd;
  estimates.mad = stats::mad(times);
  estimates.iqr = stats::iqr(times);
  estimates.mdape = stats::mdape(times);
  const stats::TukeyCounts outliers = stats::tukey_outliers(times);
  estimates.outliers_low = outliers.low_mild + outliers.low_severe;
  estimates.outliers_high = outliers.high_mild + outliers.high_severe;
  estimates.outliers_severe = outliers.low_severe + outliers.high_severe;
  estimates.outlier_variance = stats::outlier_variance(times);
  // Not of several benchmarks that share a name (model::kDuplicateName): each process's samples
  // are then the two registrations', and "within a process" is the gap between them (frozen's
  // BM_IntNotInStdArray: 37%, beside 0% for the others that had a process each).
  estimates.between_process_share = model::pools_several_benchmarks(result)
                                        ? std::nullopt
                                        : between_process_share(selection.steady);
  // Throughput is work per second: a count per iteration (a metric) has no seconds.
  if (median > 0.0 && result.metric.empty()) {
    if (result.bytes_per_iteration) {
      estimates.bytes_per_second = static_cast<double>(*result.bytes_per_iteration) * 1e9 / median;
    }
    if (result.items_per_iteration) {
      estimates.items_per_second = static_cast<double>(*result.items_per_iteration) * 1e9 / median;
    }
  }
  result.estimates = estimates;
}

std::optional<OutlierFences> outlier_fences(const BenchmarkResult& result) {
  const std::vector<double> times = steady_samples(result).steady.per_iteration_ns();
  if (times.size() < 4) return std::nullopt;
  const stats::TukeyCounts tukey = stats::tukey_outliers(times);
  return OutlierFences{tukey.low_severe_fence, tukey.low_mild_fence, tukey.high_mild_fence,
                       tukey.high_severe_fence};
}

void compute_estimates(RunResult& run) {
  for (BenchmarkResult& benchmark : run.benchmarks) compute_estimates(benchmark);
  fit_complexity(run);
}

}  // namespace benchkit::analysis
