#include "analysis/machine_speed.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "analysis/compare.hpp"
#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "support/sample_run.hpp"

namespace benchkit::analysis {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A benchmark on a machine that switches speed: `slow[i]` says whether sample i was taken
// while the machine ran slow. Fast samples take `fast_ns` per iteration and read the reference
// loop at 2,000 ns; slow ones take `slowdown` times longer and read it at 3,200 ns (1.6×, as on
// the development VM). Both with 1% lognormal jitter.
BenchmarkResult switching(const std::string& name, double fast_ns, const std::vector<bool>& slow,
                          unsigned seed, double slowdown = 1.5, std::uint32_t process = 0) {
  BenchmarkResult result;
  result.name = name;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> jitter(0.0, 0.01);
  for (bool is_slow : slow) {
    Sample sample;
    sample.iters = 1000;
    sample.ns = 1000 * fast_ns * (is_slow ? slowdown : 1.0) * std::exp(jitter(rng));
    sample.probe_ns = (is_slow ? 3200.0 : 2000.0) * std::exp(jitter(rng));
    sample.process = process;
    result.samples.push_back(sample);
  }
  compute_estimates(result);
  return result;
}

// n samples; those with index in [from, to) slow.
std::vector<bool> slow_between(std::size_t n, std::size_t from, std::size_t to) {
  std::vector<bool> slow(n, false);
  for (std::size_t i = from; i < to && i < n; ++i) slow[i] = true;
  return slow;
}

bool has_code(const BenchmarkResult& result, const std::string& code) {
  for (const Diagnostic& d : result.diagnostics) {
    if (d.code == code) return true;
  }
  return false;
}

TEST(MachineSpeed, TheLevelIsASpeedHeldForSeveralSamplesNotOneFreakReading) {
  BenchmarkResult result;
  for (double probe : {1500.0, 2000.0, 2010.0, 2020.0, 2030.0, 2040.0, 3000.0, 3100.0}) {
    Sample sample;
    sample.probe_ns = probe;
    result.samples.push_back(sample);
  }
  ASSERT_TRUE(probe_level(result).has_value());
  EXPECT_DOUBLE_EQ(*probe_level(result), 2000.0);
  EXPECT_FALSE(probe_level(BenchmarkResult{}).has_value());
}

TEST(MachineSpeed, SamplesTakenWhileTheMachineRanSlowAreLeftOutOfTheEstimates) {
  // 40 of 100 samples slow: the median of all samples would move towards the slow state.
  const BenchmarkResult result = switching("b", 100.0, slow_between(100, 30, 70), 1);
  EXPECT_EQ(result.estimates.slow_samples, 40u);
  EXPECT_NEAR(result.estimates.median.value, 100.0, 1.0);
  EXPECT_LT(result.estimates.median.upper, 102.0);
  // The samples themselves are all kept.
  EXPECT_EQ(result.samples.size(), 100u);
}

TEST(MachineSpeed, SamplesWithoutAReadingAreAlwaysKept) {
  BenchmarkResult result;
  for (int i = 0; i < 20; ++i)
    result.samples.push_back(Sample{10, 1000.0 + i, {}, 0, {}, {}, {}, {}});
  const SteadySelection selection = steady_samples(result);
  EXPECT_EQ(selection.slow, 0u);
  EXPECT_EQ(selection.steady.samples.size(), 20u);
}

TEST(MachineSpeed, TooFewFastSamplesKeepTheSlowSpeedAsTheLevel) {
  // 3 fast samples cannot describe anything: the level is the slow speed the machine held, and
  // the 3 fast samples are simply kept with the rest (none is slow relative to it).
  const BenchmarkResult result = switching("b", 100.0, slow_between(50, 3, 50), 2);
  const SteadySelection selection = steady_samples(result);
  EXPECT_EQ(selection.slow, 0u);
  EXPECT_EQ(selection.steady.samples.size(), 50u);
}

TEST(MachineSpeed, ShapeDiagnosticsIgnoreTheMachineSwitchingSpeed) {
  // Fast, then slow for the second half: raw samples drift and have two modes. That is the
  // machine, not the benchmark.
  BenchmarkResult result = switching("b", 100.0, slow_between(100, 50, 100), 3);
  diagnose(result, ClockFacts{1.0, 0.0});
  EXPECT_FALSE(has_code(result, code::drift));
  EXPECT_FALSE(has_code(result, code::multimodal));
  EXPECT_FALSE(has_code(result, code::unstable));

  // The same times without readings (the slow half kept): the order of the samples shows a
  // phase too, one step between two stretches, which is neither a drift (the trend is tested on
  // block medians: five blocks up, five down) nor two states (the runs test sees two
  // stretches).
  BenchmarkResult blind = result;
  blind.diagnostics.clear();
  for (Sample& sample : blind.samples) sample.probe_ns.reset();
  compute_estimates(blind);
  diagnose(blind, ClockFacts{1.0, 0.0});
  EXPECT_FALSE(has_code(blind, code::drift));
  EXPECT_FALSE(has_code(blind, code::multimodal));
}

TEST(MachineSpeed, ARealDriftIsStillFoundWhileTheMachineSwitchesSpeed) {
  // The benchmark's own time grows 1% per sample (state kept between iterations); the machine
  // is slow for 20 samples in the middle. The steady samples still drift.
  BenchmarkResult result = switching("b", 100.0, slow_between(60, 20, 40), 4);
  for (std::size_t i = 0; i < result.samples.size(); ++i) {
    result.samples[i].ns *= 1.0 + 0.01 * static_cast<double>(i);
  }
  compute_estimates(result);
  diagnose(result, ClockFacts{1.0, 0.0});
  EXPECT_TRUE(has_code(result, code::drift));
}

using benchkit::testing::run_of;

TEST(MachineSpeed, TheRunWarnsOnceAndNamesBenchmarksMeasuredOnlyWhileSlow) {
  RunResult run;
  run.benchmarks.push_back(switching("mixed", 100.0, slow_between(50, 0, 20), 5));
  run.benchmarks.push_back(switching("steady", 100.0, slow_between(50, 0, 0), 6));
  // Measured entirely while the machine ran slow: its own level is the slow one.
  BenchmarkResult all_slow = switching("all_slow", 100.0, slow_between(50, 0, 50), 7);
  all_slow.diagnostics.push_back(Diagnostic{code::unstable, "warning", "spread"});
  run.benchmarks.push_back(all_slow);
  note_machine_speed(run);
  note_machine_speed(run);  // idempotent: a merge runs it again
  std::size_t warnings = 0;
  std::string message;
  for (const Diagnostic& d : run.context.warnings) {
    if (d.code == code::machine_speed) {
      ++warnings;
      message = d.message;
    }
  }
  ASSERT_EQ(warnings, 1u);
  EXPECT_THAT(message, HasSubstr("20 of 150 samples"));
  EXPECT_THAT(message, HasSubstr("1 benchmark was measured only while it ran slow (all_slow"));
  EXPECT_THAT(message, Not(HasSubstr("(steady")));
  // Its spread is the machine's: the unstable flag is withheld.
  EXPECT_FALSE(has_code(run.benchmarks[2], code::unstable));
}

TEST(MachineSpeed, ABenchmarkMostlyMeasuredWhileSlowHasItsSpreadAndModesWithheld) {
  // Fast in 15 scattered samples of 50: its steady samples are the machine's brief fast moments.
  std::vector<bool> slow(50, true);
  for (std::size_t i = 0; i < slow.size(); i += 10) slow[i] = slow[i + 3] = slow[i + 7] = false;
  BenchmarkResult mostly_slow = switching("mostly_slow", 100.0, slow, 8);
  // Fast in 30 of 50: a majority, so its flags say something about the code.
  BenchmarkResult mostly_fast = switching("mostly_fast", 100.0, slow_between(50, 30, 50), 9);
  for (BenchmarkResult* benchmark : {&mostly_slow, &mostly_fast}) {
    for (const char* flag : {code::unstable, code::multimodal, code::drift})
      benchmark->diagnostics.push_back(Diagnostic{flag, "warning", "shape"});
  }
  RunResult run = run_of({mostly_slow, mostly_fast});
  note_machine_speed(run);
  EXPECT_FALSE(has_code(run.benchmarks[0], code::unstable));
  EXPECT_FALSE(has_code(run.benchmarks[0], code::multimodal));
  EXPECT_TRUE(has_code(run.benchmarks[0], code::drift));  // read from the order, kept
  for (const char* flag : {code::unstable, code::multimodal, code::drift})
    EXPECT_TRUE(has_code(run.benchmarks[1], flag)) << flag;
  ASSERT_EQ(run.context.warnings.size(), 1u);
  const std::string& message = run.context.warnings[0].message;
  EXPECT_THAT(message, HasSubstr("1 benchmark was measured at the fast speed in fewer than half "
                                 "its samples (mostly_slow (15 of 50))"));
  EXPECT_THAT(message, Not(HasSubstr("mostly_fast (")));
}

TEST(MachineSpeed, ABenchmarkMeasuredOnlyWhileSlowIsNotNamedTwice) {
  // Its fastest level is the run's slow one, and it was slower still in most of its samples:
  // the warning names it once, as measured only while the machine ran slow.
  BenchmarkResult fast = switching("fast", 100.0, slow_between(40, 0, 0), 10);
  BenchmarkResult slow = switching("slow", 100.0, slow_between(40, 0, 0), 11);
  for (std::size_t i = 0; i < slow.samples.size(); ++i) {
    // Level 3,200 (1.6× the run's); 30 of 40 samples at 4,800.
    *slow.samples[i].probe_ns = i % 4 == 0 ? 3200.0 : 4800.0;
  }
  compute_estimates(slow);
  ASSERT_EQ(slow.estimates.slow_samples, 30u);
  RunResult run = run_of({fast, slow});
  note_machine_speed(run);
  ASSERT_EQ(run.context.warnings.size(), 1u);
  const std::string& message = run.context.warnings[0].message;
  EXPECT_THAT(message, HasSubstr("1 benchmark was measured only while it ran slow (slow"));
  EXPECT_THAT(message, Not(HasSubstr("fewer than half")));
}

TEST(MachineSpeed, NoReadingsNoWarning) {
  RunResult run;
  BenchmarkResult result;
  result.name = "imported";
  for (int i = 0; i < 20; ++i)
    result.samples.push_back(Sample{10, 1000.0 + i, {}, 0, {}, {}, {}, {}});
  compute_estimates(result);
  run.benchmarks.push_back(result);
  note_machine_speed(run);
  EXPECT_TRUE(run.context.warnings.empty());
}

const BenchmarkComparison& only(const Comparison& comparison) {
  if (comparison.benchmarks.size() != 1) throw std::runtime_error("expected one comparison");
  return comparison.benchmarks.front();
}

TEST(MachineSpeedCompare, AnUnchangedBenchmarkIsNotARegressionBecauseTheMachineSlowedDown) {
  // Same code; the new run caught the machine slow for 60% of its samples.
  const RunResult base = run_of({switching("b", 100.0, slow_between(100, 0, 0), 11)});
  const RunResult cand = run_of({switching("b", 100.0, slow_between(100, 20, 80), 12)});
  const Comparison comparison = compare(base, cand);
  const BenchmarkComparison steady = only(comparison);
  EXPECT_EQ(steady.verdict, Verdict::unchanged);
  EXPECT_EQ(steady.candidate_slow_samples, 60u);
  EXPECT_THAT(comparison.speed_note,
              HasSubstr("0 of the baseline's samples and 60 of the new run's"));
  // Reading every sample, the same files give a false regression.
  CompareSettings all;
  all.all_samples = true;
  EXPECT_EQ(only(compare(base, cand, all)).verdict, Verdict::regressed);
}

TEST(MachineSpeedCompare, ARealSlowdownIsStillFoundWhenTheMachineSwitchesSpeed) {
  const RunResult base = run_of({switching("b", 100.0, slow_between(100, 10, 50), 13)});
  const RunResult cand = run_of({switching("b", 105.0, slow_between(100, 50, 90), 14)});
  const BenchmarkComparison c = only(compare(base, cand));
  EXPECT_EQ(c.verdict, Verdict::regressed);
  EXPECT_NEAR(c.ratio, 1.05, 0.01);
}

TEST(MachineSpeedCompare, ASideMeasuredOnlyWhileSlowWidensTheInterval) {
  // The baseline ran entirely while the machine was slow (its times 1.5× too high); the new
  // run is 5% slower in truth but reads 30% faster. Without the machine's readings this is an
  // improvement; with them the interval covers the machine's part and there is no verdict.
  const RunResult base = run_of({switching("b", 100.0, slow_between(60, 0, 60), 15)});
  const RunResult cand = run_of({switching("b", 105.0, slow_between(60, 0, 0), 16)});
  const BenchmarkComparison c = only(compare(base, cand));
  EXPECT_EQ(c.verdict, Verdict::inconclusive);
  EXPECT_THAT(c.note, HasSubstr("baseline run was measured only while the machine ran slow"));
  EXPECT_LT(c.ratio_lower, 1.0 / 1.5 * 1.05);
  EXPECT_GT(c.ratio_upper, 1.05);
  CompareSettings all;
  all.all_samples = true;
  EXPECT_EQ(only(compare(base, cand, all)).verdict, Verdict::improved);
}

TEST(MachineSpeedCompare, AChangeFarBeyondTheMachinesPartIsStillAVerdict) {
  // The same slow baseline, but the new code is 10× slower: no machine speed explains that (the
  // interval is widened by 1.6^3 = 4.1 at most).
  const RunResult base = run_of({switching("b", 100.0, slow_between(60, 0, 60), 17)});
  const RunResult cand = run_of({switching("b", 1000.0, slow_between(60, 0, 0), 18)});
  EXPECT_EQ(only(compare(base, cand)).verdict, Verdict::regressed);
}

}  // namespace
}  // namespace benchkit::analysis
