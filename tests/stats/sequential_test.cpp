#include "stats/sequential.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

std::vector<double> equally_spaced(std::size_t looks) {
  std::vector<double> t;
  for (std::size_t k = 1; k <= looks; ++k) {
    t.push_back(static_cast<double>(k) / static_cast<double>(looks));
  }
  return t;
}

TEST(Sequential, BadArgumentsAreRefused) {
  const std::vector<double> fine = {0.5, 1.0};
  EXPECT_THROW(group_sequential_boundary(fine, 0.0, Spending::pocock), std::invalid_argument);
  EXPECT_THROW(group_sequential_boundary(fine, 1.0, Spending::pocock), std::invalid_argument);
  const std::vector<double> none;
  EXPECT_THROW(group_sequential_boundary(none, 0.05, Spending::pocock), std::invalid_argument);
  const std::vector<double> backwards = {0.5, 0.4};
  EXPECT_THROW(group_sequential_boundary(backwards, 0.05, Spending::pocock), std::invalid_argument);
  const std::vector<double> beyond = {0.5, 1.2};
  EXPECT_THROW(group_sequential_boundary(beyond, 0.05, Spending::pocock), std::invalid_argument);
  EXPECT_THROW(alpha_spent(Spending::power, 0.05, 0.5, 0.0), std::invalid_argument);
}

TEST(Sequential, SpendingFunctionsRunFromZeroToAlpha) {
  for (Spending s : {Spending::obrien_fleming, Spending::pocock, Spending::power}) {
    EXPECT_EQ(alpha_spent(s, 0.05, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(alpha_spent(s, 0.05, 1.0), 0.05);
    EXPECT_LT(alpha_spent(s, 0.05, 0.3), alpha_spent(s, 0.05, 0.6));
  }
  // O'Brien–Fleming type at t = 1/2, each side spending 2 - 2 Φ(z_{0.0125} / √½):
  // 4 (1 - Φ(2.241403 √2)) = 0.0030506.
  EXPECT_NEAR(alpha_spent(Spending::obrien_fleming, 0.05, 0.5), 0.0030506, 2e-6);
  // Pocock type at t = 1/2: 0.05 ln(1 + (e - 1)/2) = 0.0310057.
  EXPECT_NEAR(alpha_spent(Spending::pocock, 0.05, 0.5), 0.0310057, 2e-6);
  EXPECT_DOUBLE_EQ(alpha_spent(Spending::power, 0.05, 0.5, 2.0), 0.0125);
}

TEST(Sequential, OneLookIsTheFixedSampleTest) {
  const std::vector<double> once = {1.0};
  const SequentialBoundary b = group_sequential_boundary(once, 0.05, Spending::obrien_fleming);
  ASSERT_EQ(b.critical.size(), 1u);
  EXPECT_NEAR(b.critical[0], 1.959964, 1e-5);
  EXPECT_NEAR(b.nominal_alpha[0], 0.05, 1e-7);
}

// Published boundaries of five equally spaced looks, alpha = 0.025 a side (R's gsDesign,
// sfLDOF and sfLDPocock, one-sided 0.025; a symmetric two-sided design at 0.05 differs from it
// only by the paths that cross one side and then the other, below 1e-6 here): O'Brien–Fleming
// type 4.877, 3.357, 2.680, 2.290, 2.031; Pocock type 2.438, 2.427, 2.410, 2.397, 2.386.
TEST(Sequential, FiveLooksMatchPublishedLanDeMetsBoundaries) {
  const std::vector<double> t = equally_spaced(5);
  const SequentialBoundary obf = group_sequential_boundary(t, 0.05, Spending::obrien_fleming);
  const std::vector<double> obf_reference = {4.877, 3.357, 2.680, 2.290, 2.031};
  const SequentialBoundary pocock = group_sequential_boundary(t, 0.05, Spending::pocock);
  const std::vector<double> pocock_reference = {2.438, 2.427, 2.410, 2.397, 2.386};
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_NEAR(obf.critical[k], obf_reference[k], 2e-3) << "look " << k + 1;
    EXPECT_NEAR(pocock.critical[k], pocock_reference[k], 2e-3) << "look " << k + 1;
  }
  EXPECT_DOUBLE_EQ(obf.cumulative_alpha.back(), 0.05);
}

// The boundaries' promise, checked on simulated Brownian paths: the chance that |Z_k| crosses
// critical[k] at some look is alpha, and by look k it is alpha_spent(t_k). 86 looks, one per
// round from round 5 to 90, as side-by-side comparisons take them.
TEST(SequentialCalibration, CrossingProbabilityMatchesTheSpendingAtEveryLook) {
  std::vector<double> t;
  for (int rounds = 5; rounds <= 90; ++rounds) t.push_back(rounds / 90.0);
  for (Spending s : {Spending::pocock, Spending::obrien_fleming}) {
    const SequentialBoundary b = group_sequential_boundary(t, 0.05, s);
    const std::size_t paths = testing::sanitized ? 20000 : 200000;
    std::mt19937_64 rng(17);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<std::size_t> crossed_by(t.size(), 0);
    for (std::size_t path = 0; path < paths; ++path) {
      double sum = 0.0;  // the Brownian motion B(t)
      double before = 0.0;
      for (std::size_t k = 0; k < t.size(); ++k) {
        sum += std::sqrt(t[k] - before) * normal(rng);
        before = t[k];
        if (std::abs(sum / std::sqrt(t[k])) >= b.critical[k]) {
          ++crossed_by[k];
          break;
        }
      }
    }
    std::size_t cumulative = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      cumulative += crossed_by[k];
      const double rate = static_cast<double>(cumulative) / static_cast<double>(paths);
      const double expected = b.cumulative_alpha[k];
      // Four binomial standard errors, and a floor for the looks that spend almost nothing.
      const double tolerance =
          4.0 * std::sqrt(expected * (1.0 - expected) / static_cast<double>(paths)) + 2e-4;
      EXPECT_NEAR(rate, expected, tolerance) << "look at round " << k + 5;
    }
    std::printf("[calibration] %s, 86 looks: crossed at some look %.4f (spent %.4f)\n",
                s == Spending::pocock ? "Pocock type" : "O'Brien-Fleming type",
                static_cast<double>(cumulative) / static_cast<double>(paths),
                b.cumulative_alpha.back());
  }
}

}  // namespace
}  // namespace benchkit::stats
