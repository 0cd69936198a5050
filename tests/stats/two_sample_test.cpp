#include "stats/two_sample.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "stats/pairwise.hpp"
#include "stats/ranks.hpp"
#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;
using testing::Shape;

TEST(Pairwise, SelectionMatchesSortingEveryDifference) {
  Draw draw(8);
  for (std::size_t trial = 0; trial < 20; ++trial) {
    const std::size_t m = 1 + trial % 7;
    const std::size_t n = 1 + (trial * 3) % 11;
    std::vector<double> x(m), y(n);
    // Rounded values: ties and negative differences are exercised too.
    for (double& v : x) v = std::round(draw.normal(0, 3));
    for (double& v : y) v = std::round(draw.normal(1, 3));
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    std::vector<double> all;
    for (double b : y) {
      for (double a : x) all.push_back(b - a);
    }
    std::sort(all.begin(), all.end());
    for (std::size_t k = 1; k <= all.size(); ++k) {
      ASSERT_EQ(kth_pairwise_difference(x, y, k), all[k - 1]) << "k=" << k;
    }
    std::vector<double> walsh;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = i; j < m; ++j) walsh.push_back((x[i] + x[j]) * 0.5);
    }
    std::sort(walsh.begin(), walsh.end());
    for (std::size_t k = 1; k <= walsh.size(); ++k) {
      ASSERT_EQ(kth_walsh_average(x, k), walsh[k - 1]) << "k=" << k;
    }
  }
}

TEST(Ranks, NullDistributionsMatchSmallEnumerations) {
  // m = 2, n = 2: the 6 arrangements give U = 0, 1, 2, 2, 3, 4.
  const auto u = mann_whitney_null_distribution(2, 2);
  ASSERT_EQ(u.size(), 5u);
  EXPECT_DOUBLE_EQ(u[0], 1.0 / 6);
  EXPECT_DOUBLE_EQ(u[2], 2.0 / 6);
  EXPECT_DOUBLE_EQ(u[4], 1.0 / 6);
  // n = 3 signed ranks: subsets of {1, 2, 3} by sum: 0, 1, 2, 3, 3, 4, 5, 6.
  const auto w = signed_rank_null_distribution(3);
  ASSERT_EQ(w.size(), 7u);
  EXPECT_DOUBLE_EQ(w[3], 2.0 / 8);
  EXPECT_DOUBLE_EQ(w[6], 1.0 / 8);
  const auto ranking = rank_with_ties(std::vector<double>{3, 1, 3, 2});
  EXPECT_EQ(ranking.ranks, (std::vector<double>{3.5, 1, 3.5, 2}));
  EXPECT_EQ(ranking.tie_term, 6.0);
}

TEST(TwoSample, EdgeCases) {
  const std::vector<double> empty;
  const std::vector<double> one = {1.0};
  const std::vector<double> some = {1.0, 2.0, 3.0};
  EXPECT_THROW(mann_whitney(empty, some), std::invalid_argument);
  EXPECT_THROW(welch_t_test(one, some), std::invalid_argument);
  EXPECT_THROW(brunner_munzel(one, some), std::invalid_argument);
  const std::vector<double> with_inf = {1.0, INFINITY};
  EXPECT_THROW(hodges_lehmann_shift(with_inf, some), std::invalid_argument);
  const std::vector<double> zero = {0.0, 1.0};
  EXPECT_THROW(ratio_of_medians(zero, some), std::invalid_argument);
  // All values tied: no evidence.
  const std::vector<double> flat(10, 4.0);
  EXPECT_EQ(mann_whitney(flat, flat).p_value, 1.0);
  EXPECT_EQ(brunner_munzel(flat, flat).p_value, 1.0);
  EXPECT_EQ(welch_t_test(flat, flat).p_value, 1.0);
  // Complete separation of 3 vs 3: Brunner–Munzel is unbounded; we give the permutation bound
  // 2/C(6,3) = 0.1, and the exact Mann–Whitney agrees.
  const std::vector<double> low = {1, 2, 3};
  const std::vector<double> high = {4, 5, 6};
  EXPECT_NEAR(brunner_munzel(low, high).p_value, 0.1, 1e-12);
  EXPECT_NEAR(mann_whitney(low, high).p_value, 0.1, 1e-12);
  // One value a side: the ratio has no interval.
  const std::vector<double> two = {2.0};
  EXPECT_EQ(ratio_of_medians(one, two).interval.confidence, 0.0);
  EXPECT_EQ(ratio_of_medians(one, two).ratio, 2.0);
}

TEST(TwoSample, ExactAndAsymptoticMannWhitneyAgreeAtModerateSizes) {
  Draw draw(21);
  const auto x = testing::sample(draw, Shape::normal, 40);
  const auto y = testing::sample(draw, Shape::normal, 45, 1.03);
  const double exact = mann_whitney(x, y, TestMethod::exact).p_value;
  const double approximate = mann_whitney(x, y, TestMethod::asymptotic).p_value;
  EXPECT_NEAR(exact, approximate, 0.01);
  EXPECT_LT(exact, 0.2);  // a 3% shift of normal(10, 1) data with 40+ values is visible
}

TEST(TwoSample, OrientationIsCandidateMinusBaseline) {
  const std::vector<double> baseline = {10, 11, 12, 10.5, 11.5, 10.2, 11.8};
  std::vector<double> candidate = baseline;
  for (double& v : candidate) v *= 1.5;
  EXPECT_GT(hodges_lehmann_shift(baseline, candidate).shift, 0.0);
  EXPECT_GT(ratio_of_medians(baseline, candidate).ratio, 1.0);
  EXPECT_GT(welch_t_test(baseline, candidate).t, 0.0);
  EXPECT_GT(brunner_munzel(baseline, candidate).statistic, 0.0);
  EXPECT_EQ(mann_whitney(baseline, candidate).probability_of_superiority, 1.0);
  EXPECT_NEAR(ratio_of_medians(baseline, candidate).ratio, 1.5, 1e-12);
}

using PValue = std::function<double(const std::vector<double>&, const std::vector<double>&)>;

struct NamedTest {
  const char* name;
  PValue p_value;
  std::size_t n;
};

std::vector<NamedTest> all_tests() {
  return {
      {"Mann-Whitney exact (n=20)",
       [](const auto& a, const auto& b) { return mann_whitney(a, b).p_value; }, 20},
      {"Mann-Whitney asymptotic (n=60)",
       [](const auto& a, const auto& b) { return mann_whitney(a, b).p_value; }, 60},
      {"Welch t (n=40)", [](const auto& a, const auto& b) { return welch_t_test(a, b).p_value; },
       40},
      {"Brunner-Munzel (n=30)",
       [](const auto& a, const auto& b) { return brunner_munzel(a, b).p_value; }, 30},
  };
}

double rejection_rate(const NamedTest& test, Shape shape, double scale, std::size_t trials,
                      std::uint64_t seed) {
  Draw draw(seed);
  std::size_t rejected = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const auto baseline = testing::sample(draw, shape, test.n);
    const auto candidate = testing::sample(draw, shape, test.n, scale);
    if (test.p_value(baseline, candidate) < 0.05) ++rejected;
  }
  return static_cast<double>(rejected) / static_cast<double>(trials);
}

TEST(TwoSampleCalibration, FalseAlarmRateIsFivePercentOnIdenticalDistributions) {
  const std::size_t trials = testing::sanitized ? 2000 : 4000;
  for (const auto& test : all_tests()) {
    for (Shape shape : {Shape::normal, Shape::lognormal, Shape::pareto}) {
      const double rate =
          rejection_rate(test, shape, 1.0, trials, 900 + static_cast<std::uint64_t>(shape));
      std::printf("[calibration] %s, %s: false alarms %.2f%% over %zu trials at alpha 0.05\n",
                  test.name, testing::name(shape), 100.0 * rate, trials);
      EXPECT_GE(rate, 0.035) << test.name << " " << testing::name(shape);
      EXPECT_LE(rate, 0.065) << test.name << " " << testing::name(shape);
    }
  }
}

TEST(TwoSampleCalibration, PowerForAFivePercentSlowdownIsReported) {
  // Candidate = 1.05 × baseline distribution. Power depends on the spread: normal(10, 1) has a
  // CV of 10% (5% is half a σ), lognormal(0, 0.5) about 53%, so the figures differ widely.
  const std::size_t trials = testing::sanitized ? 500 : 2000;
  for (const auto& test : all_tests()) {
    for (Shape shape : {Shape::normal, Shape::lognormal, Shape::pareto}) {
      const double power =
          rejection_rate(test, shape, 1.05, trials, 901 + static_cast<std::uint64_t>(shape));
      std::printf("[power] %s, %s: %.1f%% for a 5%% slowdown over %zu trials\n", test.name,
                  testing::name(shape), 100.0 * power, trials);
      if (std::string(test.name) == "Welch t (n=40)" && shape == Shape::normal) {
        // Theory: means 10 and 10.5, σ 1 and 1.05, 40 a side: a noncentral t with
        // λ = 0.5/√((1 + 1.05²)/40) on the Welch–Satterthwaite df.
        const double v1 = 1.0 / 40.0;
        const double v2 = 1.05 * 1.05 / 40.0;
        const double lambda = 0.5 / std::sqrt(v1 + v2);
        const double df = (v1 + v2) * (v1 + v2) / (v1 * v1 / 39.0 + v2 * v2 / 39.0);
        const double critical = boost::math::quantile(boost::math::students_t(df), 0.975);
        const boost::math::non_central_t shifted(df, lambda);
        const double expected = boost::math::cdf(boost::math::complement(shifted, critical)) +
                                boost::math::cdf(shifted, -critical);
        EXPECT_NEAR(power, expected, testing::sanitized ? 0.08 : 0.04);
      }
    }
  }
}

TEST(TwoSampleCalibration, ShiftAndRatioIntervalsCoverTheTruth) {
  // Candidate = 1.05 × baseline: the true ratio of medians is 1.05 on every shape; the true
  // shift is 0.05 × median for the Hodges–Lehmann estimate only under a pure shift, so it is
  // checked on normal data shifted by 0.5 (not scaled).
  const std::size_t trials = testing::sanitized ? 1000 : 2000;
  for (Shape shape : {Shape::normal, Shape::lognormal, Shape::pareto}) {
    Draw draw(902);
    std::size_t covered = 0;
    for (std::size_t trial = 0; trial < trials; ++trial) {
      const auto baseline = testing::sample(draw, shape, 30);
      const auto candidate = testing::sample(draw, shape, 40, 1.05);
      const Interval ci = ratio_of_medians(baseline, candidate).interval;
      if (ci.lower <= 1.05 && 1.05 <= ci.upper) ++covered;
    }
    const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
    std::printf(
        "[calibration] ratio of medians CI, %s, n=30/40: coverage %.1f%% over %zu "
        "trials\n",
        testing::name(shape), 100.0 * coverage, trials);
    EXPECT_GE(coverage, 0.93) << testing::name(shape);
    EXPECT_LE(coverage, 0.975) << testing::name(shape);
  }
  Draw draw(903);
  std::size_t covered = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const auto baseline = testing::sample(draw, Shape::normal, 25);
    auto candidate = testing::sample(draw, Shape::normal, 30);
    for (double& v : candidate) v += 0.5;
    const Interval ci = hodges_lehmann_shift(baseline, candidate).interval;
    if (ci.lower <= 0.5 && 0.5 <= ci.upper) ++covered;
  }
  const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
  std::printf(
      "[calibration] Hodges-Lehmann shift CI, normal, n=25/30: coverage %.1f%% over %zu "
      "trials\n",
      100.0 * coverage, trials);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.97);
}

}  // namespace
}  // namespace benchkit::stats
