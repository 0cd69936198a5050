// Times the statistics engine's heaviest routines on one core: the bootstrap of the mean
// (10,000 resamples of 1,000 values), the rank tests on 100,000 values a side, and the change
// points of 100 series of 1,000 points (a fleet's history: `history trend .` searches 10,000 such
// series), with the optimal partition searched exhaustively and pruned. A plain main with
// std::chrono, independent of the benchkit library; prints the median of the repetitions.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/change_points.hpp"
#include "stats/random.hpp"
#include "stats/summary.hpp"
#include "stats/two_sample.hpp"

namespace {

using benchkit::stats::Xoshiro256;

// 7 repetitions: the median is then the 4th value, robust to one or two disturbed runs.
constexpr int repetitions = 7;

std::vector<double> lognormal_values(std::size_t n, std::uint64_t seed, double scale) {
  Xoshiro256 generator(seed);
  std::vector<double> values(n);
  for (auto& value : values) {
    const double u1 = 1.0 - generator.uniform();
    const double u2 = generator.uniform();
    const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    value = scale * std::exp(0.2 * normal);
  }
  return values;
}

double sink = 0.0;  // results land here so the work cannot be optimised away

void time_it(const char* label, const std::function<double()>& work) {
  std::vector<double> milliseconds;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    sink += work();
    const auto stop = std::chrono::steady_clock::now();
    milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(milliseconds.begin(), milliseconds.end());
  std::printf("%-58s median %8.2f ms  (min %.2f, max %.2f, %d runs)\n", label,
              milliseconds[repetitions / 2], milliseconds.front(), milliseconds.back(),
              repetitions);
}

}  // namespace

int main() {
  namespace stats = benchkit::stats;
  const auto thousand = lognormal_values(1'000, 1, 1000.0);
  for (auto method : {stats::BootstrapMethod::percentile, stats::BootstrapMethod::bca,
                      stats::BootstrapMethod::studentized}) {
    stats::BootstrapOptions options;
    options.method = method;
    const char* label = method == stats::BootstrapMethod::percentile ? "percentile"
                        : method == stats::BootstrapMethod::bca      ? "BCa"
                                                                     : "studentized";
    char text[96];
    std::snprintf(text, sizeof text, "bootstrap_mean %s, 10,000 x 1,000", label);
    time_it(text, [&] { return stats::bootstrap_mean(thousand, options).interval.lower; });
  }
  const stats::Statistic median_of = [](std::span<const double> v) { return stats::median(v); };
  stats::BootstrapOptions bca;
  bca.method = stats::BootstrapMethod::bca;
  time_it("bootstrap (median, BCa), 10,000 x 1,000",
          [&] { return stats::bootstrap(thousand, median_of, bca).interval.lower; });

  const auto baseline = lognormal_values(100'000, 2, 1000.0);
  const auto candidate = lognormal_values(100'000, 3, 1010.0);
  time_it("mann_whitney (asymptotic), 100,000 a side",
          [&] { return stats::mann_whitney(baseline, candidate).p_value; });
  time_it("brunner_munzel, 100,000 a side",
          [&] { return stats::brunner_munzel(baseline, candidate).p_value; });
  time_it("hodges_lehmann_shift with CI, 100,000 a side",
          [&] { return stats::hodges_lehmann_shift(baseline, candidate).shift; });
  time_it("ratio_of_medians with CI, 100,000 a side",
          [&] { return stats::ratio_of_medians(baseline, candidate).ratio; });

  // 100 series of 1,000 points with 1% noise between runs and ±0.5% intervals, as
  // bench/history/fleet_load fills: 90 step-free, 10 with a 20% step in the middle.
  std::vector<std::vector<stats::IntervalPoint>> series(100);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const auto noise = lognormal_values(1'000, 10 + s, 1.0);
    for (std::size_t i = 0; i < noise.size(); ++i) {
      const double level = (s % 10 == 0 && i >= 500) ? 120.0 : 100.0;
      const double value = level * std::pow(noise[i], 0.05);  // 0.2 · 0.05: 1% noise
      series[s].push_back({value, value * 0.995, value * 1.005});
    }
  }
  for (const auto search :
       {stats::detail::PartitionSearch::exhaustive, stats::detail::PartitionSearch::pruned}) {
    const bool pruned = search == stats::detail::PartitionSearch::pruned;
    time_it(pruned ? "detect_change_points, 100 x 1,000 points (pruned search)"
                   : "detect_change_points, 100 x 1,000 points (exhaustive search)",
            [&] {
              double found = 0;
              for (const auto& points : series) {
                found += static_cast<double>(
                    stats::detail::detect_change_points(points, {}, search).size());
              }
              return found;
            });
  }
  return sink == 12345.678 ? 1 : 0;
}
