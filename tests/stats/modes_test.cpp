#include "stats/modes.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;
using testing::Shape;

TEST(Modes, EdgeCases) {
  EXPECT_THROW(kde_modes(std::vector<double>{}), std::invalid_argument);
  EXPECT_THROW(kde_modes(std::vector<double>{1.0, -1.0}), std::invalid_argument);  // log scale
  const auto one = kde_modes(std::vector<double>{7.0});
  EXPECT_EQ(one.count, 1u);
  EXPECT_EQ(one.locations[0], 7.0);
  EXPECT_EQ(kde_modes(std::vector<double>(5, 2.0)).count, 1u);
  EXPECT_EQ(bimodality_coefficient(std::vector<double>{1, 2, 3}), 0.0);
}

TEST(Modes, FindsTwoPerformanceStatesTwoAndAHalfPercentApart) {
  Draw draw(9);
  std::vector<double> values;
  for (int i = 0; i < 300; ++i) {
    values.push_back(draw.normal(i % 2 == 0 ? 100.0 : 102.5, 0.4));
  }
  const ModeResult modes = kde_modes(values);
  ASSERT_EQ(modes.count, 2u);
  EXPECT_NEAR(modes.locations[0], 100.0, 0.3);
  EXPECT_NEAR(modes.locations[1], 102.5, 0.3);
  EXPECT_GT(bimodality_coefficient(values), 5.0 / 9.0);
}

TEST(ModesCalibration, FalseModeRateOnUnimodalData) {
  // Reported for the documentation, asserted loosely: a diagnostic, not a test at a level.
  const std::size_t trials = testing::sanitized ? 200 : 1000;
  for (std::size_t n : {30u, 100u, 1000u}) {
    for (Shape shape : {Shape::normal, Shape::lognormal, Shape::pareto}) {
      Draw draw(40 + n);
      std::size_t multi = 0;
      for (std::size_t trial = 0; trial < trials; ++trial) {
        if (kde_modes(testing::sample(draw, shape, n)).count > 1) ++multi;
      }
      const double rate = static_cast<double>(multi) / static_cast<double>(trials);
      std::printf("[calibration] kde_modes, %s, n=%zu: false second mode in %.1f%% of %zu\n",
                  testing::name(shape), n, 100.0 * rate, trials);
      if (n == 1000) {
        EXPECT_LT(rate, 0.05) << testing::name(shape);
      }
    }
  }
}

}  // namespace
}  // namespace benchkit::stats
