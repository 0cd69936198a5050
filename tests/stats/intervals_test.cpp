#include "stats/intervals.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

namespace benchkit::stats {
namespace {

TEST(MedianCi, RankForThirtyValuesMatchesBinomialTable) {
  // n = 30 at 95%: the classic table gives ranks 10 and 21 (coverage 0.9572).
  const auto rank = median_ci_rank(30, 0.95);
  EXPECT_EQ(rank.k, 10u);
  EXPECT_NEAR(rank.coverage, 0.9572, 1e-4);
}

TEST(MedianCi, TooFewValuesGiveTheRangeWithItsCoverage) {
  const std::vector<double> values = {5, 1, 3, 2, 4};
  const Interval interval = median_ci(values);
  EXPECT_EQ(interval.lower, 1);
  EXPECT_EQ(interval.upper, 5);
  EXPECT_NEAR(interval.confidence, 1.0 - 2.0 / 32.0, 1e-12);
}

TEST(MedianCi, RejectsNonFinite) {
  const std::vector<double> values = {1, NAN, 3};
  EXPECT_THROW(median_ci(values), std::invalid_argument);
}

}  // namespace
}  // namespace benchkit::stats
