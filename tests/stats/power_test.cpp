#include "stats/power.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "stats/two_sample.hpp"
#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

TEST(Power, EdgeCases) {
  EXPECT_THROW(minimum_detectable_change(0.1, 1, 0.1, 10), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_change(-0.1, 10, 0.1, 10), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_change(0.1, 10, 0.1, 10, 0.05, 0.01), std::invalid_argument);
  EXPECT_EQ(minimum_detectable_change(0.0, 10, 0.0, 10).relative_change, 0.0);
  // More samples, smaller detectable change; the z shortcut is optimistic at small counts.
  const auto few = minimum_detectable_change(0.05, 10, 0.05, 10);
  const auto many = minimum_detectable_change(0.05, 1000, 0.05, 1000);
  EXPECT_GT(few.relative_change, many.relative_change);
  EXPECT_GT(few.log_change, (1.959964 + 0.841621) * few.standard_error);
  EXPECT_NEAR(many.log_change, (1.959964 + 0.841621) * many.standard_error, 0.01 * many.log_change);
}

TEST(PowerCalibration, ADetectableChangeIsDetectedWithTheStatedPower) {
  // Lognormal times with a log-spread of 5%, 15 a side: shift the candidate by exactly the
  // detectable change and count how often Welch's t on the logs flags it (target 80%).
  const std::size_t trials = testing::sanitized ? 1000 : 4000;
  const DetectableChange change = minimum_detectable_change(0.05, 15, 0.05, 15, 0.05, 0.8);
  Draw draw(31);
  std::size_t detected = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<double> base(15), candidate(15);
    for (double& v : base) v = draw.normal(0.0, 0.05);
    for (double& v : candidate) v = draw.normal(change.log_change, 0.05);
    if (welch_t_test(base, candidate).p_value < 0.05) ++detected;
  }
  const double power = static_cast<double>(detected) / static_cast<double>(trials);
  std::printf(
      "[calibration] detectable change %.2f%% (15 a side, log-sd 5%%): detected in "
      "%.1f%% of %zu trials (target 80%%)\n",
      100.0 * change.relative_change, 100.0 * power, trials);
  EXPECT_NEAR(power, 0.8, testing::sanitized ? 0.05 : 0.025);
}

TEST(Power, FromSamplesUsesRobustSpreads) {
  Draw draw(32);
  std::vector<double> base(200), candidate(200);
  for (double& v : base) v = draw.lognormal(0.0, 0.1);
  for (double& v : candidate) v = draw.lognormal(0.0, 0.1);
  const auto clean = minimum_detectable_change(base, candidate);
  candidate[0] = 1e6;  // one wild outlier must not blow the figure up
  const auto dirty = minimum_detectable_change(base, candidate);
  EXPECT_NEAR(dirty.relative_change, clean.relative_change, 0.1 * clean.relative_change);
  // With the default efficiency 3/π the figure is that of 200·3/π values a side.
  EXPECT_NEAR(clean.standard_error, std::sqrt(2.0 * 0.1 * 0.1 / (200.0 * 3.0 / 3.141592653589793)),
              0.15 * clean.standard_error);
}

}  // namespace
}  // namespace benchkit::stats
