#include "stats/summary.hpp"

#include <gtest/gtest.h>

#include "stats/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace benchkit::stats {
namespace {

TEST(Summary, MedianInPlaceIsTheMedianToTheBit) {
  // Sizes odd and even, with ties and negative zero, against median() of the same values.
  Xoshiro256 generator(7);
  for (std::size_t size = 1; size <= 40; ++size) {
    std::vector<double> values(size);
    for (double& value : values) value = std::round(generator.uniform() * 8.0) - 4.0 + 1e-3;
    if (size % 3 == 0) values[size / 2] = -0.0;
    std::vector<double> reordered = values;
    const double expected = median(values);
    const double got = median_in_place(reordered);
    EXPECT_EQ(std::signbit(got), std::signbit(expected)) << size << " values";
    EXPECT_EQ(got, expected) << size << " values";
    std::sort(values.begin(), values.end());
    std::sort(reordered.begin(), reordered.end());
    EXPECT_EQ(reordered, values) << "median_in_place only reorders";
  }
  std::vector<double> zeros = {-0.0};
  EXPECT_EQ(std::signbit(median_in_place(zeros)), std::signbit(median(std::vector<double>{-0.0})));
}

TEST(Summary, VarianceStaysAccurateForLargeMeans) {
  // Nanosecond timings around 1e9 with a spread of 1: the one-pass Σx² - n x̄² formula loses
  // every digit here; Welford keeps them. Variance of {-1, 0, 1} + 1e9 is exactly 1.
  const std::vector<double> values = {1e9 - 1, 1e9, 1e9 + 1};
  EXPECT_DOUBLE_EQ(variance(values), 1.0);
  EXPECT_DOUBLE_EQ(mean(values), 1e9);
}

TEST(Summary, EdgeCasesFollowTheirDocumentation) {
  const std::vector<double> one = {4.0};
  EXPECT_EQ(variance(one), 0.0);
  EXPECT_EQ(mad(one), 0.0);
  EXPECT_EQ(iqr(one), 0.0);
  EXPECT_EQ(quantile(one, 0.3), 4.0);
  const std::vector<double> same(10, 7.0);
  EXPECT_EQ(median(same), 7.0);
  EXPECT_EQ(outlier_variance(same), 0.0);
  EXPECT_EQ(tukey_outliers(same).total(), 0u);
  const std::vector<double> empty;
  EXPECT_THROW(mean(empty), std::invalid_argument);
  EXPECT_THROW(median(empty), std::invalid_argument);
  const std::vector<double> infinite = {1.0, std::numeric_limits<double>::infinity()};
  EXPECT_THROW(variance(infinite), std::invalid_argument);
  EXPECT_THROW(outlier_variance(infinite), std::invalid_argument);
  EXPECT_THROW(quantile(one, 1.5), std::invalid_argument);
}

TEST(Summary, TukeyCountsMildAndSevereSeparately) {
  // -50, 1..8, 17, 100 (n = 11): type-7 quartiles 2.5 and 7.5, IQR 5, so mild fences at -5 and
  // 15, severe ones at -12.5 and 22.5.
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 17, 100, -50};
  const TukeyCounts counts = tukey_outliers(values);
  EXPECT_EQ(counts.high_mild, 1u);
  EXPECT_EQ(counts.high_severe, 1u);
  EXPECT_EQ(counts.low_severe, 1u);
  EXPECT_EQ(counts.low_mild, 0u);
}

// Independent computation of the outlier variance: the same model evaluated by brute force, the
// minimum of var_out(c)/σ_b² over every integer c in [1, c_max], with c_max found by scanning for
// the largest c whose quadratic σ_g² c² + k1 c + k0 is still <= 0 (instead of the closed-form
// root used by the library).
double outlier_variance_by_scan(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  const double mu = mean(values);
  const double sb2 = variance(values);
  const double mu_a = mu / n;
  const double sg = std::min(mu_a / 8.0, std::sqrt(sb2) / std::sqrt(n));
  const double sg2 = sg * sg;
  auto largest_c = [&](double x) {
    const double d = (mu_a - x) * (mu_a - x);
    double best = 0.0;
    for (double c = 0.0; c <= n; c += 1.0) {
      if (sg2 * c * c + (sb2 - n * sg2 + n * d) * c - n * n * d <= 0.0) best = c;
    }
    return best;
  };
  const double c_max = std::max(1.0, std::min(largest_c(0.0), largest_c(mu_a / 2.0)));
  double best = std::numeric_limits<double>::infinity();
  for (double c = 1.0; c <= c_max; c += 1.0) {
    best = std::min(best, ((n - c) / n) * (sb2 - (n - c) * sg2) / sb2);
  }
  return std::clamp(best, 0.0, 1.0);
}

TEST(OutlierVariance, MatchesABruteForceScanOfTheModel) {
  const std::vector<std::vector<double>> cases = {
      {10, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.1, 10.0, 10.2},
      {10, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.1, 10.0, 30.0},
      {100, 101, 99, 100, 250, 100, 98, 102, 400, 100, 101, 99},
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
      {5, 5.5},
  };
  for (const auto& values : cases) {
    EXPECT_NEAR(outlier_variance(values), outlier_variance_by_scan(values), 1e-12);
  }
}

TEST(OutlierVariance, GrowsWhenOutliersAreAdded) {
  std::vector<double> steady;
  for (int i = 0; i < 50; ++i) steady.push_back(1000.0 + (i % 7) - 3.0);
  std::vector<double> spiky = steady;
  spiky[10] = 5000.0;
  spiky[30] = 8000.0;
  const double clean = outlier_variance(steady);
  const double dirty = outlier_variance(spiky);
  EXPECT_LT(clean, 0.1);
  EXPECT_GT(dirty, 0.5);  // criterion would call this "severe"
}

}  // namespace
}  // namespace benchkit::stats
