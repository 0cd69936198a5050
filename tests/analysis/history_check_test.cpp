#include "analysis/history_check.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "analysis/estimates.hpp"
#include "stats/history_simulation.hpp"
#include "stats/test_data.hpp"

namespace benchkit::analysis {
namespace {

using stats::IntervalPoint;
using ::testing::HasSubstr;

// `runs` runs at `level` ns scattering `between` (log sd) from run to run, each with a 95%
// interval of ±1.96·`within`.
std::vector<IntervalPoint> history(stats::testing::Draw& draw, std::size_t runs, double level,
                                   double between, double within = 0.002) {
  std::vector<IntervalPoint> points;
  for (std::size_t i = 0; i < runs; ++i) {
    const double value = level * draw.lognormal(0.0, between);
    points.push_back({value, value * std::exp(-1.96 * within), value * std::exp(1.96 * within)});
  }
  return points;
}

// A run of one benchmark: `samples` samples of `center` ns (its run-to-run offset included by
// the caller) with lognormal noise `spread` within the run.
BenchmarkResult candidate(stats::testing::Draw& draw, const std::string& name, double center,
                          double spread = 0.01, int samples = 40) {
  BenchmarkResult result;
  result.name = name;
  for (int i = 0; i < samples; ++i) {
    Sample sample;
    sample.iters = 100;
    sample.ns = 100 * center * draw.lognormal(0.0, spread);
    result.samples.push_back(sample);
  }
  compute_estimates(result);
  return result;
}

TEST(HistoryCheck, ATenPercentSlowdownAgainstAQuietHistoryIsARegression) {
  stats::testing::Draw draw(1);
  const auto past = history(draw, 30, 100.0, 0.005);
  const auto c = check_against_history("a", past, candidate(draw, "a", 110.0));
  EXPECT_EQ(c.verdict, Verdict::regressed);
  EXPECT_NEAR(c.ratio, 1.10, 0.01);
  EXPECT_GT(c.ratio_lower, 1.02);
  EXPECT_LT(c.p_value, 0.001);
  EXPECT_NEAR(c.baseline_median, 100.0, 0.5);
  EXPECT_THAT(c.note, HasSubstr("against 30 runs of history"));
  ASSERT_TRUE(c.minimum_detectable_change.has_value());
  EXPECT_LT(*c.minimum_detectable_change, 0.03);
}

TEST(HistoryCheck, TheSameLevelIsUnchangedAndASpeedupIsAnImprovement) {
  stats::testing::Draw draw(2);
  const auto past = history(draw, 40, 100.0, 0.003);
  EXPECT_EQ(check_against_history("a", past, candidate(draw, "a", 100.0)).verdict,
            Verdict::unchanged);
  EXPECT_EQ(check_against_history("a", past, candidate(draw, "a", 90.0)).verdict,
            Verdict::improved);
}

TEST(HistoryCheck, TooLittleHistoryIsInconclusiveAndSaysHowManyRunsAreNeeded) {
  stats::testing::Draw draw(3);
  const auto past = history(draw, 3, 100.0, 0.005);
  const auto c = check_against_history("a", past, candidate(draw, "a", 150.0));
  EXPECT_EQ(c.verdict, Verdict::inconclusive);
  EXPECT_THAT(c.note, HasSubstr("3 runs of history"));
  EXPECT_THAT(c.note, HasSubstr("at least 5"));
  EXPECT_THAT(c.note, HasSubstr("record 2 more"));
}

TEST(HistoryCheck, OnlyTheRunsSinceTheLastChangePointAreTheReference) {
  stats::testing::Draw draw(4);
  auto past = history(draw, 40, 100.0, 0.004);
  const auto after = history(draw, 20, 110.0, 0.004);
  past.insert(past.end(), after.begin(), after.end());
  // The new run is at the new level: not a regression against the 20 runs since the change.
  const auto c = check_against_history("a", past, candidate(draw, "a", 110.0));
  EXPECT_NE(c.verdict, Verdict::regressed);
  EXPECT_NEAR(c.baseline_median, 110.0, 1.0);
  EXPECT_THAT(c.note, HasSubstr("against 20 runs of history since its level changed at run 41"));
  // Four runs at a new level at the end of the history are a change point (min_segment), and
  // too few to predict from.
  auto recent_jump = history(draw, 40, 100.0, 0.004);
  for (int i = 0; i < 4; ++i) recent_jump.push_back({120.0, 119.8, 120.2});
  const auto d = check_against_history("a", recent_jump, candidate(draw, "a", 120.0));
  EXPECT_EQ(d.verdict, Verdict::inconclusive);
  EXPECT_THAT(d.note, HasSubstr("4 runs of history on this machine and branch since its level "
                                "changed at run 41 of 44 (+"));
  EXPECT_THAT(d.note, HasSubstr("the check needs at least 5: record 1 more"));
}

TEST(HistoryCheck, ALongHistoryGivesAtMostTheNewest64Runs) {
  stats::testing::Draw draw(11);
  auto past = history(draw, 100, 100.0, 0.004);
  const auto later = history(draw, 200, 104.0, 0.004);
  past.insert(past.end(), later.begin(), later.end());
  // The change at run 101 is older than the window: the newest 64 runs are the reference.
  const auto c = check_against_history("a", past, candidate(draw, "a", 104.0));
  EXPECT_THAT(c.note, HasSubstr("against 64 runs of history"));
  EXPECT_THAT(c.note, ::testing::Not(HasSubstr("since")));
  EXPECT_NEAR(c.baseline_median, 104.0, 0.5);
  // A change inside the newest runs shortens it: found at its absolute place.
  const auto newest = history(draw, 30, 110.0, 0.004);
  past.insert(past.end(), newest.begin(), newest.end());
  const auto d = check_against_history("a", past, candidate(draw, "a", 110.0));
  EXPECT_THAT(d.note, HasSubstr("against 30 runs of history since its level changed at run 301 "
                                "of 330"));
}

TEST(HistoryCheck, TheCandidatesOwnIntervalWidensThePrediction) {
  stats::testing::Draw draw(5);
  const auto past = history(draw, 30, 100.0, 0.005);
  const auto precise = check_against_history("a", past, candidate(draw, "a", 100.0, 0.005, 100));
  const auto noisy = check_against_history("a", past, candidate(draw, "a", 100.0, 0.15, 12));
  EXPECT_GT(noisy.ratio_upper - noisy.ratio_lower,
            2.0 * (precise.ratio_upper - precise.ratio_lower));
}

TEST(HistoryCheck, AFailedRunIsInvalid) {
  stats::testing::Draw draw(6);
  const auto past = history(draw, 30, 100.0, 0.005);
  BenchmarkResult failed = candidate(draw, "a", 100.0);
  failed.failures.push_back("verify failed: every item read back");
  const auto c = check_against_history("a", past, failed);
  EXPECT_EQ(c.verdict, Verdict::invalid);
  EXPECT_THAT(c.note, HasSubstr("every item read back"));
}

TEST(HistoryCheck, ASuiteIsAdjustedAndListsAddedAndRemovedBenchmarks) {
  stats::testing::Draw draw(7);
  std::map<std::string, std::vector<IntervalPoint>, std::less<>> past;
  past["a"] = history(draw, 30, 100.0, 0.004);
  past["b"] = history(draw, 30, 50.0, 0.004);
  past["gone"] = history(draw, 30, 10.0, 0.004);
  RunResult run;
  run.benchmarks.push_back(candidate(draw, "b", 50.0));
  run.benchmarks.push_back(candidate(draw, "a", 108.0));
  run.benchmarks.push_back(candidate(draw, "new", 5.0));
  const Comparison c = check_against_history(past, run);
  ASSERT_EQ(c.benchmarks.size(), 4u);
  EXPECT_EQ(c.benchmarks[0].name, "a");  // regressions first
  EXPECT_EQ(c.benchmarks[0].verdict, Verdict::regressed);
  EXPECT_GE(c.benchmarks[0].p_adjusted, c.benchmarks[0].p_value);
  EXPECT_EQ(c.benchmarks[1].name, "b");
  EXPECT_EQ(c.benchmarks[1].verdict, Verdict::unchanged);
  EXPECT_EQ(c.benchmarks[2].verdict, Verdict::added);
  EXPECT_EQ(c.benchmarks[3].name, "gone");
  EXPECT_EQ(c.benchmarks[3].verdict, Verdict::removed);
  EXPECT_TRUE(c.any_regression());
  EXPECT_THAT(c.method_note, HasSubstr("prediction interval"));
}

TEST(HistoryCheck, NamesTheChangePointsAmongTheLastRuns) {
  stats::testing::Draw draw(8);
  auto past = history(draw, 50, 100.0, 0.004);
  const auto slower = history(draw, 15, 106.0, 0.004);
  past.insert(past.end(), slower.begin(), slower.end());
  const auto recent = recent_change_points(past, 20);
  ASSERT_EQ(recent.size(), 1u);
  EXPECT_EQ(recent[0].index, 50u);
  EXPECT_TRUE(recent_change_points(past, 10).empty()) << "the change is 15 runs back";
}

// The gate's false-alarm rate on A/A and its power on a 5% regression, with the run-to-run noise
// of real benchkit runs (tests/fixtures/stats/history_noise.csv) scaled to 1%: the history is 30
// runs of one benchmark; the candidate is one more run of it, its samples drawn around that run's
// median with the spread its interval implies. bench/stats/change_points_study runs more trials.
TEST(HistoryCheckSimulation, FalseAlarmsOnAAAndPowerOnAFivePercentRegression) {
  // The real runs' noise scaled to 1% from run to run (history_simulation.hpp).
  const auto pools = stats::simulation::rescaled(
      stats::simulation::load_noise(std::string(BENCHKIT_TEST_FIXTURES) +
                                    "/stats/history_noise.csv"),
      0.01);
  const std::size_t trials = stats::testing::sanitized ? 40 : 400;
  stats::Xoshiro256 generator(9);
  stats::testing::Draw draw(10);
  std::size_t false_alarms = 0, detected = 0, quiet_trials = 0;
  for (std::size_t t = 0; t < trials; ++t) {
    const auto& pool = pools[t % pools.size()];
    const auto past = stats::simulation::make_series(pool, 30, {}, generator);
    const auto next = stats::simulation::make_series(pool, 1, {}, generator)[0];
    const double spread =
        (std::log(next.upper) - std::log(next.lower)) / (2 * 1.96) * std::sqrt(40.0) / 1.25;
    const auto same = check_against_history("a", past, candidate(draw, "a", next.value, spread));
    const auto slower =
        check_against_history("a", past, candidate(draw, "a", next.value * 1.05, spread));
    if (same.verdict == Verdict::regressed) ++false_alarms;
    ++quiet_trials;
    if (slower.verdict == Verdict::regressed) ++detected;
  }
  const double alarm_rate = double(false_alarms) / double(trials);
  const double power = quiet_trials ? double(detected) / double(quiet_trials) : 0.0;
  std::printf(
      "gate: A/A false alarms %zu of %zu (%.1f%%); 5%% regression found in %zu of %zu "
      "trials (%.1f%%)\n",
      false_alarms, trials, 100 * alarm_rate, detected, quiet_trials, 100 * power);
  EXPECT_LE(alarm_rate, 0.025);
  EXPECT_GE(power, 0.8);
}

}  // namespace
}  // namespace benchkit::analysis
