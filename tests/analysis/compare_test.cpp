#include "analysis/compare.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "analysis/estimates.hpp"
#include "model/merge.hpp"
#include "stats/test_data.hpp"
#include "support/sample_run.hpp"

namespace benchkit::analysis {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A benchmark whose per-iteration times are `center` ns with lognormal noise of `spread`.
// A micro benchmark as a bench binary measures it: each sample with a reading of the machine's
// speed (a steady machine: the same reading throughout).
BenchmarkResult benchmark(const std::string& name, double center, double spread, int samples,
                          unsigned seed, std::uint32_t process = 0) {
  BenchmarkResult result;
  result.name = name;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, spread);
  for (int i = 0; i < samples; ++i) {
    Sample sample;
    sample.iters = 100;
    sample.ns = 100 * center * std::exp(noise(rng));
    sample.process = process;
    sample.probe_ns = 700.0;
    result.samples.push_back(sample);
  }
  compute_estimates(result);
  return result;
}

using benchkit::testing::run_of;

const BenchmarkComparison& find(const Comparison& comparison, const std::string& name) {
  for (const auto& c : comparison.benchmarks) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no comparison named " + name);
}

TEST(Compare, ATenPercentSlowdownIsARegression) {
  const Comparison c = compare(run_of({benchmark("a", 100, 0.01, 50, 1)}),
                               run_of({benchmark("a", 110, 0.01, 50, 2)}));
  const auto& a = find(c, "a");
  EXPECT_EQ(a.verdict, Verdict::regressed);
  EXPECT_NEAR(a.ratio, 1.10, 0.01);
  EXPECT_GT(a.ratio_lower, 1.02);
  EXPECT_LT(a.p_adjusted, 0.05);
  EXPECT_TRUE(c.any_regression());
  EXPECT_EQ(a.design, Design::independent);
}

// Two revisions of a real suite named every benchmark anew (snappy's BM_UFlat/0 became
// BM_UFlat/0/1): every row is added or removed, and the comparison says nothing was compared.
TEST(Compare, RunsWithNoNameInCommonSayNothingWasCompared) {
  const Comparison renamed = compare(run_of({benchmark("BM_UFlat/0", 100, 0.01, 20, 1),
                                             benchmark("BM_UFlat/1", 100, 0.01, 20, 2)}),
                                     run_of({benchmark("BM_UFlat/0/1", 100, 0.01, 20, 3)}));
  EXPECT_THAT(renamed.design_warning,
              HasSubstr("no benchmark has the same name in both runs (2 only in the baseline, "
                        "e.g. BM_UFlat/0; 1 only in the new one, e.g. BM_UFlat/0/1), so nothing "
                        "was compared"));
  // One name in common: an ordinary comparison with benchmarks added and removed.
  const Comparison shared =
      compare(run_of({benchmark("a", 100, 0.01, 20, 1), benchmark("b", 100, 0.01, 20, 2)}),
              run_of({benchmark("a", 100, 0.01, 20, 3), benchmark("c", 100, 0.01, 20, 4)}));
  EXPECT_THAT(shared.design_warning, Not(HasSubstr("no benchmark has the same name")));
  // Only added (a first run against an empty baseline): nothing to say about names.
  const Comparison first = compare(run_of({}), run_of({benchmark("a", 100, 0.01, 20, 3)}));
  EXPECT_THAT(first.design_warning, Not(HasSubstr("no benchmark has the same name")));
}

TEST(Compare, ATenPercentSpeedupIsAnImprovement) {
  const Comparison c = compare(run_of({benchmark("a", 100, 0.01, 50, 1)}),
                               run_of({benchmark("a", 90, 0.01, 50, 2)}));
  EXPECT_EQ(find(c, "a").verdict, Verdict::improved);
  EXPECT_FALSE(c.any_regression());
}

TEST(Compare, ASmallSignificantChangeInsideTheThresholdIsUnchanged) {
  const Comparison c = compare(run_of({benchmark("a", 100, 0.002, 200, 1)}),
                               run_of({benchmark("a", 100.8, 0.002, 200, 2)}));
  const auto& a = find(c, "a");
  EXPECT_LT(a.p_adjusted, 0.05) << "the change is real";
  EXPECT_EQ(a.verdict, Verdict::unchanged) << "but smaller than the noise threshold";
}

// Twenty rounds scattering 1%, three of them 40% off (a process in another state): the change
// it could detect follows the rounds' bulk, as the signed-rank interval does, not the standard
// deviation the three inflate (183% beside an interval of ±15% before).
TEST(Compare, TheDetectableChangeOfPairedRoundsIsNotInflatedByAFewFarOff) {
  BenchmarkResult base;
  BenchmarkResult cand;
  base.name = cand.name = "tails";
  static const double kScatter[] = {0.01,   -0.008, 0.004, -0.012, 0.006,  -0.003, 0.009,
                                    -0.006, 0.002,  -0.01, 0.007,  -0.001, 0.011,  -0.004,
                                    0.005,  -0.009, 0.003, 0.4,    -0.4,   0.45};
  for (std::uint32_t round = 0; round < 20; ++round) {
    Sample sample;
    sample.ns = 100.0;
    sample.round = round;
    sample.process = round;
    base.samples.push_back(sample);
    sample.ns *= std::exp(kScatter[round]);
    cand.samples.push_back(sample);
  }
  compute_estimates(base);
  compute_estimates(cand);
  const Comparison c = compare(run_of({base}), run_of({cand}));
  const auto& tails = find(c, "tails");
  ASSERT_EQ(tails.design, Design::paired);
  ASSERT_TRUE(tails.minimum_detectable_change.has_value());
  const double half_width = 0.5 * (tails.ratio_upper - tails.ratio_lower);
  EXPECT_LT(*tails.minimum_detectable_change, 3.0 * half_width)
      << *tails.minimum_detectable_change << " beside a half-width of " << half_width;
  EXPECT_LT(*tails.minimum_detectable_change, 0.05);
}

// ... nor smaller than the interval shown: cctz's BM_PrevWeekday, an A/A comparison of 23 rounds
// within 1% but for four far off (0.633, 0.647, 1.568, 1.637), read +0.0% [-1.8%, +7.0%] beside
// "could detect changes of about 0.9%" and "the change is close to it".
TEST(Compare, TheDetectableChangeOfPairedRoundsIsNoSmallerThanTheirInterval) {
  BenchmarkResult base;
  BenchmarkResult cand;
  base.name = cand.name = "weekday";
  // Its 23 round ratios as the comparison's JSON kept them.
  const std::vector<double> ratios = {0.6328, 0.9984, 1.0109, 0.9903, 0.9899, 1.0038,
                                      0.9972, 1.0040, 0.9681, 1.0092, 1.6365, 0.9958,
                                      1.0008, 0.9908, 1.0019, 1.5676, 0.6475, 0.9889,
                                      1.0477, 1.1399, 0.9884, 1.0115, 1.0034};
  for (std::uint32_t round = 0; round < ratios.size(); ++round) {
    Sample sample;
    sample.ns = 100.0;
    sample.round = round;
    sample.process = round;
    base.samples.push_back(sample);
    sample.ns *= ratios[round];
    cand.samples.push_back(sample);
  }
  compute_estimates(base);
  compute_estimates(cand);
  // Read at a strict level, as a sequential look reads it (the interval above was its look's).
  CompareSettings strict;
  strict.confidence = 0.999;
  strict.alpha = 0.001;
  const Comparison c = compare(run_of({base}), run_of({cand}), strict);
  const auto& weekday = find(c, "weekday");
  ASSERT_EQ(weekday.design, Design::paired);
  ASSERT_TRUE(weekday.minimum_detectable_change.has_value());
  const double half_width = 0.5 * (weekday.ratio_upper - weekday.ratio_lower);
  EXPECT_GE(*weekday.minimum_detectable_change, half_width)
      << "[" << weekday.ratio_lower << ", " << weekday.ratio_upper << "]";
  ASSERT_EQ(weekday.verdict, Verdict::inconclusive)
      << "[" << weekday.ratio_lower << ", " << weekday.ratio_upper << "]";
  EXPECT_THAT(weekday.note, Not(HasSubstr("the change is close to it")));
  EXPECT_THAT(weekday.note, HasSubstr("rounds lie far off the others")) << weekday.note;
  // The same rounds of a name several benchmarks share: their pooled samples, not a process
  // state, put each round's median where it lands.
  cand.diagnostics.push_back(Diagnostic{model::kDuplicateName, "warning", "2 benchmarks ..."});
  const Comparison pooled = compare(run_of({base}), run_of({cand}), strict);
  const std::string& note = find(pooled, "weekday").note;
  EXPECT_THAT(note, HasSubstr("the interval is wide because several benchmarks of the suite share "
                              "the name"));
  EXPECT_THAT(note, Not(HasSubstr("far off")));
}

TEST(Compare, NoisyDataIsInconclusiveAndSaysWhatCouldBeDetected) {
  const Comparison c =
      compare(run_of({benchmark("a", 100, 0.2, 30, 1)}), run_of({benchmark("a", 104, 0.2, 30, 2)}));
  const auto& a = find(c, "a");
  EXPECT_EQ(a.verdict, Verdict::inconclusive);
  ASSERT_TRUE(a.minimum_detectable_change.has_value());
  EXPECT_GT(*a.minimum_detectable_change, 0.05);
  EXPECT_THAT(a.note, HasSubstr("could detect changes of about"));
  EXPECT_THAT(a.note, HasSubstr("--time-budget"));
}

TEST(Compare, AScenarioPhaseIsToldToRunMoreTimesNotToSampleLonger) {
  BenchmarkResult base = benchmark("load", 100, 0.2, 30, 1);
  BenchmarkResult cand = benchmark("load", 104, 0.2, 30, 2);
  base.kind = cand.kind = "scenario";
  const Comparison noisy = compare(run_of({base}), run_of({cand}));
  const auto& a = find(noisy, "load");
  EXPECT_EQ(a.verdict, Verdict::inconclusive);
  EXPECT_THAT(a.note, HasSubstr("--repetitions"));
  EXPECT_THAT(a.note, Not(HasSubstr("--time-budget")));

  base.samples.resize(1);
  cand.samples.resize(1);
  compute_estimates(base);
  compute_estimates(cand);
  const Comparison single = compare(run_of({base}), run_of({cand}));
  EXPECT_THAT(find(single, "load").note,
              HasSubstr("fewer than 2 samples on a side: no test is possible (a scenario runs "
                        "once per process: add --repetitions 5 or --processes 5)"));
}

TEST(Compare, TheNoiseThresholdIsASetting) {
  CompareSettings wide;
  wide.noise_threshold = 0.2;
  const Comparison c = compare(run_of({benchmark("a", 100, 0.01, 50, 1)}),
                               run_of({benchmark("a", 110, 0.01, 50, 2)}), wide);
  EXPECT_EQ(find(c, "a").verdict, Verdict::unchanged);
}

TEST(Compare, BenchmarksInOneRunOnlyAreAddedOrRemoved) {
  const Comparison c = compare(run_of({benchmark("old", 100, 0.01, 30, 1)}),
                               run_of({benchmark("new", 100, 0.01, 30, 2)}));
  EXPECT_EQ(find(c, "old").verdict, Verdict::removed);
  EXPECT_EQ(find(c, "new").verdict, Verdict::added);
}

TEST(Compare, AResultThatFailedItsChecksIsInvalidAndTakesNoPartInTheAdjustment) {
  BenchmarkResult failed = benchmark("scan/load", 150, 0.01, 30, 2);
  failed.failures = {"verify failed after phase load: every item read back in order"};
  const Comparison c =
      compare(run_of({benchmark("scan/load", 100, 0.01, 30, 1), benchmark("b", 100, 0.01, 30, 3)}),
              run_of({failed, benchmark("b", 100, 0.01, 30, 4)}));
  const auto& load = find(c, "scan/load");
  EXPECT_EQ(load.verdict, Verdict::invalid);
  EXPECT_THAT(load.note, HasSubstr("new run failed its checks"));
  EXPECT_THAT(load.note, HasSubstr("every item read back"));
  EXPECT_FALSE(c.any_regression());  // 50% slower, but the run is not valid
  EXPECT_EQ(c.count(Verdict::invalid), 1u);
  // Only "b" was tested: its adjusted p-value is its raw one (one test in the family).
  EXPECT_DOUBLE_EQ(find(c, "b").p_adjusted, find(c, "b").p_value);
}

TEST(Compare, PValuesAreAdjustedAcrossTheSuiteAndRegressionsComeFirst) {
  const Comparison c =
      compare(run_of({benchmark("a", 100, 0.05, 30, 1), benchmark("z", 100, 0.01, 50, 3)}),
              run_of({benchmark("a", 100, 0.05, 30, 2), benchmark("z", 120, 0.01, 50, 4)}));
  ASSERT_EQ(c.benchmarks.size(), 2u);
  EXPECT_EQ(c.benchmarks[0].name, "z");
  EXPECT_EQ(c.benchmarks[0].verdict, Verdict::regressed);
  for (const auto& b : c.benchmarks) EXPECT_GE(b.p_adjusted, b.p_value);
}

TEST(Compare, ThroughputChangeIsReportedAndTheVerdictFollowsTime) {
  BenchmarkResult base = benchmark("io", 100, 0.01, 50, 1);
  BenchmarkResult slower = benchmark("io", 110, 0.01, 50, 2);
  base.bytes_per_iteration = slower.bytes_per_iteration = 1000;
  compute_estimates(base);
  compute_estimates(slower);
  const Comparison comparison = compare(run_of({base}), run_of({slower}));
  const auto& io = find(comparison, "io");
  EXPECT_EQ(io.verdict, Verdict::regressed);
  ASSERT_TRUE(io.throughput_change.has_value());
  EXPECT_NEAR(*io.throughput_change, 1.0 / 1.10 - 1.0, 0.01);
}

TEST(Compare, SeveralProcessesMakeTheProcessTheUnit) {
  // Three processes a side whose medians differ by ±5%: per-sample statistics would call a
  // 3% difference certain; per-process statistics must not.
  auto side = [](double center, unsigned seed) {
    BenchmarkResult result;
    result.name = "p";
    const double offsets[] = {0.95, 1.0, 1.05};
    for (std::uint32_t p = 0; p < 3; ++p) {
      const auto part = benchmark("p", center * offsets[p], 0.002, 40, seed + p, p);
      result.samples.insert(result.samples.end(), part.samples.begin(), part.samples.end());
    }
    compute_estimates(result);
    return result;
  };
  const Comparison comparison = compare(run_of({side(100, 1)}), run_of({side(103, 10)}));
  const auto& p = find(comparison, "p");
  EXPECT_EQ(p.design, Design::processes);
  EXPECT_NE(p.verdict, Verdict::regressed);
  EXPECT_GT(p.ratio_upper - p.ratio_lower, 0.04) << "the interval reflects process spread";
  // Undecided, it asks for more processes or a comparison side by side, not a longer budget,
  // which narrows none of what differs between processes.
  ASSERT_EQ(p.verdict, Verdict::inconclusive);
  EXPECT_THAT(p.note, HasSubstr("run more processes (--processes)"));
  EXPECT_THAT(p.note, HasSubstr("benchkit compare OLD NEW"));
  EXPECT_THAT(p.note, Not(HasSubstr("--time-budget")));
}

TEST(Compare, OneSideInOneProcessBorrowsTheOtherSidesProcessSpread) {
  BenchmarkResult base;
  base.name = "m";
  const double offsets[] = {0.99, 1.0, 1.01};
  for (std::uint32_t p = 0; p < 3; ++p) {
    const auto part = benchmark("m", 100 * offsets[p], 0.002, 30, 20 + p, p);
    base.samples.insert(base.samples.end(), part.samples.begin(), part.samples.end());
  }
  compute_estimates(base);
  const Comparison much_slower =
      compare(run_of({base}), run_of({benchmark("m", 130, 0.002, 30, 9)}));
  EXPECT_EQ(much_slower.benchmarks[0].design, Design::processes);
  EXPECT_EQ(much_slower.benchmarks[0].verdict, Verdict::regressed);
  EXPECT_THAT(much_slower.benchmarks[0].note, HasSubstr("single process"));
  const Comparison same = compare(run_of({base}), run_of({benchmark("m", 100, 0.002, 30, 9)}));
  EXPECT_NE(same.benchmarks[0].verdict, Verdict::regressed);
  EXPECT_NE(same.benchmarks[0].verdict, Verdict::improved);
}

// Two runs of several processes made apart, with no reading of the machine's speed (a Google
// Benchmark binary's processes, run by `benchkit run`): a 30% slowdown keeps its ratio and
// interval but gets no verdict, and the suite says why and what gives one. With readings (a
// bench binary's run), the same samples are judged.
TEST(Compare, ProcessesOfRunsMadeApartWithoutTheMachinesSpeedGetNoVerdict) {
  auto side = [](double center, unsigned seed, bool speed) {
    BenchmarkResult result;
    result.name = "BM_UFlat/2/1";
    for (std::uint32_t p = 0; p < 5; ++p) {
      auto part = benchmark(result.name, center * (1.0 + 0.01 * p), 0.002, 20, seed + p, p);
      for (Sample& sample : part.samples) {
        if (!speed) sample.probe_ns.reset();
        result.samples.push_back(sample);
      }
    }
    compute_estimates(result);
    return result;
  };
  const Comparison apart = compare(run_of({side(100, 1, false)}), run_of({side(130, 9, false)}));
  const auto& row = apart.benchmarks.at(0);
  EXPECT_EQ(row.design, Design::processes);
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_FALSE(row.tested);
  EXPECT_NEAR(row.ratio, 1.30, 0.02);
  EXPECT_GT(row.ratio_lower, 1.2);
  EXPECT_THAT(row.note, HasSubstr("neither read the machine's speed"));
  EXPECT_THAT(row.note, HasSubstr("benchkit compare OLD_BINARY NEW_BINARY"));
  EXPECT_THAT(apart.design_warning, HasSubstr("no verdict is given"));
  EXPECT_FALSE(apart.any_regression());
  const Comparison read = compare(run_of({side(100, 1, true)}), run_of({side(130, 9, true)}));
  EXPECT_EQ(read.benchmarks.at(0).verdict, Verdict::regressed);
  EXPECT_EQ(read.design_warning, "");
  // --all-samples asks for the comparison without the speed cut, and gets its verdict.
  CompareSettings all;
  all.all_samples = true;
  EXPECT_EQ(compare(run_of({side(100, 1, false)}), run_of({side(130, 9, false)}), all)
                .benchmarks.at(0)
                .verdict,
            Verdict::regressed);
}

TEST(Compare, SingleProcessRunsCarryAWarning) {
  const Comparison c = compare(run_of({benchmark("a", 100, 0.01, 50, 1)}),
                               run_of({benchmark("a", 100, 0.01, 50, 2)}));
  EXPECT_THAT(c.design_warning, HasSubstr("--processes 3"));
}

TEST(Compare, RepetitionsOfOneProcessGiveNoVerdictAndPointToTheBinaries) {
  // Two Google Benchmark files: each one process, its repetitions the samples. A 10% change that
  // the test would call significant is not judged, and the advice names no benchkit-only flag.
  RunResult base = run_of({benchmark("a", 100, 0.01, 10, 1)});
  RunResult cand = run_of({benchmark("a", 110, 0.01, 10, 2)});
  base.context.warnings.push_back({model::kOneProcessRepetitions, "info", "one process"});
  cand.context.warnings.push_back({model::kOneProcessRepetitions, "info", "one process"});
  const Comparison c = compare(base, cand);
  const auto& a = find(c, "a");
  EXPECT_EQ(a.verdict, Verdict::inconclusive);
  EXPECT_NEAR(a.ratio, 1.10, 0.01);
  EXPECT_EQ(a.ratio_lower, a.ratio);
  EXPECT_EQ(a.ratio_upper, a.ratio);
  EXPECT_THAT(a.note, HasSubstr("benchkit compare OLD_BINARY NEW_BINARY"));
  EXPECT_THAT(c.design_warning, HasSubstr("not independent runs"));
  for (const std::string& text : {a.note, c.design_warning}) {
    EXPECT_THAT(text, Not(HasSubstr("--processes")));
    EXPECT_THAT(text, Not(HasSubstr("--time-budget")));
  }
}

TEST(Compare, InterleavedRoundsArePaired) {
  // Drift common to both sides (each round slower than the last) cancels in paired ratios.
  auto side = [](double factor) {
    BenchmarkResult result;
    result.name = "r";
    for (std::uint32_t round = 0; round < 12; ++round) {
      Sample sample;
      sample.iters = 1;
      sample.ns = factor * 100.0 * (1.0 + 0.05 * round) * (1.0 + 0.001 * (round % 3));
      sample.round = round;
      result.samples.push_back(sample);
    }
    compute_estimates(result);
    return result;
  };
  const Comparison comparison = compare(run_of({side(1.0)}), run_of({side(1.10)}));
  const auto& r = find(comparison, "r");
  EXPECT_EQ(r.design, Design::paired);
  EXPECT_NEAR(r.ratio, 1.10, 1e-9);
  EXPECT_EQ(r.verdict, Verdict::regressed);
}

// Samples taken in turns (a side-by-side comparison): in every round the machine switches from
// fast (100 ns) to slow (180 ns) near the middle of the round, and the slow samples carry slow
// probe readings. Sample k of both sides shares the machine's state, except the pair taken
// across the switch: the candidate's sample comes after the baseline's, so its switch comes one
// sample earlier. Then a ratio of the two sides' medians is 1.0, 1.29 or 1.4 in turn (a median
// falls on either side of the switch), and the median of the pairs' ratios is the true one.
BenchmarkResult turns(double factor, bool with_probe, bool candidate) {
  BenchmarkResult result;
  result.name = "t";
  for (std::uint32_t round = 0; round < 12; ++round) {
    const std::size_t switch_at = 19 + round % 3 - (candidate ? 1 : 0);  // of 40 samples
    for (std::size_t k = 0; k < 40; ++k) {
      const bool slow = k >= switch_at;
      Sample sample;
      sample.iters = 1;
      // A little noise of its own per sample, the same pattern on both sides.
      sample.ns = factor * (slow ? 180.0 : 100.0) * (1.0 + 0.002 * static_cast<double>(k % 5));
      if (with_probe) sample.probe_ns = slow ? 3000.0 : 2000.0;
      sample.round = round;
      sample.process = round;
      result.samples.push_back(sample);
    }
  }
  compute_estimates(result);
  return result;
}

TEST(Compare, ThroughputChangeAgreesWithThePairedRatio) {
  // The medians of the two sides fall on different sides of the machine's switch (1.0, 1.29
  // or 1.4 as a ratio), while the paired ratio is 1.10: the throughput follows the row's ratio,
  // not the medians.
  BenchmarkResult base = turns(1.0, false, false);
  BenchmarkResult cand = turns(1.10, false, true);
  base.bytes_per_iteration = cand.bytes_per_iteration = 4096;
  compute_estimates(base);
  compute_estimates(cand);
  const Comparison once = compare(run_of({base}), run_of({cand}));
  const auto& t = find(once, "t");
  EXPECT_EQ(t.design, Design::paired);
  ASSERT_TRUE(t.throughput_change.has_value());
  EXPECT_NEAR(*t.throughput_change, 1.0 / t.ratio - 1.0, 1e-12);
  // Twice the work per iteration in the new build at 1.10x the time: throughput +82%.
  cand.bytes_per_iteration = 8192;
  compute_estimates(cand);
  const Comparison twice = compare(run_of({base}), run_of({cand}));
  const auto& doubled = find(twice, "t");
  EXPECT_NEAR(*doubled.throughput_change, 2.0 / doubled.ratio - 1.0, 1e-9);
}

TEST(Compare, SamplesTakenInTurnsArePairedWithinTheirRound) {
  for (const bool with_probe : {false, true}) {
    const Comparison same =
        compare(run_of({turns(1.0, with_probe, false)}), run_of({turns(1.0, with_probe, true)}));
    const auto& a = find(same, "t");
    EXPECT_EQ(a.design, Design::paired);
    EXPECT_NEAR(a.ratio, 1.0, 1e-9);
    EXPECT_EQ(a.verdict, Verdict::unchanged) << "with probe readings: " << with_probe;
    // Paired rounds share the machine's state: no sample is left out as slow.
    EXPECT_EQ(a.baseline_slow_samples, 0u);
    EXPECT_EQ(a.candidate_slow_samples, 0u);

    const Comparison slower =
        compare(run_of({turns(1.0, with_probe, false)}), run_of({turns(1.05, with_probe, true)}));
    const auto& b = find(slower, "t");
    EXPECT_NEAR(b.ratio, 1.05, 1e-9);
    EXPECT_NEAR(b.ratio_lower, 1.05, 1e-9);
    EXPECT_EQ(b.verdict, Verdict::regressed);
    // The medians shown agree with the change: the new one is the baseline's times the paired
    // change, not the candidate's own median.
    EXPECT_NEAR(b.candidate_median / b.baseline_median, b.ratio, 1e-12);
  }
}

// How the two sides of a round were placed (Sample::turn): not recorded, one after the other
// with the baseline first in even rounds, or both at place 0.
enum class Turns { none, alternating, same };

// Paired rounds whose candidate/baseline log ratios are `log_ratios`, 3 samples a side each.
std::pair<RunResult, RunResult> rounds_with(const std::string& name,
                                            const std::vector<double>& log_ratios,
                                            Turns turns = Turns::none) {
  BenchmarkResult base;
  BenchmarkResult cand;
  base.name = cand.name = name;
  for (std::uint32_t round = 0; round < log_ratios.size(); ++round) {
    for (int k = 0; k < 3; ++k) {
      Sample sample;
      sample.ns = 100.0 * (1.0 + 0.01 * k);
      sample.round = round;
      if (turns != Turns::none) sample.turn = turns == Turns::same ? 0 : round % 2;
      base.samples.push_back(sample);
      sample.ns *= std::exp(log_ratios[round]);
      if (turns != Turns::none) sample.turn = turns == Turns::same ? 0 : 1 - round % 2;
      cand.samples.push_back(sample);
    }
  }
  compute_estimates(base);
  compute_estimates(cand);
  return {run_of({base}), run_of({cand})};
}

TEST(Compare, AnInconclusivePairedComparisonAsksForMoreRounds) {
  // Rounds whose ratios swing between -5% and +6%: the interval covers the threshold on both
  // sides, and what would sharpen it is more process pairs, not a longer budget.
  std::vector<double> swings;
  for (int round = 0; round < 12; ++round) swings.push_back(std::log(round % 2 == 0 ? 0.95 : 1.06));
  const auto [base, cand] = rounds_with("p", swings);
  const Comparison c = compare(base, cand);
  const auto& p = find(c, "p");
  EXPECT_EQ(p.design, Design::paired);
  EXPECT_EQ(p.verdict, Verdict::inconclusive);
  EXPECT_THAT(p.note, HasSubstr("--rounds"));
  EXPECT_THAT(p.note, Not(HasSubstr("--time-budget")));
}

TEST(Compare, TwoSessionsOfWholeCommandsAskForRunsNotForProcesses) {
  // Two hyperfine exports: every run a process of its own, each side one session. Spread 10%, 10
  // runs a side: undecided, and neither the suite's note nor the row's advice asks for
  // --processes, which every run already was.
  BenchmarkResult base = benchmark("./tool input", 100, 0.10, 10, 3);
  BenchmarkResult cand = benchmark("./tool input", 101, 0.10, 10, 4);
  base.kind = cand.kind = "command";
  const Comparison c = compare(run_of({base}), run_of({cand}));
  const auto& row = find(c, "./tool input");
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_TRUE(row.command);
  EXPECT_THAT(row.note, HasSubstr("run the commands more times (--runs)"));
  EXPECT_THAT(row.note, Not(HasSubstr("--processes")));
  EXPECT_THAT(c.design_warning, HasSubstr("each side is one session of runs of the commands"));
  EXPECT_THAT(c.design_warning, Not(HasSubstr("single process")));
  // Micro benchmarks of one process a side keep the advice of processes.
  const Comparison micro = compare(run_of({benchmark("m", 100, 0.10, 10, 3)}),
                                   run_of({benchmark("m", 101, 0.10, 10, 4)}));
  EXPECT_THAT(micro.design_warning, HasSubstr("each side ran in a single process"));
}

TEST(Compare, OneSampleASideIsNoVerdict) {
  // Two hyperfine exports of one run each: the interval would read [r, r], within any threshold.
  BenchmarkResult base = benchmark("whoami", 100, 0.01, 1, 5);
  BenchmarkResult cand = benchmark("whoami", 100, 0.01, 1, 6);
  base.kind = cand.kind = "command";
  const Comparison c = compare(run_of({base}), run_of({cand}));
  const auto& row = find(c, "whoami");
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_FALSE(row.tested);
  EXPECT_THAT(row.note, HasSubstr("fewer than 2 samples on a side"));
  EXPECT_THAT(row.note, HasSubstr("--runs 10"));
}

TEST(Compare, AMedianTimeOfZeroIsNoRatioToTest) {
  // hyperfine read 0 s for a command faster than its shell's noise.
  BenchmarkResult base = benchmark("fast", 100, 0.01, 3, 7);
  for (Sample& s : base.samples) s.ns = 0.0;
  compute_estimates(base);
  BenchmarkResult cand = benchmark("fast", 100, 0.01, 3, 8);
  base.kind = cand.kind = "command";
  const Comparison c = compare(run_of({base}), run_of({cand}));
  const auto& row = find(c, "fast");
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_FALSE(row.tested);
  EXPECT_THAT(row.note, HasSubstr("the baseline's median time is 0"));
}

TEST(Compare, RoundsTooFewToPairGiveNoVerdictAndAskForRounds) {
  // Three rounds of a side-by-side comparison (--rounds 3, or Ctrl-C in the fourth), each round
  // a fresh process a side, swinging by ±5%: compared as processes for the ratio and interval,
  // no verdict, and the advice is the rounds that would pair them.
  BenchmarkResult base;
  BenchmarkResult cand;
  base.name = cand.name = "few";
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (int k = 0; k < 3; ++k) {
      Sample sample;
      sample.ns = 100.0 * (1.0 + 0.01 * k);
      sample.round = round;
      sample.process = round;
      base.samples.push_back(sample);
      sample.ns *= round == 1 ? 0.95 : 1.05;
      cand.samples.push_back(sample);
    }
  }
  compute_estimates(base);
  compute_estimates(cand);
  const Comparison c = compare(run_of({base}), run_of({cand}));
  const auto& few = find(c, "few");
  EXPECT_EQ(few.design, Design::processes);
  EXPECT_EQ(few.pairs, 3u);
  EXPECT_EQ(few.verdict, Verdict::inconclusive);
  EXPECT_FALSE(few.tested);
  EXPECT_LT(few.ratio_lower, few.ratio_upper) << "the processes' interval is kept";
  EXPECT_THAT(few.note, HasSubstr("3 rounds of the side-by-side comparison, fewer than the 6 a "
                                  "verdict needs"));
  EXPECT_THAT(few.note, HasSubstr("run at least 6 rounds"));
  EXPECT_THAT(few.note, Not(HasSubstr("side by side")));

  // One round: one process a side, its twenty samples a 30% slower build's, tightly spread. A
  // test of them as independent samples called such rows regressed in A/A comparisons (they
  // share one process's state): no verdict, no interval.
  BenchmarkResult one_base;
  BenchmarkResult one_cand;
  one_base.name = one_cand.name = "one";
  for (int k = 0; k < 20; ++k) {
    Sample sample;
    sample.ns = 100.0 * (1.0 + 0.001 * k);
    sample.round = 0;
    sample.process = 0;
    one_base.samples.push_back(sample);
    sample.ns *= 1.3;
    one_cand.samples.push_back(sample);
  }
  compute_estimates(one_base);
  compute_estimates(one_cand);
  const Comparison single = compare(run_of({one_base}), run_of({one_cand}));
  const auto& one = find(single, "one");
  EXPECT_EQ(one.verdict, Verdict::inconclusive);
  EXPECT_FALSE(one.tested);
  EXPECT_NEAR(one.ratio, 1.3, 1e-9);
  EXPECT_EQ(one.ratio_lower, one.ratio_upper);
  EXPECT_THAT(one.note, HasSubstr("1 round of the side-by-side comparison"));
  EXPECT_THAT(one.note, HasSubstr("one process a side"));
}

// Rounds whose second process runs `second` times as long as the first (0.8: 20% faster, as a
// Google Benchmark binary's rows did, docs/interop.md), with `scatter` of round-to-round noise
// besides, and `change`.
std::vector<double> second_runs_faster(double change, double scatter, double second = 0.8) {
  std::vector<double> logs;
  for (int round = 0; round < 16; ++round) {
    const double noise = scatter * ((round * 7) % 5 - 2) / 2.0;  // -1, ..., +1 of it
    logs.push_back(std::log(change) + (round % 2 == 0 ? std::log(second) : -std::log(second)) +
                   noise);
  }
  return logs;
}

TEST(Compare, RoundsRunInBothOrdersAreComparedAsACrossoverThatCancelsTheOrder) {
  // Read as plain pairs, the rounds swing ±20% and decide nothing; read by their order (the
  // baseline-first rounds against the others), the order cancels and the 0.3% scatter left
  // decides them: unchanged with no change, regressed with 5%.
  const auto [base, cand] = rounds_with("o", second_runs_faster(1.0, 0.003), Turns::alternating);
  const Comparison both_orders = compare(base, cand);
  const auto& crossover = find(both_orders, "o");
  EXPECT_EQ(crossover.design, Design::paired);
  EXPECT_EQ(crossover.verdict, Verdict::unchanged);
  EXPECT_EQ(crossover.baseline_first.size(), 16u);
  EXPECT_TRUE(crossover.baseline_first[0]);
  EXPECT_FALSE(crossover.baseline_first[1]);
  ASSERT_TRUE(crossover.order_ratio.has_value());
  EXPECT_NEAR(*crossover.order_ratio, 0.8, 0.005);
  EXPECT_LT(crossover.ratio_upper / crossover.ratio_lower, 1.01);
  const auto [base5, cand5] = rounds_with("o", second_runs_faster(1.05, 0.003), Turns::alternating);
  const Comparison five_percent = compare(base5, cand5);
  const auto& slower = find(five_percent, "o");
  EXPECT_EQ(slower.verdict, Verdict::regressed);
  EXPECT_NEAR(slower.ratio, 1.05, 0.005);
  // Rounds in both orders that do not differ by order (kOrderEvidence): plain pairs, whose
  // first looks use every pair of rounds.
  const auto [base_same, cand_same] =
      rounds_with("o", second_runs_faster(1.0, 0.003, 1.0), Turns::alternating);
  const Comparison no_order = compare(base_same, cand_same);
  EXPECT_EQ(find(no_order, "o").verdict, Verdict::unchanged);
  EXPECT_TRUE(find(no_order, "o").baseline_first.empty());
  // The same rounds without their places, or with both sides at the same place: plain pairs.
  for (const Turns turns : {Turns::none, Turns::same}) {
    const auto [b, c] = rounds_with("o", second_runs_faster(1.0, 0.003), turns);
    const Comparison pairs = compare(b, c);
    const auto& plain = find(pairs, "o");
    EXPECT_EQ(plain.verdict, Verdict::inconclusive);
    EXPECT_TRUE(plain.baseline_first.empty());
    EXPECT_FALSE(plain.order_ratio.has_value());
  }
}

TEST(Compare, AnUndecidedCrossoverSaysWhatTheOrderCostAndWhatScatterIsLeft) {
  // 8% of scatter left after the order cancels: undecided at ±2%, and the note says both.
  const auto [base, cand] = rounds_with("o", second_runs_faster(1.0, 0.08), Turns::alternating);
  const Comparison undecided = compare(base, cand);
  const auto& row = find(undecided, "o");
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  ASSERT_TRUE(row.order_ratio.has_value());
  EXPECT_NEAR(*row.order_ratio, 0.8, 0.02);
  EXPECT_THAT(row.note,
              HasSubstr(fmt::format("the second process of a round ran {:.1f}% faster than the "
                                    "first, which comparing the rounds of each order with the "
                                    "other's cancels",
                                    (1.0 - *row.order_ratio) * 100.0)));
  // The scatter named is what is left (the 8% spread of the noise, about 6% as a standard
  // deviation), not the ±20% swing of the plain rounds.
  EXPECT_THAT(row.note, Not(HasSubstr("every round scatters (about 2")));
  EXPECT_THAT(row.note, HasSubstr("every round scatters (about 6"));
}

TEST(Compare, ALookIsReadAtItsLevelOfTheSequentialDesign) {
  // Ten rounds, nine of them 2-10% slower: the fixed 95% interval starts above +2% (regressed);
  // read at the first look's level of the sequential design (about 0.9%), it starts below, and
  // the benchmark gets another round.
  const auto [base, cand] =
      rounds_with("edge", {0.015, 0.065, 0.025, 0.075, 0.035, 0.085, 0.045, 0.095, 0.055, -0.012});
  const Comparison fixed_comparison = compare(base, cand);
  const auto& fixed = find(fixed_comparison, "edge");
  ASSERT_EQ(fixed.design, Design::paired);
  EXPECT_EQ(fixed.verdict, Verdict::regressed);
  EXPECT_GT(fixed.ratio_lower, 1.02);
  EXPECT_EQ(fixed.level, 0.0) << "no sequential design: no look level";

  CompareSettings looked;
  looked.sequential_alpha = sequential_levels(10, 90);
  const Comparison looked_comparison = compare(base, cand, looked);
  const auto& first_look = find(looked_comparison, "edge");
  EXPECT_EQ(first_look.verdict, Verdict::inconclusive);
  EXPECT_DOUBLE_EQ(first_look.level, looked.sequential_alpha[10]);
  EXPECT_LT(first_look.ratio_lower, 1.02);
  EXPECT_THAT(unsettled(base, cand, looked), ::testing::ElementsAre("edge"));

  // A clear change is settled at the first look, even with one round at +1.5%.
  const auto [clear_base, clear_cand] =
      rounds_with("clear", {0.050, 0.051, 0.049, 0.052, 0.048, 0.050, 0.053, 0.047, 0.050, 0.015});
  EXPECT_TRUE(unsettled(clear_base, clear_cand, looked).empty());
  EXPECT_EQ(find(compare(clear_base, clear_cand, looked), "clear").verdict, Verdict::regressed);
}

TEST(Compare, SequentialLevelsSpendAlphaOverTheLooks) {
  const std::vector<double> levels = sequential_levels(10, 90, 0.05);
  ASSERT_EQ(levels.size(), 91u);
  // Rounds before the first look repeat its level; every look is stricter than alpha.
  EXPECT_DOUBLE_EQ(levels[0], levels[10]);
  for (std::size_t n = 10; n <= 90; ++n) {
    EXPECT_GT(levels[n], 0.001) << n;
    EXPECT_LT(levels[n], 0.05) << n;
  }
  // Pocock type: the first look gets what is spent by then (0.05 ln(1 + (e-1)/9) = 0.0087); the
  // next ones share the small increments with the looks before them, and the level recovers
  // towards the last.
  EXPECT_NEAR(levels[10], 0.0087, 1e-4);
  EXPECT_LT(levels[12], levels[10]);
  EXPECT_GT(levels[90], levels[20]);
  // One look only: the fixed level.
  const std::vector<double> once = sequential_levels(10, 10, 0.05);
  ASSERT_EQ(once.size(), 11u);
  EXPECT_NEAR(once[10], 0.05, 1e-9);
  EXPECT_NEAR(sequential_levels(10, 5, 0.05)[5], 0.05, 1e-9) << "most below first: one look";
  // paired_level: past the table, its last entry; no table, alpha.
  CompareSettings settings;
  EXPECT_DOUBLE_EQ(paired_level(settings, 40), 0.05);
  settings.sequential_alpha = levels;
  EXPECT_DOUBLE_EQ(paired_level(settings, 40), levels[40]);
  EXPECT_DOUBLE_EQ(paired_level(settings, 200), levels[90]);
}

TEST(Compare, TooFewRoundsForTheLooksLevelDecideNothing) {
  // Seven rounds all 50% slower: the exact signed-rank interval of 7 rounds reaches at most
  // 1 - 2/128 = 98.4%, short of the first look's 99.1%: no verdict, however large the change,
  // and the note says how many rounds could give one. Eight rounds reach 99.2%.
  CompareSettings looked;
  looked.sequential_alpha = sequential_levels(10, 90);
  const std::vector<double> base(8, 100.0);
  const std::vector<double> slower = {150, 151, 149, 152, 148, 154, 153, 147};  // no ties
  const BenchmarkComparison seven =
      compare_rounds(std::span(base).first(7), std::span(slower).first(7), looked);
  EXPECT_FALSE(seven.level_reached);
  EXPECT_EQ(seven.verdict, Verdict::inconclusive);
  const BenchmarkComparison eight = compare_rounds(base, slower, looked);
  EXPECT_TRUE(eight.level_reached);
  EXPECT_EQ(eight.verdict, Verdict::regressed);
  EXPECT_NEAR(eight.ratio, 1.5, 0.01);

  std::vector<double> logs;
  for (std::size_t i = 0; i < 7; ++i) logs.push_back(std::log(slower[i] / 100.0));
  const auto [b, c] = rounds_with("seven", logs);
  const Comparison comparison = compare(b, c, looked);
  const auto& row = find(comparison, "seven");
  EXPECT_EQ(row.verdict, Verdict::inconclusive);
  EXPECT_THAT(row.note, HasSubstr("at this look of the sequential design"));
  EXPECT_THAT(row.note, HasSubstr("run at least 8 rounds"));
}

TEST(Compare, TooFewPairedRoundsForTheSuiteSayHowManyAreNeeded) {
  // Six rounds: the signed-rank test cannot go below p = 2/64 = 0.031; adjusted over seven
  // benchmarks no verdict is possible, however large the change, and the note says so.
  auto side = [](const std::string& name, double factor) {
    BenchmarkResult result;
    result.name = name;
    for (std::uint32_t round = 0; round < 6; ++round) {
      Sample sample;
      sample.ns = factor * 100.0 * (1.0 + 0.01 * round);
      sample.round = round;
      result.samples.push_back(sample);
    }
    compute_estimates(result);
    return result;
  };
  std::vector<BenchmarkResult> base;
  std::vector<BenchmarkResult> slower;
  for (int i = 0; i < 7; ++i) {
    base.push_back(side("b" + std::to_string(i), 1.0));
    slower.push_back(side("b" + std::to_string(i), 1.5));
  }
  const Comparison c = compare(run_of(base), run_of(slower));
  const auto& b0 = find(c, "b0");
  EXPECT_EQ(b0.design, Design::paired);
  EXPECT_EQ(b0.verdict, Verdict::inconclusive);
  EXPECT_THAT(b0.note, HasSubstr("6 paired rounds cannot be significant"));
  // The p-value the level is held against is the adjusted one: 7 × 2 / 2^6.
  EXPECT_THAT(b0.note, HasSubstr("the smallest p-value of 6 pairs is 0.031, 0.22 once adjusted"));
  EXPECT_THAT(b0.note, HasSubstr("run at least 9 rounds"));  // 7 * 2 / 2^9 < 0.05
  // One benchmark alone: 6 rounds suffice.
  const Comparison alone = compare(run_of({base[0]}), run_of({slower[0]}));
  EXPECT_EQ(find(alone, "b0").verdict, Verdict::regressed);
}

TEST(Compare, SameDistributionRarelyGivesAVerdictOfChange) {
  // 200 A/A comparisons of iid data: a false "regressed" or "improved" must stay rare.
  int false_alarms = 0;
  for (unsigned trial = 0; trial < 200; ++trial) {
    const Comparison c = compare(run_of({benchmark("a", 100, 0.02, 30, 2 * trial)}),
                                 run_of({benchmark("a", 100, 0.02, 30, 2 * trial + 1)}));
    const Verdict v = c.benchmarks[0].verdict;
    false_alarms += v == Verdict::regressed || v == Verdict::improved;
  }
  EXPECT_LE(false_alarms, 2);
}

TEST(Compare, ASkippedBenchmarkIsNeitherARegressionNorInvalid) {
  BenchmarkResult skipped;
  skipped.name = "slow";
  skipped.skipped = Skipped{"ci", "noisy on shared runners"};
  const BenchmarkResult measured = benchmark("slow", 300.0, 0.01, 30, 3);
  // Skipped in the new run, in the baseline, and in a new run whose baseline lacks it.
  const Comparison in_new = compare(run_of({measured}), run_of({skipped}));
  ASSERT_EQ(in_new.benchmarks.size(), 1u);
  EXPECT_EQ(in_new.benchmarks[0].verdict, Verdict::skipped);
  EXPECT_EQ(in_new.benchmarks[0].note,
            "skipped in the new run (--skip-tag ci): noisy on shared runners");
  EXPECT_FALSE(in_new.any_regression());
  EXPECT_EQ(in_new.count(Verdict::invalid), 0u);
  const Comparison in_baseline = compare(run_of({skipped}), run_of({measured}));
  ASSERT_EQ(in_baseline.benchmarks.size(), 1u);
  EXPECT_EQ(in_baseline.benchmarks[0].verdict, Verdict::skipped);
  EXPECT_THAT(in_baseline.benchmarks[0].note, HasSubstr("skipped in the baseline run"));
  const Comparison only_new = compare(run_of({}), run_of({skipped}));
  EXPECT_EQ(only_new.benchmarks[0].verdict, Verdict::skipped) << "not added";
  const Comparison only_baseline = compare(run_of({skipped}), run_of({}));
  EXPECT_EQ(only_baseline.benchmarks[0].verdict, Verdict::skipped) << "not removed";
  EXPECT_STREQ(to_string(Verdict::skipped), "skipped");
}

TEST(Compare, SkippedBenchmarksTakeNoPartInTheAdjustment) {
  BenchmarkResult skipped;
  skipped.name = "b";
  skipped.skipped = Skipped{"ci", "noisy"};
  const Comparison with =
      compare(run_of({benchmark("a", 100.0, 0.01, 30, 1), benchmark("b", 100.0, 0.01, 30, 2)}),
              run_of({benchmark("a", 110.0, 0.01, 30, 3), skipped}));
  const Comparison without = compare(run_of({benchmark("a", 100.0, 0.01, 30, 1)}),
                                     run_of({benchmark("a", 110.0, 0.01, 30, 3)}));
  EXPECT_EQ(find(with, "a").verdict, Verdict::regressed);
  EXPECT_DOUBLE_EQ(find(with, "a").p_adjusted, find(without, "a").p_adjusted);
}

// Counts (--mode instructions): the same in every sample, so the ratio is exact.
BenchmarkResult counted(const std::string& name, double per_iteration, int samples = 3) {
  BenchmarkResult result;
  result.name = name;
  result.metric = "instructions";
  for (int i = 0; i < samples; ++i) {
    Sample sample;
    sample.iters = 10;
    sample.ns = 10 * per_iteration;
    result.samples.push_back(sample);
  }
  compute_estimates(result);
  return result;
}

TEST(CompareCounts, ExactCountsAreDecidedByTheRatioAloneAgainstTheCountThreshold) {
  const Comparison comparison = compare(run_of({counted("same", 12000), counted("more", 12000),
                                                counted("tiny", 12000), counted("less", 12000)}),
                                        run_of({counted("same", 12000), counted("more", 13200),
                                                counted("tiny", 12012), counted("less", 11000)}));
  EXPECT_EQ(find(comparison, "same").verdict, Verdict::unchanged);
  EXPECT_EQ(find(comparison, "more").verdict, Verdict::regressed);
  EXPECT_EQ(find(comparison, "more").design, Design::exact);
  EXPECT_DOUBLE_EQ(find(comparison, "more").ratio, 1.1);
  EXPECT_DOUBLE_EQ(find(comparison, "more").ratio_lower, 1.1);
  EXPECT_EQ(find(comparison, "more").metric, "instructions");
  // 0.1% is the default count threshold: a change of exactly 0.1% is within it.
  EXPECT_EQ(find(comparison, "tiny").verdict, Verdict::unchanged);
  EXPECT_EQ(find(comparison, "less").verdict, Verdict::improved);
  EXPECT_TRUE(comparison.design_warning.empty());
}

TEST(CompareCounts, JustBeyondTheThresholdIsAVerdictEvenWithOneSample) {
  const Comparison comparison =
      compare(run_of({counted("a", 100000, 1)}), run_of({counted("a", 100110, 1)}));
  EXPECT_EQ(find(comparison, "a").verdict, Verdict::regressed);
}

TEST(CompareCounts, CountsAgainstTimesAreNotCompared) {
  BenchmarkResult timed = benchmark("a", 100.0, 0.01, 30, 1);
  const Comparison comparison = compare(run_of({timed}), run_of({counted("a", 12000)}));
  EXPECT_EQ(find(comparison, "a").verdict, Verdict::invalid);
  EXPECT_THAT(find(comparison, "a").note, HasSubstr("--mode"));
}

TEST(CompareCounts, CountsThatVaryUseTheStatistics) {
  BenchmarkResult base = counted("a", 12000, 5);
  BenchmarkResult cand = counted("a", 12000, 5);
  cand.samples[2].ns += 50;  // a thread or a clock read: not deterministic
  compute_estimates(cand);
  const Comparison comparison = compare(run_of({base}), run_of({cand}));
  EXPECT_NE(find(comparison, "a").design, Design::exact);
}
}  // namespace
}  // namespace benchkit::analysis
