#include "measure/scenario.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "fakes/fake_clock.hpp"
#include "fakes/fake_process.hpp"
#include "model/counters.hpp"
#include "support/sanitizers.hpp"

namespace benchkit::measure {
namespace {

using benchkit::testing::FakeClock;
using benchkit::testing::FakeProcessMemory;
using benchkit::testing::FakeProcessUsage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr std::int64_t kMiB = 1 << 20;

std::vector<std::string> names(const std::vector<BenchmarkResult>& results) {
  std::vector<std::string> out;
  for (const auto& r : results) out.push_back(r.name);
  return out;
}

std::vector<BenchmarkResult> run(FakeClock& clock, const std::function<void(Scenario&)>& body,
                                 std::size_t repetitions = 1, ScenarioProbes probes = {}) {
  ScenarioSettings settings;
  settings.repetitions = repetitions;
  return run_scenario(clock, settings, probes, "pipeline/items=10", body);
}

// The message of the runtime_error a scenario throws, or "" when it does not throw.
std::string error_of(const std::function<void(Scenario&)>& body) {
  FakeClock clock;
  try {
    run(clock, body);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(Scenario, EachPhaseIsTimedOnceAndSetUpIsNot) {
  FakeClock clock;
  const auto results = run(clock, [&](Scenario& s) {
    clock.advance(1'000);  // set-up: generating data
    s.phase("load", {.items = 10}, [&] { clock.advance(30); });
    clock.advance(500);  // set-up between phases: reopening files
    s.phase("drain", {.items = 10}, [&] { clock.advance(70); });
    clock.advance(200);  // checking the result
  });
  ASSERT_THAT(names(results), ElementsAre("pipeline/items=10/load", "pipeline/items=10/drain"));
  for (const BenchmarkResult& r : results) {
    EXPECT_EQ(r.kind, "scenario");
    ASSERT_EQ(r.samples.size(), 1u);
    EXPECT_EQ(r.samples[0].iters, 1u);
    EXPECT_TRUE(r.valid());
  }
  EXPECT_DOUBLE_EQ(results[0].samples[0].ns, 30.0);
  EXPECT_DOUBLE_EQ(results[1].samples[0].ns, 70.0);
  EXPECT_DOUBLE_EQ(results[1].per_iteration_ns()[0], 70.0) << "no overhead is subtracted";
}

TEST(Scenario, PhasesKeepTheOrderTheyRanIn) {
  FakeClock clock;
  std::vector<std::string> ran;
  const auto results = run(clock, [&](Scenario& s) {
    for (const char* name : {"zeta", "alpha", "mid"}) {
      s.phase(name, [&] { ran.emplace_back(name); });
    }
  });
  EXPECT_THAT(ran, ElementsAre("zeta", "alpha", "mid"));
  EXPECT_THAT(names(results), ElementsAre("pipeline/items=10/zeta", "pipeline/items=10/alpha",
                                          "pipeline/items=10/mid"));
}

TEST(Scenario, WorkGivesItemsAndBytesPerSecond) {
  FakeClock clock;
  auto results = run(clock, [&](Scenario& s) {
    s.phase("load", {.items = 1'000, .bytes = kMiB}, [&] { clock.advance(1'000'000); });
    s.phase("count", {.items = 1'000}, [&] { clock.advance(2'000'000); });
    s.phase("idle", [&] { clock.advance(1); });
  });
  for (BenchmarkResult& r : results) analysis::compute_estimates(r);
  EXPECT_DOUBLE_EQ(*results[0].estimates.items_per_second, 1e6);
  EXPECT_DOUBLE_EQ(*results[0].estimates.bytes_per_second, 1e3 * kMiB);
  EXPECT_DOUBLE_EQ(*results[1].estimates.items_per_second, 5e5);
  EXPECT_FALSE(results[1].estimates.bytes_per_second.has_value());
  EXPECT_FALSE(results[2].items_per_iteration.has_value());
}

TEST(Scenario, ResourcesOfAPhaseAreWhatChangedWhileItRan) {
  FakeClock clock;
  FakeProcessMemory memory;
  FakeProcessUsage usage;
  memory.set_rss(10 * kMiB);
  usage.totals.user_ns = 7e9;  // earlier work of the process is not the phase's
  usage.totals.minor_faults = 5'000;
  const auto results = run(
      clock,
      [&](Scenario& s) {
        memory.set_rss(40 * kMiB);  // set-up data, resident before the phase
        s.phase("load", [&] {
          memory.set_rss(100 * kMiB);
          memory.set_rss(50 * kMiB);
          usage.totals.user_ns += 5e6;
          usage.totals.system_ns += 1e6;
          usage.totals.minor_faults += 120;
          usage.totals.major_faults += 2;
          usage.totals.voluntary_switches += 3;
        });
        s.phase("drain", [&] { memory.set_rss(45 * kMiB); });
      },
      1, ScenarioProbes{&memory, &usage});
  ASSERT_EQ(results.size(), 2u);
  const Resources& load = *results[0].samples[0].resources;
  EXPECT_DOUBLE_EQ(*load.user_ns, 5e6);
  EXPECT_DOUBLE_EQ(*load.system_ns, 1e6);
  EXPECT_EQ(*load.minor_faults, 120);
  EXPECT_EQ(*load.major_faults, 2);
  EXPECT_EQ(*load.voluntary_switches, 3);
  EXPECT_EQ(*load.involuntary_switches, 0);
  EXPECT_EQ(*load.peak_rss_bytes, 100 * kMiB);
  EXPECT_EQ(*load.rss_change_bytes, 10 * kMiB);
  EXPECT_EQ(*results[0].memory.peak_rss_bytes, 100 * kMiB);
  EXPECT_EQ(results[0].memory.peak_rss_method, peak_rss_method(true));
  // The high-water mark was reset when drain began: load's 100 MiB is not drain's peak.
  const Resources& drain = *results[1].samples[0].resources;
  EXPECT_EQ(*drain.peak_rss_bytes, 50 * kMiB);
  EXPECT_EQ(*drain.rss_change_bytes, -5 * kMiB);
  EXPECT_EQ(*drain.user_ns, 0.0);
  EXPECT_EQ(memory.resets, 2);
}

TEST(Scenario, APeakThatCouldNotBeResetSaysSo) {
  FakeClock clock;
  FakeProcessMemory memory;
  memory.reset_allowed = false;
  memory.set_rss(300 * kMiB);
  memory.set_rss(20 * kMiB);
  const auto results = run(
      clock, [&](Scenario& s) { s.phase("load", [] {}); }, 1, ScenarioProbes{&memory, nullptr});
  EXPECT_EQ(results[0].memory.peak_rss_method, peak_rss_method(false));
  EXPECT_EQ(*results[0].samples[0].resources->peak_rss_bytes, 300 * kMiB);
  EXPECT_FALSE(results[0].samples[0].resources->user_ns.has_value()) << "no usage probe";
}

TEST(Scenario, AFailedVerifyNamesThePhaseBeforeItAndInvalidatesEveryPhase) {
  FakeClock clock;
  bool passed = true;
  bool failed = true;
  const auto results = run(clock, [&](Scenario& s) {
    s.phase("load", [] {});
    passed = s.verify(true, "load kept every item");
    s.phase("drain", [] {});
    failed = s.verify(false, "every item came back in order");
  });
  EXPECT_TRUE(passed);
  EXPECT_FALSE(failed);
  ASSERT_EQ(results.size(), 2u);
  for (const BenchmarkResult& r : results) {
    EXPECT_FALSE(r.valid()) << r.name;
    EXPECT_THAT(r.failures,
                ElementsAre("check failed after phase drain: every item came back in order"));
  }
}

TEST(Scenario, AVerifyBeforeAnyPhaseOrInsideOneSaysWhere) {
  FakeClock clock;
  const auto results = run(clock, [&](Scenario& s) {
    s.verify(false, "the input file exists");
    s.phase("load", [&] { s.verify(false, "the batch fits"); });
  });
  EXPECT_THAT(results[0].failures,
              ElementsAre("check failed before the first phase: the input file exists",
                          "check failed during phase load: the batch fits"));
}

TEST(Scenario, RepetitionsRunTheSetUpAfreshAndGiveOneSamplePerPhaseEach) {
  FakeClock clock;
  int set_ups = 0;
  std::vector<std::size_t> seen;
  const auto results = run(
      clock,
      [&](Scenario& s) {
        ++set_ups;
        seen.push_back(s.repetition());
        const auto step = static_cast<std::int64_t>(s.repetition() + 1);
        s.phase("load", {.items = 10}, [&] { clock.advance(100 * step); });
        s.phase("drain", {.items = 10}, [&] { clock.advance(10 * step); });
        s.verify(s.repetition() != 1, "drained everything");
      },
      3);
  EXPECT_EQ(set_ups, 3);
  EXPECT_THAT(seen, ElementsAre(0u, 1u, 2u));
  ASSERT_EQ(results.size(), 2u);
  ASSERT_EQ(results[0].samples.size(), 3u);
  EXPECT_DOUBLE_EQ(results[0].samples[2].ns, 300.0);
  EXPECT_DOUBLE_EQ(results[1].samples[1].ns, 20.0);
  // One failed repetition makes the whole scenario run invalid, and says which one.
  for (const BenchmarkResult& r : results) {
    EXPECT_THAT(r.failures,
                ElementsAre("repetition 2 of 3: check failed after phase drain: drained "
                            "everything"));
  }
}

TEST(Scenario, RepetitionsAreTheSamplesOfTheStatistics) {
  FakeClock clock;
  const std::vector<std::int64_t> durations = {105, 98, 101, 250, 99, 102, 100, 97};
  auto results = run(
      clock,
      [&](Scenario& s) {
        s.phase("load", {.items = 100}, [&] { clock.advance(durations[s.repetition()]); });
      },
      durations.size());
  BenchmarkResult& load = results[0];
  ASSERT_EQ(load.samples.size(), durations.size());
  analysis::compute_estimates(load);
  EXPECT_DOUBLE_EQ(load.estimates.median.value, 100.5);
  EXPECT_LE(load.estimates.median.lower, 100.5);
  EXPECT_GE(load.estimates.median.upper, 100.5);
  EXPECT_GE(load.estimates.median.confidence, 0.95) << "8 samples reach a 95% interval";
  EXPECT_DOUBLE_EQ(load.estimates.max, 250.0);
  EXPECT_EQ(load.estimates.outliers_high, 1u);
  EXPECT_DOUBLE_EQ(*load.estimates.items_per_second, 100 * 1e9 / 100.5);

  auto single = run(clock, [&](Scenario& s) { s.phase("load", [&] { clock.advance(42); }); });
  analysis::compute_estimates(single[0]);
  EXPECT_DOUBLE_EQ(single[0].estimates.median.value, 42.0);
  EXPECT_EQ(single[0].estimates.median.confidence, 0.0) << "one sample: no interval";
}

TEST(Scenario, AComparisonKeepsInvalidRunsOut) {
  // The same scenario three times slower: a regression, unless the slow run failed a check.
  auto scenario_run = [](std::int64_t duration, bool breaks) {
    FakeClock clock;
    RunResult run;
    run.benchmarks =
        measure::run_scenario(clock, ScenarioSettings{10}, {}, "pipeline", [&](Scenario& s) {
          // A little spread between repetitions, the same on both sides.
          const std::int64_t jitter = static_cast<std::int64_t>(s.repetition() % 3);
          s.phase("load", [&] { clock.advance(duration + jitter); });
          s.verify(!breaks, "every item came back");
        });
    analysis::compute_estimates(run);
    return run;
  };
  const RunResult baseline = scenario_run(1'000'000, false);
  const analysis::Comparison regressed =
      analysis::compare(baseline, scenario_run(3'000'000, false));
  ASSERT_EQ(regressed.benchmarks.size(), 1u);
  EXPECT_EQ(regressed.benchmarks[0].verdict, analysis::Verdict::regressed);

  const analysis::Comparison invalid = analysis::compare(baseline, scenario_run(3'000'000, true));
  EXPECT_EQ(invalid.benchmarks[0].verdict, analysis::Verdict::invalid);
  EXPECT_THAT(invalid.benchmarks[0].note, HasSubstr("every item came back"));
  EXPECT_FALSE(invalid.any_regression()) << "an invalid run never gates CI as a regression";
}

TEST(Scenario, CountersAreOnEveryPhaseAveragedOverRepetitions) {
  FakeClock clock;
  const auto results = run(
      clock,
      [&](Scenario& s) {
        s.phase("load", [] {});
        s.counter("segments", 12);
        s.counter("ratio", 2.0 + static_cast<double>(s.repetition()));
        s.phase("drain", [] {});
      },
      3);
  for (const BenchmarkResult& r : results) {
    EXPECT_DOUBLE_EQ(r.counters.at("segments"), 12.0) << r.name;
    EXPECT_DOUBLE_EQ(r.counters.at("ratio"), 3.0) << r.name;
  }
}

// A phase counter lands on its phase only, averaged over the repetitions, with its kind; a
// scenario-wide counter with a kind keeps it on every phase; a rate is applied over the phase's
// own time (model::counter_value).
TEST(Scenario, PhaseCountersAreOnTheirPhaseOnlyWithTheirKinds) {
  FakeClock clock;
  const auto results = run(
      clock,
      [&](Scenario& s) {
        s.phase_counter("load", "pages", 100.0 + 100.0 * static_cast<double>(s.repetition()),
                        counter::rate);
        s.phase("load", [&] { clock.advance(1'000'000); });  // 1 ms
        s.phase("drain", [&] { clock.advance(4'000'000); });
        s.phase_counter("drain", "pages", 8.0);
        s.counter("index_bytes", 3.0 * 1024 * 1024, counter::base_1024);
      },
      2);
  ASSERT_THAT(names(results), ElementsAre("pipeline/items=10/load", "pipeline/items=10/drain"));
  const BenchmarkResult& load = results[0];
  const BenchmarkResult& drain = results[1];
  EXPECT_DOUBLE_EQ(load.counters.at("pages"), 150.0);  // the mean of 100 and 200
  EXPECT_DOUBLE_EQ(drain.counters.at("pages"), 8.0);
  EXPECT_EQ(load.counter_kinds.at("pages"), counter::rate);
  EXPECT_EQ(drain.counter_kinds.count("pages"), 0u) << "drain's pages were given no kind";
  for (const BenchmarkResult& r : results) {
    EXPECT_DOUBLE_EQ(r.counters.at("index_bytes"), 3.0 * 1024 * 1024) << r.name;
    EXPECT_EQ(r.counter_kinds.at("index_bytes"), counter::base_1024) << r.name;
  }
  BenchmarkResult timed = load;
  analysis::compute_estimates(timed);
  const auto rate = model::counter_value(timed, "pages");
  ASSERT_TRUE(rate.has_value());
  EXPECT_NEAR(*rate, 150.0 / 1e-3, 1e-6) << "150 pages in a phase of 1 ms";
}

TEST(Scenario, ACounterKindThatCannotApplyIsRefusedWithTheFix) {
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.counter("bytes", 10, counter::rate);
              }),
              HasSubstr("s.phase_counter(\"PHASE\", \"bytes\", value, counter::rate)"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase_counter("load", "rows", 10, counter::per_iteration);
              }),
              HasSubstr("no iterations or threads to divide by"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.counter("rows", 10, counter::per_thread);
              }),
              HasSubstr("counter::per_thread"));
}

TEST(Scenario, ACounterKeepsOneKindAndOneScope) {
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase_counter("load", "bytes", 10, counter::rate);
                s.phase_counter("load", "bytes", 10, counter::rate | counter::base_1024);
              }),
              HasSubstr("it was set with counter::rate before"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.counter("bytes", 10);
                s.phase_counter("load", "bytes", 10, counter::rate);
              }),
              HasSubstr("already set for the whole scenario"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase_counter("load", "bytes", 10);
                s.counter("bytes", 10);
              }),
              HasSubstr("already set for phase load"));
  // The same name on two phases is two counters: allowed.
  EXPECT_EQ(error_of([](Scenario& s) {
              s.phase("load", [] {});
              s.phase("drain", [] {});
              s.phase_counter("load", "bytes", 10, counter::rate);
              s.phase_counter("drain", "bytes", 20, counter::rate);
            }),
            "");
}

TEST(Scenario, APhaseCounterOfAPhaseThatNeverRanIsNamed) {
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase_counter("lod", "pages", 3, counter::rate);
              }),
              HasSubstr("set counter pages for phase lod, which never ran"));
}

// An exact count is the same in every repetition: kept as it is on every phase, never
// averaged, with the input it counts.
TEST(Scenario, ExactCountsThatAgreeAreKeptOnEveryPhase) {
  FakeClock clock;
  const auto results = run(
      clock,
      [&](Scenario& s) {
        s.phase("load", [] {});
        s.exact_count("rows", 4'000'000, "corpus.csv");
        s.exact_count("batches", 7);
        s.exact_count("batches", 40);  // set again: the last value counts
        s.phase("drain", [] {});
      },
      3);
  ASSERT_EQ(results.size(), 2u);
  for (const BenchmarkResult& r : results) {
    EXPECT_TRUE(r.valid()) << r.name;
    ASSERT_EQ(r.exact_counts.size(), 2u) << r.name;
    EXPECT_EQ(r.exact_counts[0].name, "rows");
    EXPECT_EQ(r.exact_counts[0].value, 4'000'000u);
    EXPECT_EQ(r.exact_counts[0].input, "corpus.csv");
    EXPECT_EQ(r.exact_counts[1].name, "batches");
    EXPECT_EQ(r.exact_counts[1].value, 40u);
    EXPECT_EQ(r.exact_counts[1].input, "");
  }
}

// A repetition that counts otherwise (one row lost, a count left out) makes every phase of the
// scenario invalid, with the values seen.
TEST(Scenario, AnExactCountThatDiffersBetweenRepetitionsInvalidatesTheScenario) {
  FakeClock clock;
  const auto lost = run(
      clock,
      [&](Scenario& s) {
        s.phase("load", [] {});
        s.exact_count("rows", s.repetition() == 2 ? 999 : 1000, "corpus.csv");
      },
      3);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_FALSE(lost[0].valid());
  EXPECT_THAT(lost[0].failures,
              ElementsAre("exact count rows is not the same in every repetition: 1000 for "
                          "corpus.csv in repetition 1, 999 for corpus.csv in repetition 3"));
  const auto missing = run(
      clock,
      [&](Scenario& s) {
        s.phase("load", [] {});
        if (s.repetition() == 0) s.exact_count("rows", 10);
      },
      2);
  EXPECT_THAT(missing[0].failures,
              ElementsAre("exact count rows is not the same in every repetition: 10 in "
                          "repetition 1, not set in repetition 2"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.exact_count("", 1);
              }),
              HasSubstr("exact_count needs a name"));
}

TEST(Scenario, MistakesAreRefusedWithTheScenarioAndThePhaseNamed) {
  EXPECT_THAT(error_of([](Scenario&) {}), HasSubstr("scenario pipeline/items=10 ran no phase"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase("load", [] {});
              }),
              HasSubstr("phase load ran twice"));
  EXPECT_THAT(error_of([](Scenario& s) { s.phase("a/b", [] {}); }),
              HasSubstr("phase name \"a/b\" must be non-empty, without '/' or '='"));
  EXPECT_THAT(error_of([](Scenario& s) { s.phase("", [] {}); }), HasSubstr("phase name \"\""));
  EXPECT_THAT(error_of([](Scenario& s) { s.phase("outer", [&] { s.phase("inner", [] {}); }); }),
              HasSubstr("phase inner started inside phase outer"));
  EXPECT_THAT(error_of([](Scenario& s) { s.phase("load", {.items = -1}, [] {}); }),
              HasSubstr("must not be negative"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                s.phase("recover", [] { throw std::runtime_error("segment 3 is corrupt"); });
              }),
              HasSubstr("scenario pipeline/items=10 threw in phase recover: segment 3 is corrupt"));
  EXPECT_THAT(error_of([](Scenario& s) {
                s.phase("load", [] {});
                throw std::runtime_error("cannot reopen");
              }),
              HasSubstr("threw after phase load: cannot reopen"));
}

TEST(Scenario, APhaseMustDeclareTheSameWorkInEveryRepetition) {
  FakeClock clock;
  try {
    run(
        clock,
        [](Scenario& s) {
          s.phase("load", {.items = static_cast<std::int64_t>(10 + s.repetition())}, [] {});
        },
        2);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("phase load declared 10 items and no bytes in an earlier "
                                        "repetition but 11 items and no bytes in repetition 2"));
  }
}

TEST(Scenario, WhatAPhaseReturnsIsKept) {
  FakeClock clock;
  int calls = 0;
  run(clock, [&](Scenario& s) {
    s.phase("compute", [&] {
      ++calls;
      return std::string(100, 'x');
    });
  });
  EXPECT_EQ(calls, 1);
}

// The real kernel: a phase that touches 100 MiB reports a peak 100 MiB above where it began.
TEST(ScenarioMemory, APhaseThatTouches100MiBReportsItsPeakWithin5Percent) {
#if BENCHKIT_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer adds shadow memory (1/8 of each allocation) and keeps freed "
                  "blocks resident, so the peak is not the program's own";
#endif
  ProcessMemory& memory = process_memory();
  if (!memory.reset_peak()) GTEST_SKIP() << "this kernel refuses to reset the peak RSS";
  ProcessUsage& usage = process_usage();
  constexpr std::size_t kBytes = 100u << 20;
  std::optional<std::int64_t> rss_at_start;
  FakeClock clock;
  const auto results = run_scenario(
      clock, ScenarioSettings{}, ScenarioProbes{&memory, &usage}, "touch", [&](Scenario& s) {
        rss_at_start = memory.rss_bytes();
        s.phase("touch", {.bytes = static_cast<std::int64_t>(kBytes)}, [&] {
          std::unique_ptr<char[]> block(new char[kBytes]);
          std::memset(block.get(), 1, kBytes);  // touched, so every page becomes resident
          benchkit::do_not_optimize(block[kBytes - 1]);
        });  // freed before the phase ends: only the peak remembers it
        s.phase("quiet", [] {});
      });
  ASSERT_TRUE(rss_at_start.has_value());
  const Resources& touch = *results[0].samples[0].resources;
  ASSERT_TRUE(touch.peak_rss_bytes.has_value());
  const double above_start = static_cast<double>(*touch.peak_rss_bytes - *rss_at_start);
  RecordProperty("peak_above_start_bytes", std::to_string(above_start));
  EXPECT_NEAR(above_start, static_cast<double>(kBytes), 0.05 * static_cast<double>(kBytes));
  EXPECT_GE(*touch.minor_faults, 20'000) << "25,600 pages of 4 KiB were touched for the first time";
  EXPECT_EQ(results[0].memory.peak_rss_method, peak_rss_method(true));
  // The next phase's mark was reset after the block was freed.
  const Resources& quiet = *results[1].samples[0].resources;
  EXPECT_LT(*quiet.peak_rss_bytes, *touch.peak_rss_bytes - static_cast<std::int64_t>(kBytes / 2));
}

}  // namespace
}  // namespace benchkit::measure
