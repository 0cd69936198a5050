#include "stats/paired.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

TEST(Paired, EdgeCases) {
  const std::vector<double> a = {1, 2, 3};
  const std::vector<double> b = {1, 2};
  EXPECT_THROW(log_ratios(a, b), std::invalid_argument);
  const std::vector<double> zero = {1, 0, 3};
  EXPECT_THROW(log_ratios(a, zero), std::invalid_argument);
  const std::vector<double> empty;
  EXPECT_THROW(paired_ratio(empty, empty), std::invalid_argument);
  // No change in any round: every log ratio is 0, which both tests drop: p = 1.
  const PairedComparison same = paired_ratio(a, a);
  EXPECT_EQ(same.ratio, 1.0);
  EXPECT_EQ(same.p_value, 1.0);
  EXPECT_EQ(same.sign_p_value, 1.0);
  const std::vector<double> one = {0.3};
  EXPECT_EQ(hodges_lehmann_center(one).interval.confidence, 0.0);
}

TEST(Paired, SignTestCountsAndExactP) {
  const std::vector<double> differences = {1, 2, 3, 4, 5, 6, 7, -1, 0};
  const SignTestResult result = sign_test(differences);
  EXPECT_EQ(result.positive, 7u);
  EXPECT_EQ(result.negative, 1u);
  EXPECT_EQ(result.zero, 1u);
  // 2 P(B <= 1), B ~ Binomial(8, 1/2) = 2 · 9/256.
  EXPECT_NEAR(result.p_value, 18.0 / 256.0, 1e-12);
}

TEST(PairedCalibration, DriftCancelsAndTheIntervalCovers) {
  // Rounds share a drifting machine speed (a factor that moves from 1 to 1.3 over the run) and
  // the candidate is truly 2% slower. Per-round ratios cancel the drift: the sign-test interval
  // must cover 1.02 about 95% of the time (it is exact, 95.9% nominal at 40 rounds) and the
  // test must keep its level when there is no change.
  const std::size_t trials = testing::sanitized ? 1000 : 3000;
  const std::size_t rounds = 40;
  Draw draw(77);
  std::size_t covered = 0;
  std::size_t false_alarms = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<double> base(rounds), slower(rounds), same(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      const double machine = 1.0 + 0.3 * static_cast<double>(r) / rounds;
      base[r] = 100.0 * machine * draw.lognormal(0, 0.02);
      slower[r] = 102.0 * machine * draw.lognormal(0, 0.02);
      same[r] = 100.0 * machine * draw.lognormal(0, 0.02);
    }
    const PairedComparison change = paired_ratio(base, slower);
    if (change.interval.lower <= 1.02 && 1.02 <= change.interval.upper) ++covered;
    if (paired_ratio(base, same).p_value < 0.05) ++false_alarms;
  }
  const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
  const double rate = static_cast<double>(false_alarms) / static_cast<double>(trials);
  std::printf(
      "[calibration] paired ratio sign-test CI, 40 drifting rounds: coverage %.1f%%; "
      "Wilcoxon false alarms %.2f%% over %zu trials\n",
      100.0 * coverage, 100.0 * rate, trials);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.975);
  EXPECT_GE(rate, testing::sanitized ? 0.025 : 0.035);
  EXPECT_LE(rate, testing::sanitized ? 0.075 : 0.065);
}

TEST(PairedCalibration, TheSignedRankIntervalCoversAtTenRoundsAndIsNarrower) {
  // The comparison reports the Hodges–Lehmann centre with its signed-rank interval. At the
  // default 10 side-by-side rounds, with round ratios scattered 5% (what a memory-bound
  // benchmark's process pairs do on the development VM), it must still cover the true 5% change
  // about 95% of the time (exact: 95.1% nominal at 10 rounds), and be clearly narrower than the
  // sign-test interval of the median, which spans the 2nd to the 9th round.
  const std::size_t trials = testing::sanitized ? 1000 : 4000;
  const std::size_t rounds = 10;
  Draw draw(78);
  std::size_t covered = 0;
  double width_ratio = 0.0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<double> base(rounds), slower(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      const double machine = 1.0 + 0.5 * draw.uniform();
      base[r] = 100.0 * machine;
      slower[r] = 105.0 * machine * draw.lognormal(0, 0.05);
    }
    const PairedComparison change = paired_ratio(base, slower);
    const Interval& hl = change.pseudo_median_interval;
    if (hl.lower <= 1.05 && 1.05 <= hl.upper) ++covered;
    width_ratio +=
        std::log(hl.upper / hl.lower) / std::log(change.interval.upper / change.interval.lower);
  }
  const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
  const double mean_width_ratio = width_ratio / static_cast<double>(trials);
  std::printf(
      "[calibration] signed-rank interval, 10 rounds scattered 5%%: coverage %.1f%%; width "
      "%.2f× the sign-test interval's, over %zu trials\n",
      100.0 * coverage, mean_width_ratio, trials);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.97);
  EXPECT_LT(mean_width_ratio, 0.85);
}

TEST(Crossover, TheCentreIsTheMedianOfTheWalshAveragesAcrossTheTwoOrders) {
  // Eight rounds, the baseline first in the even ones; the second process of a round runs about
  // 20% faster: where the baseline ran first the candidate gains it, so the plain log ratios
  // alternate around -0.2 and +0.2.
  const std::vector<double> logs = {-0.21, 0.19, -0.18, 0.23, -0.24, 0.2, -0.19, 0.17};
  const std::vector<bool> first = {true, false, true, false, true, false, true, false};
  std::vector<double> base(logs.size(), 100.0);
  std::vector<double> candidate;
  for (const double x : logs) candidate.push_back(100.0 * std::exp(x));
  // By hand: the 16 averages (x_i + x_j)/2, i baseline-first and j not, and their median.
  std::vector<double> across;
  for (std::size_t i = 0; i < logs.size(); i += 2) {
    for (std::size_t j = 1; j < logs.size(); j += 2) across.push_back((logs[i] + logs[j]) / 2);
  }
  std::sort(across.begin(), across.end());
  const double centre = (across[7] + across[8]) / 2;
  const auto result = crossover_ratio(base, candidate, first, 0.95);
  ASSERT_TRUE(result.has_value());
  EXPECT_NEAR(std::log(result->ratio), centre, 1e-12);
  // 4 and 4 rounds: the Mann–Whitney interval at 95% is [D(1), D(16)] of the doubled averages
  // (P(U <= 0) = 1/70 <= 0.025 < P(U <= 1) = 2/70), i.e. the extreme cross averages.
  EXPECT_NEAR(std::log(result->interval.lower), across.front(), 1e-12);
  EXPECT_NEAR(std::log(result->interval.upper), across.back(), 1e-12);
  EXPECT_NEAR(result->interval.confidence, 1.0 - 2.0 / 70.0, 1e-12);
  // The second process over the first: half the shift between the two orders' log ratios.
  EXPECT_NEAR(result->order_ratio, std::exp(-0.2), 0.01);
  // The orders' log ratios separate completely: the smallest p-value 4 and 4 rounds allow.
  EXPECT_NEAR(result->order_p_value, 2.0 / 70.0, 1e-12);
  // The plain pairs see rounds scattered ±20%: an interval many times wider.
  const PairedComparison plain = paired_ratio(base, candidate, 0.95);
  EXPECT_GT(std::log(plain.pseudo_median_interval.upper / plain.pseudo_median_interval.lower),
            5 * std::log(result->interval.upper / result->interval.lower));
}

TEST(Crossover, NeedsBothOrdersAndRoundsEnoughToReachTheLevel) {
  const std::vector<double> base(6, 1.0);
  const std::vector<double> candidate = {1.1, 0.9, 1.12, 0.88, 1.09, 0.91};
  // 3 and 3 rounds reach at most 1 - 2/20 = 90%.
  EXPECT_FALSE(crossover_ratio(base, candidate, {true, false, true, false, true, false}, 0.95));
  EXPECT_TRUE(crossover_ratio(base, candidate, {true, false, true, false, true, false}, 0.9));
  EXPECT_FALSE(crossover_ratio(base, candidate, std::vector<bool>(6, true), 0.5));
  EXPECT_THROW(crossover_ratio(base, candidate, {true, false}, 0.95), std::invalid_argument);
  EXPECT_EQ(crossover_order_effect(std::vector<double>{0.1, 0.2}, {true, true}), 0.0);
}

TEST(CrossoverCalibration, TheOrderEffectCancelsAndTheIntervalCovers) {
  // Twenty rounds in alternating order, the second process of a round 15% faster, the rounds
  // scattered 3% besides, the candidate truly 2% slower: the crossover's interval must cover
  // 1.02 about 95% of the time, and its test keep its level when there is no change, however
  // large the order effect.
  const std::size_t trials = testing::sanitized ? 1000 : 3000;
  const std::size_t rounds = 20;
  Draw draw(79);
  std::size_t covered = 0;
  std::size_t false_alarms = 0;
  double width = 0.0;
  std::vector<bool> first;
  for (std::size_t r = 0; r < rounds; ++r) first.push_back(r % 2 == 0);
  const double order = std::log(0.85);
  for (std::size_t trial = 0; trial < trials; ++trial) {
    std::vector<double> base(rounds, 100.0), slower(rounds), same(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      const double second = first[r] ? order : -order;
      slower[r] = 102.0 * std::exp(second) * draw.lognormal(0, 0.03);
      same[r] = 100.0 * std::exp(second) * draw.lognormal(0, 0.03);
    }
    const auto change = crossover_ratio(base, slower, first, 0.95);
    ASSERT_TRUE(change.has_value());
    if (change->interval.lower <= 1.02 && 1.02 <= change->interval.upper) ++covered;
    width += std::log(change->interval.upper / change->interval.lower);
    if (crossover_ratio(base, same, first, 0.95)->p_value < 0.05) ++false_alarms;
  }
  const double coverage = static_cast<double>(covered) / static_cast<double>(trials);
  const double rate = static_cast<double>(false_alarms) / static_cast<double>(trials);
  std::printf(
      "[calibration] crossover of 20 rounds, the second process 15%% faster: coverage %.1f%%, "
      "mean width %.1f%%; false alarms %.2f%% over %zu trials\n",
      100.0 * coverage, 100.0 * width / static_cast<double>(trials), 100.0 * rate, trials);
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.975);
  // About the width the rounds' own 3% scatter gives 20 rounds (±2 × 3% / √20 ≈ ±1.3%), not the
  // ±15% of the order effect.
  EXPECT_LT(width / static_cast<double>(trials), 0.04);
  EXPECT_GE(rate, testing::sanitized ? 0.025 : 0.035);
  EXPECT_LE(rate, testing::sanitized ? 0.075 : 0.065);
}

}  // namespace
}  // namespace benchkit::stats
