// benchkit::Bench, the programmatic front, on the real clock (loose checks only). It includes the
// headers it uses, not the umbrella, so that bench.hpp stays usable on its own.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "benchkit/bench.hpp"
#include "benchkit/black_box.hpp"
#include "benchkit/registry.hpp"
#include "benchkit/scenario.hpp"

namespace {

void registered_for_bench_test(benchkit::Bencher& b, int n) {
  b.iter([&] { return benchkit::black_box(n) * 2; });
}
BENCHKIT(registered_for_bench_test).param("n", {1, 2});

TEST(Bench, SettersAndGettersShareNamesAndDefaults) {
  benchkit::Bench bench;
  EXPECT_EQ(bench.sample_size(), 30u);
  EXPECT_EQ(bench.time_budget(), std::chrono::seconds(1));
  EXPECT_EQ(bench.warm_up(), std::chrono::milliseconds(50));
  EXPECT_DOUBLE_EQ(bench.precision(), 0.01);
  bench.sample_size(10).time_budget(std::chrono::milliseconds(30)).seed(9).precision(0.05);
  EXPECT_EQ(bench.sample_size(), 10u);
  EXPECT_EQ(bench.seed(), 9u);
  EXPECT_THROW(bench.precision(0), std::invalid_argument);
}

TEST(Bench, RunsOneCallable) {
  benchkit::Bench bench;
  bench.time_budget(std::chrono::milliseconds(50)).warm_up(std::chrono::milliseconds(1));
  const benchkit::BenchmarkResult result = bench.run("sleepy", [](benchkit::Bencher& b) {
    b.iter([] { std::this_thread::sleep_for(std::chrono::microseconds(200)); });
  });
  EXPECT_EQ(result.name, "sleepy");
  ASSERT_FALSE(result.samples.empty());
  // A sleep lasts at least what was asked; the upper side is left to the machine.
  EXPECT_GE(result.estimates.median.value, 200'000.0);
  EXPECT_LE(result.estimates.median.lower, result.estimates.median.value);
}

TEST(Bench, RunsRegisteredBenchmarksByFilter) {
  benchkit::Bench bench;
  bench.test_mode(true);
  const benchkit::RunResult run = bench.run_registered("^registered_for_bench_test/");
  ASSERT_EQ(run.benchmarks.size(), 2u);
  EXPECT_EQ(run.benchmarks[1].name, "registered_for_bench_test/n=2");
  EXPECT_EQ(run.benchmarks[1].params.at("n"), "2");
  EXPECT_FALSE(run.context.date.empty());
}

void registered_scenario_for_bench_test(benchkit::Scenario& s, int items) {
  std::vector<int> values;
  s.phase("fill", {.items = items}, [&] { values.assign(static_cast<std::size_t>(items), 1); });
  s.verify(values.size() == static_cast<std::size_t>(items), "every item was filled");
}
BENCHKIT_SCENARIO(registered_scenario_for_bench_test).param("items", {1000});

TEST(Bench, RunsAScenarioOncePerRepetition) {
  benchkit::Bench bench;
  EXPECT_EQ(bench.repetitions(), 1u);
  EXPECT_THROW(bench.repetitions(0), std::invalid_argument);
  bench.repetitions(3);
  int set_ups = 0;
  const auto phases = bench.run_scenario("sleepy", [&](benchkit::Scenario& s) {
    ++set_ups;
    s.phase("nap", {.items = 1}, [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
    s.phase("wake", [] {});
  });
  EXPECT_EQ(set_ups, 3);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].name, "sleepy/nap");
  ASSERT_EQ(phases[0].samples.size(), 3u);
  EXPECT_GE(phases[0].estimates.median.value, 1e6) << "a sleep lasts at least what was asked";
  EXPECT_TRUE(phases[0].estimates.items_per_second.has_value());
  EXPECT_TRUE(phases[0].samples[0].resources->user_ns.has_value());
}

TEST(Bench, RunsRegisteredScenariosWithTheirParameters) {
  benchkit::Bench bench;
  const benchkit::RunResult run = bench.run_registered("^registered_scenario_for_bench_test/");
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].name, "registered_scenario_for_bench_test/items=1000/fill");
  EXPECT_EQ(run.benchmarks[0].kind, "scenario");
  EXPECT_EQ(run.benchmarks[0].params.at("items"), "1000");
  EXPECT_TRUE(run.benchmarks[0].valid());
}

}  // namespace
