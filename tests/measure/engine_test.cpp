#include "measure/engine.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "analysis/estimates.hpp"
#include "fakes/fake_clock.hpp"
#include "fakes/fake_process.hpp"
#include "model/counters.hpp"

namespace benchkit::measure {
namespace {

using benchkit::testing::FakeClock;

clock::Calibration one_ns_clock() {
  clock::Calibration calibration;
  calibration.resolution_ns = 1.0;
  return calibration;
}

Engine make_engine(FakeClock& clock, Settings settings = {}, Overhead overhead = {}) {
  return Engine(clock, one_ns_clock(), overhead, settings);
}

std::vector<double> per_iteration(const BenchmarkResult& result) {
  return result.per_iteration_ns();
}

TEST(Engine, MeasuresTheTimeSpentInsideTheClosure) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("steady", [&](Bencher& b) { b.iter([&] { clock.advance(100); }); });
  ASSERT_GE(result.samples.size(), 30u);
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 100.0);
}

TEST(Engine, SamplesAreFlatAndLongEnoughForTheClockResolution) {
  FakeClock clock;
  Settings settings;
  Engine engine(
      clock,
      [] {
        clock::Calibration calibration;
        calibration.resolution_ns = 20.0;  // 1000 x 20 ns = 20 us, below the 1 ms floor
        return calibration;
      }(),
      Overhead{}, settings);
  const BenchmarkResult result =
      engine.measure("flat", [&](Bencher& b) { b.iter([&] { clock.advance(100); }); });
  ASSERT_FALSE(result.samples.empty());
  const std::uint64_t iterations = result.samples.front().iters;
  for (const Sample& sample : result.samples) EXPECT_EQ(sample.iters, iterations);
  // 1 ms floor / 100 ns per iteration.
  EXPECT_EQ(iterations, 10'000u);
  EXPECT_GE(result.samples.front().ns, settings.min_sample_ns);
}

TEST(Engine, IterationCountReachesTheTargetInFewSteps) {
  FakeClock clock;
  Settings settings;
  settings.warm_up_ns = 0;  // count the growth steps only
  Engine engine = make_engine(clock, settings);
  int batches = 0;
  std::vector<std::uint64_t> batch_sizes;
  const BenchmarkResult result = engine.measure("growth", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t iterations) {
      ++batches;
      batch_sizes.push_back(iterations);
      clock.advance(static_cast<std::int64_t>(iterations) * 3);
      return static_cast<double>(iterations) * 3.0;  // 3 ns per iteration
    });
  });
  const std::size_t warm_up_batches = batch_sizes.size() - result.samples.size();
  EXPECT_LE(warm_up_batches, 5u) << "growth took too many steps";
  EXPECT_GE(result.samples.front().ns, 0.9 * static_cast<double>(settings.min_sample_ns));
}

TEST(Engine, IterCustomTakesTheElapsedTimeAsAnyChronoDuration) {
  // The public header reads durations without <chrono>: the period's ratio gives the units.
  const auto per_iteration_of = [](auto elapsed_per_iteration) {
    FakeClock clock;
    Engine engine = make_engine(clock);
    const BenchmarkResult result = engine.measure("custom", [&](Bencher& b) {
      b.iter_custom([&](std::uint64_t iterations) {
        clock.advance(static_cast<std::int64_t>(iterations) * 2000);
        return elapsed_per_iteration * static_cast<std::int64_t>(iterations);
      });
    });
    return per_iteration(result);
  };
  for (double value : per_iteration_of(std::chrono::microseconds(2))) {
    EXPECT_DOUBLE_EQ(value, 2000.0);
  }
  for (double value : per_iteration_of(std::chrono::duration<double, std::micro>(2.5))) {
    EXPECT_DOUBLE_EQ(value, 2500.0);
  }
  for (double value : per_iteration_of(std::chrono::duration<std::int64_t, std::pico>(1500))) {
    EXPECT_DOUBLE_EQ(value, 1.5);
  }
}

TEST(Engine, StopsAtTheMinimumWhenTheMedianIsAlreadyPrecise) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("precise", [&](Bencher& b) { b.iter([&] { clock.advance(50); }); });
  EXPECT_EQ(result.samples.size(), 30u);
}

TEST(Engine, LongSamplesStopAtTheFewestOnceTheyFillTheMinimumSamplingTime) {
  // 10 ms a sample: 10 samples fill the 100 ms, and the median is exact.
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("sleepy", [&](Bencher& b) { b.iter([&] { clock.advance(10'000'000); }); });
  EXPECT_EQ(result.samples.size(), 10u);
  EXPECT_TRUE(result.diagnostics.empty());
}

TEST(Engine, ShortSamplesTakeTheWholeMinimumBeforeTheMinimumSamplingTime) {
  // 2 ms a sample: the 100 ms would take 50 samples, the minimum of 30 comes first.
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("short", [&](Bencher& b) { b.iter([&] { clock.advance(2'000'000); }); });
  EXPECT_EQ(result.samples.size(), 30u);
}

TEST(Engine, LongSamplesOutsideThePrecisionGoOnPastTheFewest) {
  // 10 ms a sample, ±20% from one sample to the next: ten samples cannot give ±1%.
  FakeClock clock;
  Engine engine = make_engine(clock);
  std::uint64_t state = 99;
  const BenchmarkResult result = engine.measure("jittery", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t iterations) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const double factor = 0.8 + 0.4 * static_cast<double>(state >> 40) / (1 << 24);
      const double ns = static_cast<double>(iterations) * 10'000'000.0 * factor;
      clock.advance(static_cast<std::int64_t>(ns));
      return ns;
    });
  });
  EXPECT_GE(result.samples.size(), 30u);
}

TEST(Engine, AChosenSampleSizeIsKeptWholeForLongSamples) {
  FakeClock clock;
  Settings settings;
  settings.choose_sample_size(30);  // as --sample-size and .sample_size() do
  Engine engine = make_engine(clock, settings);
  const BenchmarkResult result =
      engine.measure("sleepy", [&](Bencher& b) { b.iter([&] { clock.advance(10'000'000); }); });
  EXPECT_EQ(result.samples.size(), 30u);
}

TEST(Engine, KeepsSamplingNoisyWorkUntilTheBudgetIsSpent) {
  FakeClock clock;
  Settings settings;
  settings.time_budget_ns = 200'000'000;
  Engine engine = make_engine(clock, settings);
  std::uint64_t state = 12345;
  const BenchmarkResult result = engine.measure("noisy", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t iterations) {
      // Each batch's time varies by ±50%: the median CI cannot reach ±1% within the budget.
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const double factor = 0.5 + static_cast<double>(state >> 40) / static_cast<double>(1 << 24);
      const double ns = static_cast<double>(iterations) * 100.0 * factor;
      clock.advance(static_cast<std::int64_t>(ns));
      return ns;
    });
  });
  EXPECT_GT(result.samples.size(), 30u);
  double sampled = 0;
  for (const Sample& sample : result.samples) sampled += sample.ns;
  EXPECT_GE(sampled, 0.9 * static_cast<double>(settings.time_budget_ns));
  EXPECT_LE(sampled, 1.2 * static_cast<double>(settings.time_budget_ns));
}

TEST(Engine, SlowIterationsTakeFewerSamplesAndSaySo) {
  FakeClock clock;
  Settings settings;
  settings.time_budget_ns = 1'000'000'000;
  Engine engine = make_engine(clock, settings);
  const BenchmarkResult result =
      engine.measure("slow", [&](Bencher& b) { b.iter([&] { clock.advance(200'000'000); }); });
  EXPECT_LT(result.samples.size(), 30u);
  EXPECT_GE(result.samples.size(), 5u);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].code, "few_samples");
  EXPECT_THAT(result.diagnostics[0].message, ::testing::HasSubstr("--time-budget"));
}

struct Tracked {
  static inline int alive = 0;
  static inline int peak_alive = 0;
  FakeClock* clock = nullptr;
  std::vector<int> payload;
  explicit Tracked(FakeClock* c) : clock(c), payload(16, 1) {
    ++alive;
    peak_alive = std::max(peak_alive, alive);
  }
  Tracked(Tracked&& other) noexcept : clock(other.clock), payload(std::move(other.payload)) {
    ++alive;
    peak_alive = std::max(peak_alive, alive);
  }
  Tracked(const Tracked&) = delete;
  ~Tracked() {
    --alive;
    if (clock) clock->advance(1'000'000);  // a slow drop: must not be timed
  }
};

TEST(Engine, SetupAndDropsAreNeverInsideTheTimedRegion) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result = engine.measure("refs", [&](Bencher& b) {
    b.with_inputs([&] {
       clock.advance(5'000'000);  // a slow setup: must not be timed
       return Tracked(&clock);
     }).bench_refs([&](Tracked& input) {
      clock.advance(250);
      return input.payload.size();
    });
  });
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 250.0);
}

TEST(Engine, OutputsOfBenchValuesAreDroppedAfterTiming) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result = engine.measure("values", [&](Bencher& b) {
    b.with_inputs([] { return 7; }).bench_values([&](int value) {
      clock.advance(40);
      return Tracked(value > 0 ? &clock : nullptr);  // destroyed later, advancing the clock
    });
  });
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 40.0);
}

TEST(Engine, LargeInputsShrinkTheBatchInsteadOfExhaustingMemory) {
  FakeClock clock;
  Settings settings;
  settings.input_batch_bytes = 10 * sizeof(Tracked);  // room for about 5 inputs and outputs
  Engine engine = make_engine(clock, settings);
  Tracked::peak_alive = 0;
  const BenchmarkResult result = engine.measure("capped", [&](Bencher& b) {
    b.with_inputs([] { return Tracked(nullptr); }).bench_refs([&](Tracked&) {
      clock.advance(100);
    });
  });
  EXPECT_GT(result.samples.front().iters, 100u) << "the sample is still many iterations";
  EXPECT_LE(Tracked::peak_alive, 12) << "but never more than the cap's inputs at once";
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 100.0);
}

TEST(Engine, SlowInputsDoNotMakeTheBatchGrowWithoutBound) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result = engine.measure("slow inputs", [&](Bencher& b) {
    b.with_inputs([&] {
       clock.advance(1'000'000);  // 1 ms to make each input
       return 1;
     }).bench_refs([&](int&) { clock.advance(2); });  // 2 ns of measured work
  });
  ASSERT_FALSE(result.samples.empty());
  // Growing to 1 ms of measured work would need 500,000 inputs (500 s of set-up per sample);
  // the wall-time cap (10 sample targets) keeps a batch near 10 inputs.
  EXPECT_LE(result.samples.front().iters, 20u);
  EXPECT_GT(result.untimed_ns, 100.0 * result.samples.front().ns);
}

TEST(Engine, SubtractsThePerSampleOverhead) {
  FakeClock clock;
  clock.tick_per_read = 10;  // each read of the clock costs 10 ns of fake time
  Overhead overhead;
  overhead.per_sample_ns = 10;  // the stop() read lands inside the region
  Engine engine = make_engine(clock, Settings{}, overhead);
  const BenchmarkResult result =
      engine.measure("overhead", [&](Bencher& b) { b.iter([&] { clock.advance(1'000'000); }); });
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 1'000'000.0);
}

TEST(Engine, IterCustomUsesTheUsersTime) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result = engine.measure("custom", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t iterations) {
      clock.advance(static_cast<std::int64_t>(iterations));  // wall time differs from reported
      return std::chrono::nanoseconds(static_cast<std::int64_t>(iterations) * 500);
    });
  });
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 500.0);
}

TEST(Engine, TestModeRunsOneIteration) {
  FakeClock clock;
  Settings settings;
  settings.test_mode = true;
  Engine engine = make_engine(clock, settings);
  int calls = 0;
  const BenchmarkResult result = engine.measure("smoke", [&](Bencher& b) {
    b.iter([&] {
      ++calls;
      clock.advance(10);
    });
  });
  EXPECT_EQ(calls, 1);
  ASSERT_EQ(result.samples.size(), 1u);
  EXPECT_EQ(result.samples[0].iters, 1u);
}

TEST(Engine, ABodyThatMeasuresNothingIsAnError) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  try {
    engine.measure("lazy", [](Bencher&) {});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("lazy measured nothing"));
  }
}

TEST(Engine, ABodyThatMeasuresTwiceIsAnError) {
  FakeClock clock;
  Settings settings;
  settings.test_mode = true;
  Engine engine = make_engine(clock, settings);
  EXPECT_THROW(engine.measure("twice",
                              [&](Bencher& b) {
                                b.iter([] {});
                                b.iter([] {});
                              }),
               std::runtime_error);
}

TEST(Engine, AnExceptionFromTheBenchmarkNamesIt) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  try {
    engine.measure("throws",
                   [](Bencher& b) { b.iter([]() -> int { throw std::logic_error("boom"); }); });
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("throws threw: boom"));
  }
}

TEST(Engine, ThroughputAndCountersAreRecorded) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  BenchmarkResult result = engine.measure("throughput", [&](Bencher& b) {
    b.throughput_bytes(1000).throughput_items(10).counter("ratio", 2.5);
    b.iter([&] { clock.advance(1000); });
  });
  analysis::compute_estimates(result);
  ASSERT_TRUE(result.estimates.bytes_per_second.has_value());
  EXPECT_DOUBLE_EQ(*result.estimates.bytes_per_second, 1e9);  // 1000 bytes per µs
  EXPECT_DOUBLE_EQ(*result.estimates.items_per_second, 1e7);
  EXPECT_DOUBLE_EQ(result.counters.at("ratio"), 2.5);
}

TEST(Engine, CounterKindsAndTheLabelAreKeptWithTheValueAsSet) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  std::uint64_t calls = 0;
  BenchmarkResult result = engine.measure("kinds", [&](Bencher& b) {
    b.counter("bytes", 1000, counter::rate | counter::base_1024).label("first");
    b.counter("ratio", 2.5, counter::rate).counter("ratio", 3.5);  // set again: plain
    b.iter([&] {
      ++calls;
      clock.advance(1000);
    });
    b.counter("calls", static_cast<double>(calls), counter::per_iteration).label("text payload");
  });
  analysis::compute_estimates(result);
  EXPECT_DOUBLE_EQ(result.counters.at("bytes"), 1000.0);
  EXPECT_EQ(result.counter_kinds.at("bytes"), counter::rate | counter::base_1024);
  EXPECT_DOUBLE_EQ(result.counters.at("ratio"), 3.5);
  EXPECT_EQ(result.counter_kinds.count("ratio"), 0u);
  EXPECT_EQ(result.label, "text payload");
  // The shown values: 1000 bytes per µs, and one call per iteration run (warm-up included).
  EXPECT_DOUBLE_EQ(*model::counter_value(result, "bytes"), 1e9);
  EXPECT_EQ(model::iterations_run(result), calls);
  EXPECT_DOUBLE_EQ(*model::counter_value(result, "calls"), 1.0);
}

TEST(Engine, AChosenWarmUpRunsWhole) {
  FakeClock clock;
  Settings settings;
  settings.choose_warm_up(50'000'000);  // as --warm-up and .warm_up() do
  Engine engine = make_engine(clock, settings);
  const BenchmarkResult result =
      engine.measure("warm", [&](Bencher& b) { b.iter([&] { clock.advance(1000); }); });
  EXPECT_GE(result.warm_up_ns, 50'000'000.0 * 0.9);
  EXPECT_GT(result.warm_up_iters, 0u);
}

TEST(Engine, OneSlowWarmUpBatchDoesNotSizeTheSamples) {
  // 1 us an iteration, except for the batches that start in the last 10 ms of the 50 ms
  // warm-up: a slow stretch (a cold file), 1 ms an iteration. Sized by the last batch alone, a
  // sample would be one iteration; sized by the median of the last batches, 1 ms of 1 us ones.
  FakeClock clock;
  Settings settings;
  settings.choose_warm_up(50'000'000);
  Engine engine = make_engine(clock, settings);
  const std::int64_t slow_from = clock.now() + 40'000'000;
  const std::int64_t slow_until = clock.now() + 50'000'000;
  const BenchmarkResult result = engine.measure("stretch", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t count) {
      const bool slow = clock.now() >= slow_from && clock.now() < slow_until;
      const std::int64_t elapsed = static_cast<std::int64_t>(count) * (slow ? 1'000'000 : 1000);
      clock.advance(elapsed);
      return std::chrono::nanoseconds(elapsed);
    });
  });
  ASSERT_FALSE(result.samples.empty());
  EXPECT_EQ(result.samples.front().iters, 1000u);
}

TEST(Engine, ACodeStillGettingFasterIsSizedAsTheWarmUpEnds) {
  // 3 us an iteration at first, 1 us from 37 ms on: the samples are sized by the last batch
  // (1 ms of 1 us iterations), not by the median of batches still slow.
  FakeClock clock;
  Settings settings;
  settings.choose_warm_up(40'000'000);
  Engine engine = make_engine(clock, settings);
  const std::int64_t fast_from = clock.now() + 37'000'000;
  const BenchmarkResult result = engine.measure("warming", [&](Bencher& b) {
    b.iter([&] { clock.advance(clock.now() < fast_from ? 3000 : 1000); });
  });
  ASSERT_FALSE(result.samples.empty());
  EXPECT_EQ(result.samples.front().iters, 1000u);
}

TEST(Engine, ByDefaultTheWarmUpEndsOnceTheCodeIsSteady) {
  // Every iteration costs the same: the growth to the sample's size (1 ms), then two batches of
  // that size that agree, far less than the 50 ms a warm-up may take.
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("steady", [&](Bencher& b) { b.iter([&] { clock.advance(1000); }); });
  EXPECT_GT(result.warm_up_iters, 0u);
  EXPECT_GE(result.warm_up_ns, 2 * 1'000'000.0 * 0.9);
  EXPECT_LT(result.warm_up_ns, 5'000'000.0);
}

}  // namespace
}  // namespace benchkit::measure

namespace benchkit::measure {
namespace {

// Reads scripted values, one per call, and counts the calls.
class ScriptedProbe final : public SpeedProbe {
 public:
  explicit ScriptedProbe(std::vector<double> script) : script_(std::move(script)) {}
  double read_ns() override {
    const double value = script_[std::min(calls, script_.size() - 1)];
    ++calls;
    return value;
  }
  std::size_t calls = 0;

 private:
  std::vector<double> script_;
};

TEST(EngineSpeedProbe, EachSampleCarriesTheSlowerReadingAroundIt) {
  FakeClock clock;
  Settings settings;
  settings.min_samples = 30;
  settings.max_samples = 30;
  // Reading k is taken before sample k and after sample k-1: sample k gets max(k, k+1).
  std::vector<double> script;
  for (int k = 0; k <= 30; ++k) script.push_back(k == 10 ? 5000.0 : 2000.0 + k);
  ScriptedProbe probe(script);
  Probes probes;
  probes.speed = &probe;
  Engine engine(clock, one_ns_clock(), Overhead{}, settings, probes);
  const BenchmarkResult result =
      engine.measure("probed", [&](Bencher& b) { b.iter([&] { clock.advance(100); }); });
  ASSERT_EQ(result.samples.size(), 30u);
  EXPECT_EQ(probe.calls, 31u);
  for (std::size_t k = 0; k < 30; ++k) {
    ASSERT_TRUE(result.samples[k].probe_ns.has_value());
    const double expected = (k == 9 || k == 10) ? 5000.0 : 2000.0 + static_cast<double>(k + 1);
    EXPECT_DOUBLE_EQ(*result.samples[k].probe_ns, expected) << "sample " << k;
  }
}

TEST(EngineProbes, WithoutProbesSamplesHaveNoReadingAndNoSwitchCount) {
  FakeClock clock;
  Engine engine = make_engine(clock);
  const BenchmarkResult result =
      engine.measure("plain", [&](Bencher& b) { b.iter([&] { clock.advance(100); }); });
  ASSERT_FALSE(result.samples.empty());
  EXPECT_FALSE(result.samples.front().probe_ns.has_value());
  EXPECT_EQ(result.samples.front().counters.count("involuntary_switches"), 0u);
}

// An engine taking exactly `samples` samples, reading the switches of a fake thread.
struct SwitchCounting {
  explicit SwitchCounting(std::size_t samples)
      : engine(clock, one_ns_clock(), Overhead{}, settings_for(samples), probes_for(usage)) {}
  static Settings settings_for(std::size_t samples) {
    Settings settings;
    settings.min_samples = samples;
    settings.max_samples = samples;
    return settings;
  }
  static Probes probes_for(benchkit::testing::FakeProcessUsage& usage) {
    Probes probes;
    probes.thread_usage = &usage;
    return probes;
  }
  FakeClock clock;
  benchkit::testing::FakeProcessUsage usage;
  Engine engine;
};

TEST(EnginePreemption, SwitchesOutsideTheTimedRegionAreNotCounted) {
  SwitchCounting fixture(20);
  auto& clock = fixture.clock;
  auto& usage = fixture.usage;
  auto& engine = fixture.engine;
  const BenchmarkResult result = engine.measure("untimed", [&](Bencher& b) {
    b.with_inputs([&] {
       // Set-up outside the timed region: a switch here belongs to no sample.
       ++usage.totals.involuntary_switches;
       return 0;
     }).bench_values([&](int) {
      clock.advance(100);
      return 0;
    });
  });
  ASSERT_EQ(result.samples.size(), 20u);
  for (const Sample& sample : result.samples) {
    ASSERT_EQ(sample.counters.count("involuntary_switches"), 1u);
    EXPECT_EQ(sample.counters.at("involuntary_switches"), 0.0);
  }
}

TEST(EnginePreemption, TimedSwitchesAreCountedAndRoutinesThatTimeThemselvesSayNothing) {
  SwitchCounting fixture(30);
  auto& clock = fixture.clock;
  auto& usage = fixture.usage;
  auto& engine = fixture.engine;
  std::uint64_t iteration = 0;
  const BenchmarkResult result = engine.measure("switched", [&](Bencher& b) {
    b.iter([&] {
      clock.advance(100);
      // One switch every 1,000 iterations, inside the timed region.
      if (++iteration % 1000 == 0) ++usage.totals.involuntary_switches;
    });
  });
  ASSERT_EQ(result.samples.size(), 30u);
  double total = 0.0;
  for (const Sample& sample : result.samples) total += sample.counters.at("involuntary_switches");
  std::uint64_t sampled_iterations = 0;
  for (const Sample& sample : result.samples) sampled_iterations += sample.iters;
  // Every switch of the sampled iterations is counted, give or take the one at each boundary.
  EXPECT_NEAR(total, static_cast<double>(sampled_iterations) / 1000.0, 30.0);
  EXPECT_GT(total, 0.0);

  const BenchmarkResult custom = engine.measure("custom", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t iterations) {
      ++usage.totals.involuntary_switches;
      clock.advance(100 * static_cast<std::int64_t>(iterations));
      return 100.0 * static_cast<double>(iterations);
    });
  });
  ASSERT_FALSE(custom.samples.empty());
  EXPECT_EQ(custom.samples.front().counters.count("involuntary_switches"), 0u)
      << "the engine did not time the routine, so it cannot say what happened inside";
}

TEST(EngineSpeedProbe, TheReferenceLoopTakesATimeOnTheRealClock) {
  auto probe = make_reference_probe(clock::steady_clock());
  // Sorting 256 integers takes over 2,000 comparisons: far above 100 ns on any CPU, and far
  // below a second on any machine that runs the tests (loose bounds: the machine is shared).
  for (int i = 0; i < 3; ++i) {
    const double reading = probe->read_ns();
    EXPECT_TRUE(std::isfinite(reading));
    EXPECT_GT(reading, 100.0);
    EXPECT_LT(reading, 1e9);
  }
}

}  // namespace
}  // namespace benchkit::measure

namespace benchkit::measure {
namespace {

// Allows a fixed number of samples and records how many iterations had run at each call.
class CountingGate final : public SampleGate {
 public:
  CountingGate(std::size_t allowed, const std::size_t& iterations_run)
      : allowed_(allowed), iterations_run_(iterations_run) {}
  bool next_sample() override {
    iterations_at_call.push_back(iterations_run_);
    return iterations_at_call.size() <= allowed_;
  }
  std::vector<std::size_t> iterations_at_call;

 private:
  std::size_t allowed_;
  const std::size_t& iterations_run_;
};

TEST(EngineGate, TheGateAloneDecidesHowManySamplesAreTaken) {
  for (const std::size_t allowed : {std::size_t{3}, std::size_t{75}}) {
    FakeClock clock;
    Settings settings;
    settings.min_samples = 30;            // more than 3: the gate overrides the minimum
    settings.max_samples = 40;            // fewer than 75: and the cap
    settings.time_budget_ns = 1'000'000;  // and a budget that 75 samples of 1 ms overrun
    std::size_t iterations = 0;
    CountingGate gate(allowed, iterations);
    Probes probes;
    probes.gate = &gate;
    Engine engine(clock, one_ns_clock(), Overhead{}, settings, probes);
    const BenchmarkResult result = engine.measure("gated", [&](Bencher& b) {
      b.iter([&] {
        ++iterations;
        clock.advance(1000);
      });
    });
    EXPECT_EQ(result.samples.size(), allowed);
    // One call per sample and the refusal that ended sampling.
    EXPECT_EQ(gate.iterations_at_call.size(), allowed + 1);
  }
}

TEST(EngineWarmUp, UntilSteadyEndsOnceTwoSampleSizedBatchesAgree) {
  FakeClock clock;
  Settings settings;
  settings.warm_up_ns = 50'000'000;
  settings.warm_up_until_steady = true;
  std::size_t iterations = 0;
  CountingGate gate(5, iterations);
  Probes probes;
  probes.gate = &gate;
  Engine engine(clock, one_ns_clock(), Overhead{}, settings, probes);
  const BenchmarkResult result = engine.measure("steady", [&](Bencher& b) {
    b.iter([&] {
      ++iterations;
      clock.advance(1000);
    });
  });
  ASSERT_EQ(result.samples.size(), 5u);
  const double sample_ns = result.samples.front().ns;
  // The growth to the sample's size, then two batches of that size: far less than 50 ms.
  EXPECT_LT(result.warm_up_ns, 4 * sample_ns);
  EXPECT_GE(result.warm_up_ns, 2 * sample_ns * 0.9);
  EXPECT_LT(result.warm_up_ns, 0.2 * static_cast<double>(settings.warm_up_ns));
}

TEST(EngineWarmUp, UntilSteadyWaitsOutACodeThatIsStillWarmingUp) {
  // A cold start that wears off: an iteration costs 3 us at first, 1 us after 20 ms, less and
  // less in between. The warm-up must not end while batches still disagree.
  FakeClock clock;
  Settings settings;
  settings.warm_up_ns = 50'000'000;
  settings.warm_up_until_steady = true;
  std::size_t iterations = 0;
  CountingGate gate(5, iterations);
  Probes probes;
  probes.gate = &gate;
  Engine engine(clock, one_ns_clock(), Overhead{}, settings, probes);
  const std::int64_t cold_until = clock.now() + 20'000'000;
  const BenchmarkResult result = engine.measure("cold", [&](Bencher& b) {
    b.iter([&] {
      ++iterations;
      const double left = static_cast<double>(std::max<std::int64_t>(0, cold_until - clock.now()));
      clock.advance(1000 + static_cast<std::int64_t>(2000.0 * left / 20'000'000.0));
    });
  });
  ASSERT_EQ(result.samples.size(), 5u);
  EXPECT_GE(result.warm_up_ns, 20'000'000.0);
  EXPECT_LT(result.warm_up_ns, 50'000'000.0);
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 1000.0);
}

TEST(EngineWarmUp, UntilSteadyStillStopsAtTheWarmUpTimeWhenNeverSteady) {
  // Batches alternate between 1 us and 1.1 us per iteration: never two within 2%.
  FakeClock clock;
  Settings settings;
  settings.warm_up_ns = 30'000'000;
  settings.warm_up_until_steady = true;
  std::size_t iterations = 0;
  CountingGate gate(3, iterations);
  Probes probes;
  probes.gate = &gate;
  Engine engine(clock, one_ns_clock(), Overhead{}, settings, probes);
  std::size_t batch = 0;
  const BenchmarkResult result = engine.measure("jumpy", [&](Bencher& b) {
    b.iter_custom([&](std::uint64_t count) {
      iterations += count;
      const std::int64_t per = (batch++ % 2 == 0) ? 1000 : 1100;
      const std::int64_t elapsed = static_cast<std::int64_t>(count) * per;
      clock.advance(elapsed);
      return std::chrono::nanoseconds(elapsed);
    });
  });
  EXPECT_GE(result.warm_up_ns, 30'000'000.0 * 0.9);
}

TEST(EngineGate, WarmUpRunsBeforeTheFirstTurnAndEachTurnIsOneSample) {
  FakeClock clock;
  std::size_t iterations = 0;
  CountingGate gate(5, iterations);
  Probes probes;
  probes.gate = &gate;
  Engine engine(clock, one_ns_clock(), Overhead{}, Settings{}, probes);
  const BenchmarkResult result = engine.measure("gated", [&](Bencher& b) {
    b.iter([&] {
      ++iterations;
      clock.advance(1000);
    });
  });
  ASSERT_EQ(result.samples.size(), 5u);
  // The warm-up had run when the first turn was asked for; between two turns exactly one
  // sample's iterations ran.
  EXPECT_EQ(gate.iterations_at_call.front(), static_cast<std::size_t>(result.warm_up_iters));
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(gate.iterations_at_call[k + 1] - gate.iterations_at_call[k], result.samples[k].iters)
        << "turn " << k;
  }
}

// A counted region that counts what the fake clock advanced while it was on: 1 ns = 1
// instruction, plus `harness` per sample.
class FakeRegion final : public clock::CountedRegion {
 public:
  explicit FakeRegion(FakeClock& clock, double harness = 0) : clock_(clock), harness_(harness) {}
  void begin_sample() override { count_ = harness_; }
  void start() override { started_ = clock_.now(); }
  void stop() override { count_ += static_cast<double>(clock_.now() - started_); }
  std::optional<clock::CountedMetrics> end_sample(const std::string& label) override {
    labels.push_back(label);
    clock::CountedMetrics metrics;
    metrics.instructions = count_;
    metrics.l1_hits = count_;
    metrics.estimated_cycles = count_;
    return metrics;
  }
  const std::string& error() const override { return error_; }
  std::vector<std::string> labels;

 private:
  FakeClock& clock_;
  double harness_;
  double count_ = 0;
  std::int64_t started_ = 0;
  std::string error_;
};

TEST(EngineCounted, OneWarmUpIterationThenFlatSamplesOfTheRegionOnly) {
  FakeClock clock;
  FakeRegion region(clock, /*harness=*/20);
  Probes probes;
  probes.region = &region;
  Settings settings;
  settings.counted_samples = 4;
  settings.counted_sample_instructions = 1000;
  Engine engine(clock, one_ns_clock(), Overhead{20, 0}, settings, probes);
  int calls = 0;
  const BenchmarkResult result = engine.measure("work", [&](Bencher& b) {
    b.with_inputs([&] {
       clock.advance(10'000);  // set-up: 100 times the routine, never counted
       return 0;
     }).bench_values([&](int) {
      clock.advance(++calls == 1 ? 5000 : 100);  // the first call initialises lazily
      return 0;
    });
  });
  ASSERT_EQ(result.samples.size(), 4u);
  EXPECT_EQ(result.warm_up_iters, 1u);
  EXPECT_DOUBLE_EQ(*result.first_iteration_ns, 5020.0);
  // Iterations chosen from the first iteration's count: 1000 / 5000, at least 1.
  for (const Sample& sample : result.samples) EXPECT_EQ(sample.iters, 1u);
  for (double value : per_iteration(result)) EXPECT_DOUBLE_EQ(value, 100.0);
  EXPECT_EQ(result.samples[0].counters.at("l1_hits"), 120.0);
  ASSERT_EQ(region.labels.size(), 5u);
  EXPECT_EQ(region.labels[0], "work (first iteration)");
  EXPECT_EQ(region.labels[4], "work (sample 4 of 4)");
}

TEST(EngineCounted, TheHarnessCalibrationReadsAnEmptyRegion) {
  FakeClock clock;
  FakeRegion region(clock, /*harness=*/37);
  EXPECT_EQ(Engine::calibrate_counted_overhead(clock, region), 37.0);
}

TEST(EngineCounted, RefusesARoutineThatTimesItself) {
  FakeClock clock;
  FakeRegion region(clock);
  Probes probes;
  probes.region = &region;
  Engine engine(clock, one_ns_clock(), Overhead{}, Settings{}, probes);
  EXPECT_THROW((void)engine.measure(
                   "custom", [](Bencher& b) { b.iter_custom([](std::uint64_t) { return 5.0; }); }),
               std::runtime_error);
}
}  // namespace
}  // namespace benchkit::measure

namespace benchkit::measure {
namespace {

// What a profiler is told, in order.
class RecordingMarkers final : public clock::ProfileMarkers {
 public:
  void begin_region() override { events.push_back("begin"); }
  void start() override { ++starts; }
  void stop() override { ++stops; }
  void end_region() override { events.push_back("end"); }
  std::vector<std::string> events;
  int starts = 0;
  int stops = 0;
};

TEST(EngineProfile, RunsTheRoutineForTheDurationBetweenTheMarks) {
  benchkit::testing::FakeClock clock;
  RecordingMarkers markers;
  ProfileRun profile{50'000'000, &markers};  // 50 ms
  Probes probes;
  probes.profile = &profile;
  Engine engine(clock, one_ns_clock(), Overhead{}, Settings{}, probes);
  int set_ups = 0;
  const BenchmarkResult result = engine.measure("p", [&](Bencher& b) {
    ++set_ups;
    b.iter([&] { clock.advance(1000); });  // 1 us an iteration
  });
  EXPECT_EQ(set_ups, 1);
  ASSERT_EQ(result.samples.size(), 1u);
  // 50 ms of 1 us iterations, give or take the last batch (batches double up to 10 ms).
  EXPECT_GE(result.samples[0].iters, 50'000u);
  EXPECT_LE(result.samples[0].iters, 70'000u);
  EXPECT_EQ(result.warm_up_iters, 1u);
  EXPECT_EQ(markers.events, (std::vector<std::string>{"begin", "end"}));
  EXPECT_EQ(markers.starts, markers.stops);
  EXPECT_GT(markers.starts, 1);
}

}  // namespace
}  // namespace benchkit::measure
