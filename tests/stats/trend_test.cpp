#include "stats/trend.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

TEST(Trend, EdgeCases) {
  EXPECT_EQ(mann_kendall(std::vector<double>{}).p_value, 1.0);
  EXPECT_EQ(mann_kendall(std::vector<double>{1, 2}).p_value, 1.0);
  EXPECT_EQ(mann_kendall(std::vector<double>(10, 3.0)).p_value, 1.0);
  EXPECT_EQ(sen_slope(std::vector<double>{5}), 0.0);
  EXPECT_THROW(mann_kendall(std::vector<double>{1, NAN, 3}), std::invalid_argument);
  EXPECT_THROW(spearman(std::vector<double>{1, 2}, std::vector<double>{1}), std::invalid_argument);
  EXPECT_EQ(spearman(std::vector<double>{1, 2, 3}, std::vector<double>{4, 4, 4}).p_value, 1.0);
  EXPECT_THROW(least_squares(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3}),
               std::invalid_argument);
}

TEST(Trend, MergeSortCountMatchesThePairwiseDefinition) {
  Draw draw(4);
  std::vector<double> values(300);
  for (double& v : values) v = std::round(draw.normal(0, 5));  // many ties
  double s = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = i + 1; j < values.size(); ++j) {
      s += (values[j] > values[i]) - (values[j] < values[i]);
    }
  }
  EXPECT_EQ(mann_kendall(values).s, s);
}

TEST(Trend, DetectsGrowingStateAndItsSlope) {
  // Each iteration 0.1% slower than the one before, with 1% noise: a leak-like trend.
  Draw draw(5);
  std::vector<double> values(100);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = 1000.0 + 1.0 * static_cast<double>(i) + draw.normal(0, 10);
  }
  const TrendResult trend = mann_kendall(values);
  EXPECT_LT(trend.p_value, 1e-6);
  EXPECT_GT(trend.tau, 0.0);
  EXPECT_NEAR(sen_slope(values), 1.0, 0.15);
}

TEST(TrendCalibration, MannKendallFalseAlarmsOnIndependentSamples) {
  const std::size_t trials = testing::sanitized ? 1000 : 4000;
  Draw draw(6);
  std::size_t alarms = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const auto values = testing::sample(draw, testing::Shape::lognormal, 50);
    if (mann_kendall(values).p_value < 0.05) ++alarms;
  }
  const double rate = static_cast<double>(alarms) / static_cast<double>(trials);
  std::printf(
      "[calibration] Mann-Kendall, 50 iid lognormal samples: false alarms %.2f%% over "
      "%zu trials\n",
      100.0 * rate, trials);
  EXPECT_GE(rate, testing::sanitized ? 0.025 : 0.035);
  EXPECT_LE(rate, testing::sanitized ? 0.075 : 0.065);
}

TEST(Trend, LeastSquaresRecoversPerIterationTimeAndOverhead) {
  const std::vector<double> iterations = {1, 2, 4, 8, 16, 32};
  std::vector<double> times;
  for (double n : iterations) times.push_back(50.0 + 12.5 * n);
  const LinearFit fit = least_squares(iterations, times);
  EXPECT_NEAR(fit.slope, 12.5, 1e-12);
  EXPECT_NEAR(fit.intercept, 50.0, 1e-10);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(fit.slope_standard_error, 0.0, 1e-10);
}

TEST(Runs, CountsRunsAndMatchesTheTwoCategoryFormula) {
  // 0 0 | 1 1 1 | 0 | 1: 4 runs; three 0s and four 1s.
  const std::vector<std::size_t> labels = {0, 0, 1, 1, 1, 0, 1};
  const RunsResult result = runs_test(labels);
  EXPECT_EQ(result.runs, 4u);
  // Two categories: E[R] = 2 n1 n2 / n + 1, Var R = 2 n1 n2 (2 n1 n2 - n) / (n² (n - 1)).
  const double expected = 2.0 * 3 * 4 / 7 + 1;
  const double variance = 2.0 * 3 * 4 * (2.0 * 3 * 4 - 7) / (49.0 * 6);
  EXPECT_NEAR(result.expected, expected, 1e-12);
  EXPECT_NEAR(result.z, (4 - expected) / std::sqrt(variance), 1e-12);
  EXPECT_NEAR(result.clustered_p_value, 0.5 * std::erfc(-result.z / std::sqrt(2.0)), 1e-12);
}

TEST(Runs, ThreeCategoriesAndEdgeCases) {
  // 0 1 2 0 1 2: every label a run of its own, as many runs as possible: z > 0.
  EXPECT_GT(runs_test(std::vector<std::size_t>{0, 1, 2, 0, 1, 2}).z, 0.0);
  EXPECT_EQ(runs_test(std::vector<std::size_t>{}).clustered_p_value, 1.0);
  EXPECT_EQ(runs_test(std::vector<std::size_t>(20, 1)).clustered_p_value, 1.0);
  // Two long stretches: a state that persisted in time.
  std::vector<std::size_t> stretches(40, 0);
  stretches.insert(stretches.end(), 40, 1);
  EXPECT_LT(runs_test(stretches).clustered_p_value, 1e-10);
}

TEST(RunsCalibration, FalseClusteringOnShuffledLabels) {
  // Three categories in random order: "clustered at p < 0.01" must come up about 1% of the time
  // (the normal approximation is slightly off at n = 60).
  const std::size_t trials = testing::sanitized ? 2000 : 8000;
  Draw draw(9);
  std::size_t alarms = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<std::size_t> labels(60);
    for (std::size_t& label : labels)
      label = draw.uniform() < 0.5 ? 0 : (draw.uniform() < 0.6 ? 1 : 2);
    if (runs_test(labels).clustered_p_value < 0.01) ++alarms;
  }
  const double rate = static_cast<double>(alarms) / static_cast<double>(trials);
  std::printf(
      "[calibration] runs test, 60 shuffled labels: clustered at p < 0.01 in %.2f%% of %zu "
      "trials\n",
      100.0 * rate, trials);
  EXPECT_GE(rate, 0.003);
  EXPECT_LE(rate, 0.02);
}

}  // namespace
}  // namespace benchkit::stats
