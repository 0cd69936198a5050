#include "stats/hierarchical.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

// `processes` processes of `samples` samples: each process has its own level (lognormal, log-sd
// `between`), samples vary around it by `within`.
std::vector<std::vector<double>> nested(Draw& draw, std::size_t processes, std::size_t samples,
                                        double level, double between, double within) {
  std::vector<std::vector<double>> result(processes);
  for (auto& process : result) {
    const double process_level = level * draw.lognormal(0.0, between);
    process.resize(samples);
    for (double& value : process) value = process_level * draw.lognormal(0.0, within);
  }
  return result;
}

TEST(Hierarchical, EdgeCases) {
  const std::vector<std::vector<double>> none;
  EXPECT_THROW(hierarchical_median(none), std::invalid_argument);
  const std::vector<std::vector<double>> with_empty = {{1.0, 2.0}, {}};
  EXPECT_THROW(hierarchical_median(with_empty), std::invalid_argument);
  const std::vector<std::vector<double>> single = {{1.0, 2.0, 3.0}};
  const auto estimate = hierarchical_median(single);
  EXPECT_EQ(estimate.estimate, 2.0);
  EXPECT_EQ(estimate.interval.confidence, 0.0);
  const auto comparison = hierarchical_compare(single, single);
  EXPECT_FALSE(comparison.process_level);
  EXPECT_EQ(comparison.p_value, 1.0);
}

TEST(HierarchicalCalibration, ProcessIsTheUnitOfVariation) {
  // 8 processes a side, 50 samples each, process levels vary by 3%, samples by 1%, no true
  // change. A sample-level test would see 400 samples a side and flag the process-to-process
  // differences most of the time; the process-level test must keep its 5% level, and the ratio
  // interval must cover 1.
  // Under the sanitizer a few trials check memory and UB only; the rates are not asserted.
  const std::size_t trials = testing::sanitized ? 30 : 400;
  HierarchicalOptions options;
  options.resamples = 500;  // enough for a 95% percentile interval's coverage at this precision
  Draw draw(55);
  std::size_t alarms = 0;
  std::size_t covered = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const auto base = nested(draw, 8, 50, 100.0, 0.03, 0.01);
    const auto candidate = nested(draw, 8, 50, 100.0, 0.03, 0.01);
    options.seed = trial;
    const auto result = hierarchical_compare(base, candidate, options);
    if (result.p_value < 0.05) ++alarms;
    if (result.interval.lower <= 1.0 && 1.0 <= result.interval.upper) ++covered;
  }
  const double rate = static_cast<double>(alarms) / static_cast<double>(trials);
  const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
  std::printf(
      "[calibration] hierarchical compare, 8 processes x 50 samples: false alarms "
      "%.1f%%, ratio CI coverage %.1f%% over %zu trials\n",
      100.0 * rate, 100.0 * coverage, trials);
  if (testing::sanitized) return;
  EXPECT_LE(rate, 0.09);
  EXPECT_GE(coverage, 0.88);  // a percentile bootstrap over 8 units under-covers a little
}

TEST(Hierarchical, SameSeedSameInterval) {
  Draw draw(56);
  const auto processes = nested(draw, 5, 20, 10.0, 0.05, 0.02);
  const auto first = hierarchical_median(processes);
  const auto second = hierarchical_median(processes);
  EXPECT_EQ(first.interval.lower, second.interval.lower);
  EXPECT_EQ(first.interval.upper, second.interval.upper);
  EXPECT_LT(first.interval.lower, first.estimate);
  EXPECT_GT(first.interval.upper, first.estimate);
}

}  // namespace
}  // namespace benchkit::stats
