// Rounds planned for --mde and --power (analysis/power_plan.hpp): reference values worked by
// hand from Student's t quantiles, and a seeded simulation that the planned rounds give about
// the power asked for.
#include "analysis/power_plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"

namespace benchkit::analysis {
namespace {

const auto fixed_level = [](std::size_t) { return 0.05; };

TEST(RoundsForPower, MatchesTheConditionWorkedByHand) {
  // s = 1%, mde 3% beyond ±1%: distance ln(1.03) - ln(1.01) = 0.019608, s / distance = 0.510.
  // n = 4: (t(3, .975) + t(3, .8)) 0.510 = (3.182 + 0.978) 0.510 = 2.12 > √(4 · 3/π) = 1.95;
  // n = 5: (2.776 + 0.941) 0.510 = 1.90 <= √(5 · 3/π) = 2.19.
  const auto plan = rounds_for_power(0.01, 0.03, 0.01, 0.8, fixed_level, 90);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->rounds, 5u);
  EXPECT_TRUE(plan->within_cap);
}

TEST(RoundsForPower, MoreScatterAStricterLevelOrMorePowerNeedMoreRounds) {
  const std::size_t base = rounds_for_power(0.02, 0.03, 0.01, 0.8, fixed_level, 900)->rounds;
  EXPECT_GT(rounds_for_power(0.04, 0.03, 0.01, 0.8, fixed_level, 900)->rounds, base);
  EXPECT_GT(rounds_for_power(0.02, 0.03, 0.01, 0.95, fixed_level, 900)->rounds, base);
  const auto strict = [](std::size_t) { return 0.009; };  // about a sequential look's level
  EXPECT_GT(rounds_for_power(0.02, 0.03, 0.01, 0.8, strict, 900)->rounds, base);
  // Four times the variance, fewer than four times the rounds: the t quantiles shrink as the
  // rounds grow (11 rounds, then 37).
  const std::size_t doubled = rounds_for_power(0.04, 0.03, 0.01, 0.8, fixed_level, 900)->rounds;
  EXPECT_GT(static_cast<double>(doubled) / static_cast<double>(base), 3.0);
  EXPECT_LT(static_cast<double>(doubled) / static_cast<double>(base), 4.0);
}

TEST(RoundsForPower, AChangeNotBeyondTheThresholdCannotBePlannedFor) {
  EXPECT_FALSE(rounds_for_power(0.01, 0.02, 0.02, 0.8, fixed_level, 90));
  EXPECT_FALSE(rounds_for_power(0.01, 0.01, 0.02, 0.8, fixed_level, 90));
  // No scatter at all: the fewest rounds a comparison has.
  EXPECT_EQ(rounds_for_power(0.0, 0.03, 0.01, 0.8, fixed_level, 90)->rounds, 2u);
}

TEST(RoundsForPower, BeyondTheCapSaysHowManyWouldDo) {
  const auto plan = rounds_for_power(0.05, 0.03, 0.01, 0.8, fixed_level, 20);
  ASSERT_TRUE(plan);
  EXPECT_FALSE(plan->within_cap);
  EXPECT_GT(plan->rounds, 20u);
  // The same without a cap in the way.
  EXPECT_EQ(plan->rounds, rounds_for_power(0.05, 0.03, 0.01, 0.8, fixed_level, 10000)->rounds);
}

// Paired rounds of a 5% slow-down whose round log-ratios scatter by 3%, judged as compare()
// judges them (Hodges–Lehmann centre, exact signed-rank interval, ±1% threshold, 95%): with
// the planned rounds a regression is found about `power` of the time, with two rounds fewer
// clearly less often.
double found_rate(std::size_t rounds, std::mt19937_64& rng) {
  std::normal_distribution<double> scatter(std::log(1.05), 0.03);
  CompareSettings settings;
  settings.noise_threshold = 0.01;
  constexpr int kTrials = 3000;
  int found = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> base(rounds, 100.0);
    std::vector<double> candidate;
    for (std::size_t i = 0; i < rounds; ++i) candidate.push_back(100.0 * std::exp(scatter(rng)));
    found += compare_rounds(base, candidate, settings).verdict == Verdict::regressed ? 1 : 0;
  }
  return static_cast<double>(found) / kTrials;
}

TEST(RoundsForPower, ThePlannedRoundsGiveAboutThePowerAskedFor) {
  std::mt19937_64 rng(20261204);
  for (const double power : {0.8, 0.9}) {
    const auto plan = rounds_for_power(0.03, 0.05, 0.01, power, fixed_level, 900);
    ASSERT_TRUE(plan);
    const double rate = found_rate(plan->rounds, rng);
    const double fewer = found_rate(plan->rounds - 2, rng);
    // The figures docs/verdicts.md quotes ("Planning the power").
    std::cout << "power " << power << ": " << plan->rounds << " rounds planned, found " << rate
              << "; " << plan->rounds - 2 << " rounds, found " << fewer << "\n";
    // Monte Carlo error about 0.008 at 3,000 trials; the exact interval's steps and the
    // asymptotic efficiency make the plan a little generous or a little short.
    EXPECT_GT(rate, power - 0.06) << plan->rounds << " rounds";
    EXPECT_LT(rate, power + 0.08) << plan->rounds << " rounds";
    EXPECT_LT(fewer, rate - 0.05) << plan->rounds - 2 << " rounds";
  }
}

TEST(RoundsForPower, AnUndecidedBenchmarkWithItsPlannedRoundsGetsNoMore) {
  // 12 rounds of a +1.2% change scattering by 1.2%: inconclusive against ±1% (the interval
  // straddles the threshold). A 5% mde needs fewer rounds at that spread, so it stops; a 1.5%
  // mde needs more, so it goes on.
  CompareSettings settings;
  settings.noise_threshold = 0.01;
  settings.sequential_alpha = sequential_levels(10, 90);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> scatter(std::log(1.012), 0.012);
  std::vector<double> base(12, 100.0);
  std::vector<double> candidate;
  for (std::size_t i = 0; i < base.size(); ++i) candidate.push_back(100.0 * std::exp(scatter(rng)));
  RunResult b;
  RunResult c;
  BenchmarkResult one;
  one.name = "x";
  for (std::size_t i = 0; i < base.size(); ++i) {
    Sample s;
    s.iters = 1;
    s.round = static_cast<std::uint32_t>(i);
    s.process = static_cast<std::uint32_t>(i);
    s.ns = base[i];
    one.samples.push_back(s);
  }
  b.benchmarks.push_back(one);
  for (std::size_t i = 0; i < base.size(); ++i) one.samples[i].ns = candidate[i];
  c.benchmarks.push_back(one);
  compute_estimates(b);
  compute_estimates(c);
  const Comparison without = compare(b, c, settings);
  ASSERT_EQ(without.benchmarks.front().verdict, Verdict::inconclusive)
      << without.benchmarks.front().ratio_lower << " " << without.benchmarks.front().ratio_upper;
  EXPECT_THAT(unsettled(b, c, settings), ::testing::ElementsAre("x"));

  settings.mde = 0.05;
  const Comparison with = compare(b, c, settings);
  const BenchmarkComparison& row = with.benchmarks.front();
  ASSERT_TRUE(row.planned_rounds);
  EXPECT_LE(row.planned_rounds->rounds, 12u);
  EXPECT_THAT(row.note, ::testing::HasSubstr("the planned power was reached"));
  EXPECT_TRUE(unsettled(b, c, settings).empty());

  // A change that matters of 1.5%: more rounds than 12 at this spread, so it goes on.
  settings.mde = 0.015;
  const Comparison more = compare(b, c, settings);
  ASSERT_TRUE(more.benchmarks.front().planned_rounds);
  EXPECT_GT(more.benchmarks.front().planned_rounds->rounds, 12u);
  EXPECT_THAT(more.benchmarks.front().note, ::testing::HasSubstr("was not reached"));
  EXPECT_THAT(unsettled(b, c, settings), ::testing::ElementsAre("x"));
}

// What widened a paired interval: a few rounds far off the others, or every round's scatter.
TEST(WidthDriver, AFewFarRoundsAreToldApartFromAnEvenScatter) {
  // Twenty rounds within ±0.5% and three about 40% off: the far rounds drive the width.
  std::vector<double> states;
  for (int i = 0; i < 20; ++i) states.push_back(1.0 + 0.005 * ((i % 5) - 2) / 2.0);
  states.push_back(1.4);
  states.push_back(0.7);
  states.push_back(1.45);
  const std::string far = width_driver(states);
  EXPECT_THAT(far, ::testing::HasSubstr("3 of 23 rounds lie far off the others"));
  EXPECT_THAT(far, ::testing::HasSubstr("another state"));
  EXPECT_THAT(far, ::testing::HasSubstr("more rounds outvote them"));
  // One far round is said in the singular (frozen's A/A: "1 of 25 rounds lie far off").
  states.resize(21);
  const std::string one = width_driver(states);
  EXPECT_THAT(one, ::testing::HasSubstr("1 of 21 rounds lies far off the others"));
  EXPECT_THAT(one, ::testing::HasSubstr("in that round a process ran"));
  EXPECT_THAT(one, ::testing::HasSubstr("more rounds outvote it"));

  // Rounds spread evenly from -5% to +5%: no round is far off, every round scatters.
  std::vector<double> even;
  for (int i = 0; i < 21; ++i) even.push_back(0.95 + 0.005 * i);
  const std::string scatter = width_driver(even);
  EXPECT_THAT(scatter, ::testing::HasSubstr("every round scatters"));
  EXPECT_THAT(scatter, ::testing::Not(::testing::HasSubstr("far off")));

  // Too few rounds to tell: nothing said.
  EXPECT_EQ(width_driver(std::vector<double>{1.0, 1.4, 0.9}), "");
}

}  // namespace
}  // namespace benchkit::analysis
