#include <gtest/gtest.h>

#include <cstdio>

#include "stats/intervals.hpp"
#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;
using testing::Shape;

TEST(MedianCiCalibration, CoversNinetyFivePercentOnEveryShape) {
  // The order-statistic interval is exact for continuous data: its coverage is the binomial
  // figure it reports (95.72% at n = 30, 95.22% at n = 61), whatever the distribution.
  const std::size_t trials = testing::sanitized ? 2000 : 4000;
  for (std::size_t n : {30u, 61u}) {
    for (Shape shape : {Shape::normal, Shape::lognormal, Shape::pareto}) {
      Draw draw(500 + n);
      std::size_t covered = 0;
      double reported = 0.0;
      for (std::size_t trial = 0; trial < trials; ++trial) {
        const auto values = testing::sample(draw, shape, n);
        const Interval ci = median_ci(values);
        reported = ci.confidence;
        const double truth = testing::true_median(shape);
        if (ci.lower <= truth && truth <= ci.upper) ++covered;
      }
      const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
      std::printf(
          "[calibration] median CI, %s, n=%zu: coverage %.1f%% (nominal %.2f%%) over "
          "%zu trials\n",
          testing::name(shape), n, 100.0 * coverage, 100.0 * reported, trials);
      EXPECT_GE(coverage, 0.93);
      EXPECT_LE(coverage, 0.97);
    }
  }
}

}  // namespace
}  // namespace benchkit::stats
