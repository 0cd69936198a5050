#include "stats/change_point.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

TEST(ChangePoint, EdgeCases) {
  EXPECT_TRUE(e_divisive(std::vector<double>{}).empty());
  EXPECT_TRUE(e_divisive(std::vector<double>{1, 2, 3}).empty());
  EXPECT_TRUE(e_divisive(std::vector<double>(40, 5.0)).empty());
  EXPECT_THROW(e_divisive(std::vector<double>{1, NAN, 3}), std::invalid_argument);
  ChangePointOptions bad;
  bad.min_segment = 0;
  EXPECT_THROW(e_divisive(std::vector<double>(20, 1.0), bad), std::invalid_argument);
}

TEST(ChangePoint, FindsTwoStepsWithTheirMagnitudes) {
  // A history of 90 runs: 100 ms, then 110 ms from run 30, then back to 104 ms from run 60.
  Draw draw(12);
  std::vector<double> history;
  for (int i = 0; i < 90; ++i) {
    const double level = i < 30 ? 100.0 : (i < 60 ? 110.0 : 104.0);
    history.push_back(level + draw.normal(0, 1.5));
  }
  const auto changes = e_divisive(history);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_NEAR(static_cast<double>(changes[0].index), 30.0, 1.0);
  EXPECT_NEAR(static_cast<double>(changes[1].index), 60.0, 1.0);
  EXPECT_NEAR(changes[0].relative_change, 0.10, 0.015);
  EXPECT_NEAR(changes[1].relative_change, 104.0 / 110.0 - 1.0, 0.015);
  EXPECT_LE(changes[0].p_value, 0.05);
  // Same seed, same answer.
  const auto again = e_divisive(history);
  ASSERT_EQ(again.size(), changes.size());
  EXPECT_EQ(again[0].p_value, changes[0].p_value);
}

TEST(ChangePointCalibration, FalseChangesOnAStationaryHistory) {
  const std::size_t trials = testing::sanitized ? 40 : 200;
  Draw draw(13);
  ChangePointOptions options;
  options.permutations = 99;
  std::size_t alarms = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<double> history(60);
    for (double& v : history) v = draw.lognormal(0.0, 0.05);
    options.seed = trial;
    if (!e_divisive(history, options).empty()) ++alarms;
  }
  const double rate = static_cast<double>(alarms) / static_cast<double>(trials);
  std::printf(
      "[calibration] e_divisive, 60 stationary points, alpha 0.05: a false change in "
      "%.1f%% of %zu histories\n",
      100.0 * rate, trials);
  EXPECT_LE(rate, 0.10);  // the first permutation test is exact at 5%; 200 trials: sd 1.5%
}

}  // namespace
}  // namespace benchkit::stats
