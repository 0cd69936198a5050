#include "analysis/noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "analysis/estimates.hpp"
#include "stats/distributions.hpp"
#include "stats/summary.hpp"

namespace benchkit::analysis {
namespace {

// Processes a side for which thresholds are given: the small counts a user would run, and larger
// ones only when the run has enough processes to split into two groups of that size.
constexpr std::size_t kSideCounts[] = {1, 2, 3, 5, 10, 15, 20, 25, 30};
constexpr std::size_t kAlwaysShown = 5;

// Times must be positive for ratios and logs, as in compare: a time of 0 (below the clock's
// resolution) is floored at a thousandth of a nanosecond.
std::vector<double> floored_process_medians(const BenchmarkResult& result) {
  std::map<std::uint32_t, std::vector<double>> groups;
  const std::vector<double> times = result.per_iteration_ns();
  for (std::size_t i = 0; i < times.size(); ++i) {
    groups[result.samples[i].process].push_back(std::max(times[i], 1e-3));
  }
  std::vector<double> medians;
  for (const auto& [process, values] : groups) medians.push_back(stats::median(values));
  return medians;
}

// C(n, k) as a double (exact up to 2^53, which is all the comparison with max_splits needs).
double binomial(std::size_t n, std::size_t k) {
  double result = 1.0;
  for (std::size_t i = 1; i <= k; ++i) {
    result = result * static_cast<double>(n - k + i) / static_cast<double>(i);
  }
  return result;
}

// Advances `indices` (strictly increasing, each < n) to the next combination in lexicographic
// order; false after the last one.
bool next_combination(std::vector<std::size_t>& indices, std::size_t n) {
  const std::size_t k = indices.size();
  for (std::size_t i = k; i-- > 0;) {
    if (indices[i] < n - k + i) {
      ++indices[i];
      for (std::size_t j = i + 1; j < k; ++j) indices[j] = indices[j - 1] + 1;
      return true;
    }
  }
  return false;
}

// |ln(mean of B / mean of A)|: the A/A difference `compare` would see, on the log scale.
double log_difference(const std::vector<double>& medians, const std::vector<std::size_t>& a,
                      const std::vector<std::size_t>& b) {
  double sum_a = 0.0;
  double sum_b = 0.0;
  for (std::size_t i : a) sum_a += medians[i];
  for (std::size_t i : b) sum_b += medians[i];
  return std::fabs(std::log(sum_b / sum_a));
}

// Every unordered pair of disjoint k-subsets {A, B}: A runs over the k-subsets, B over those of
// the rest, and the pair is counted once, when A holds the smaller first index.
std::vector<double> all_split_differences(const std::vector<double>& medians, std::size_t k) {
  const std::size_t n = medians.size();
  std::vector<double> differences;
  std::vector<std::size_t> a(k);
  std::iota(a.begin(), a.end(), std::size_t{0});
  std::vector<std::size_t> rest;
  std::vector<std::size_t> pick(k);
  std::vector<std::size_t> b(k);
  do {
    rest.clear();
    for (std::size_t i = 0, j = 0; i < n; ++i) {
      if (j < k && a[j] == i) {
        ++j;
      } else {
        rest.push_back(i);
      }
    }
    std::iota(pick.begin(), pick.end(), std::size_t{0});
    do {
      for (std::size_t i = 0; i < k; ++i) b[i] = rest[pick[i]];
      if (a[0] < b[0]) differences.push_back(log_difference(medians, a, b));
    } while (next_combination(pick, rest.size()));
  } while (next_combination(a, n));
  return differences;
}

// `count` random splits: a partial Fisher–Yates shuffle picks 2k distinct processes, the first k
// are A and the next k are B.
std::vector<double> random_split_differences(const std::vector<double>& medians, std::size_t k,
                                             std::size_t count, std::uint64_t seed) {
  stats::Xoshiro256 generator(seed);
  std::vector<std::size_t> order(medians.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<double> differences(count);
  std::vector<std::size_t> a(k);
  std::vector<std::size_t> b(k);
  for (double& difference : differences) {
    for (std::size_t i = 0; i < 2 * k; ++i) {
      const std::size_t j = i + generator.below(order.size() - i);
      std::swap(order[i], order[j]);
    }
    std::copy(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), a.begin());
    std::copy(order.begin() + static_cast<std::ptrdiff_t>(k),
              order.begin() + static_cast<std::ptrdiff_t>(2 * k), b.begin());
    difference = log_difference(medians, a, b);
  }
  return differences;
}

SideThreshold threshold_for(const std::vector<double>& medians, double log_sd, std::size_t k,
                            const NoiseSettings& settings) {
  SideThreshold result;
  result.processes = k;
  const std::size_t n = medians.size();
  const double level = 1.0 - settings.false_alarm_rate;
  const double t =
      stats::student_t_quantile(1.0 - settings.false_alarm_rate / 2.0, static_cast<double>(n - 1));
  result.from_spread = std::expm1(t * log_sd * std::sqrt(2.0 / static_cast<double>(k)));
  result.threshold = result.from_spread;
  if (2 * k <= n) {
    const double splits = binomial(n, k) * binomial(n - k, k) / 2.0;
    result.all_splits = splits <= static_cast<double>(settings.max_splits);
    // Each process count draws its own stream, so adding a count does not change the others.
    const std::vector<double> differences =
        result.all_splits
            ? all_split_differences(medians, k)
            : random_split_differences(medians, k, settings.max_splits, settings.seed + k);
    result.splits = differences.size();
    result.from_splits = std::expm1(stats::quantile(differences, level));
    result.threshold = std::max(result.threshold, *result.from_splits);
  }
  return result;
}

NoiseRecommendation recommend(const std::vector<double>& thresholds,
                              const std::vector<std::size_t>& counts,
                              const NoiseSettings& settings) {
  NoiseRecommendation result;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (thresholds[i] <= settings.target_threshold) {
      result.processes = counts[i];
      result.threshold = round_threshold_up(thresholds[i]);
      result.within_target = true;
      return result;
    }
  }
  const auto fallback = std::find(counts.begin(), counts.end(), settings.fallback_processes);
  const std::size_t index = fallback == counts.end()
                                ? counts.size() - 1
                                : static_cast<std::size_t>(fallback - counts.begin());
  result.processes = counts[index];
  result.threshold = round_threshold_up(thresholds[index]);
  return result;
}

BenchmarkNoise analyse_benchmark(const BenchmarkResult& benchmark, const NoiseSettings& settings) {
  BenchmarkNoise result;
  result.name = benchmark.name;
  if (!benchmark.valid()) {
    result.note = fmt::format("failed its checks ({}): not analysed", benchmark.failures.front());
    return result;
  }
  result.process_medians = floored_process_medians(benchmark);
  const std::vector<double>& medians = result.process_medians;
  if (medians.empty()) {
    result.note = "no samples";
    return result;
  }
  result.median = stats::median(medians);
  if (medians.size() < 2) {
    result.note =
        "ran in a single process: the spread between processes needs at least 2 (3 or more "
        "to say anything useful)";
    return result;
  }
  result.spread = stats::max(medians) / stats::min(medians) - 1.0;
  result.cv = stats::coefficient_of_variation(medians);
  std::vector<double> logs(medians.size());
  std::transform(medians.begin(), medians.end(), logs.begin(),
                 [](double m) { return std::log(m); });
  result.log_sd = stats::stddev(logs);
  result.between_share = between_process_share(benchmark);
  result.states = stats::process_states(medians);
  for (std::size_t k : kSideCounts) {
    if (k > kAlwaysShown && 2 * k > medians.size()) break;
    result.thresholds.push_back(threshold_for(medians, result.log_sd, k, settings));
  }
  std::vector<double> thresholds;
  std::vector<std::size_t> counts;
  for (const SideThreshold& side : result.thresholds) {
    thresholds.push_back(side.threshold);
    counts.push_back(side.processes);
  }
  result.recommendation = recommend(thresholds, counts, settings);
  return result;
}

}  // namespace

const SideThreshold* BenchmarkNoise::at(std::size_t processes) const {
  for (const SideThreshold& side : thresholds) {
    if (side.processes == processes) return &side;
  }
  return nullptr;
}

double round_threshold_up(double threshold) {
  // The small allowance keeps 0.023 (stored as 0.0230000000000000003) at 0.023.
  return std::ceil(threshold * 1000.0 - 1e-9) / 1000.0;
}

NoiseAnalysis analyse_noise(const RunResult& run, const NoiseSettings& settings) {
  NoiseAnalysis analysis;
  analysis.settings = settings;
  std::vector<const BenchmarkNoise*> analysed;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    analysis.benchmarks.push_back(analyse_benchmark(benchmark, settings));
  }
  for (const BenchmarkNoise& benchmark : analysis.benchmarks) {
    analysis.processes = std::max(analysis.processes, benchmark.process_medians.size());
    if (benchmark.analysed()) analysed.push_back(&benchmark);
  }
  if (analysed.empty()) return analysis;

  // The counts every analysed benchmark has (benchmarks may have run in different numbers of
  // processes), and for each the largest threshold over the suite.
  std::vector<std::size_t> counts;
  for (const SideThreshold& side : analysed.front()->thresholds) {
    const bool everywhere = std::all_of(analysed.begin(), analysed.end(), [&](const auto* b) {
      return b->at(side.processes) != nullptr;
    });
    if (everywhere) counts.push_back(side.processes);
  }
  std::vector<double> worst;
  for (std::size_t k : counts) {
    double largest = 0.0;
    for (const BenchmarkNoise* b : analysed) largest = std::max(largest, b->at(k)->threshold);
    worst.push_back(largest);
  }
  NoiseRecommendation suite = recommend(worst, counts, settings);
  const BenchmarkNoise* noisiest = analysed.front();
  double second = -1.0;
  for (const BenchmarkNoise* b : analysed) {
    if (b->at(suite.processes)->threshold > noisiest->at(suite.processes)->threshold) noisiest = b;
  }
  for (const BenchmarkNoise* b : analysed) {
    if (b != noisiest) second = std::max(second, b->at(suite.processes)->threshold);
  }
  suite.set_by = noisiest->name;
  if (second >= 0.0) suite.threshold_without_noisiest = round_threshold_up(second);
  analysis.recommendation = suite;
  return analysis;
}

}  // namespace benchkit::analysis
