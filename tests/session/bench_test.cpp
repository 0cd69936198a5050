// benchkit::Bench, the programmatic front, on the real clock (loose checks only). It includes the
// headers it uses, not the umbrella, so that bench.hpp stays usable on its own.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>
#include <type_traits>
#include <utility>
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
  // The durations' getters give nanoseconds (bench.hpp does without <chrono>).
  EXPECT_EQ(bench.time_budget(), 1'000'000'000);
  EXPECT_EQ(bench.warm_up(), 50'000'000);
  EXPECT_DOUBLE_EQ(bench.precision(), 0.01);
  bench.sample_size(10).time_budget(std::chrono::milliseconds(30)).seed(9).precision(0.05);
  bench.warm_up(std::chrono::microseconds(250));
  EXPECT_EQ(bench.time_budget(), 30'000'000);
  EXPECT_EQ(bench.warm_up(), 250'000);
  EXPECT_EQ(bench.sample_size(), 10u);
  EXPECT_EQ(bench.seed(), 9u);
  EXPECT_THROW(bench.precision(0), std::invalid_argument);
}

TEST(Bench, MovesItsSettingsWithIt) {
  benchkit::Bench first;
  first.sample_size(7).time_budget(std::chrono::seconds(3));
  benchkit::Bench second(std::move(first));
  EXPECT_EQ(second.sample_size(), 7u);
  EXPECT_EQ(second.time_budget(), 3'000'000'000);
  benchkit::Bench third;
  third = std::move(second);
  EXPECT_EQ(third.sample_size(), 7u);
  third = benchkit::Bench();  // frees the settings it held (the sanitizer build would say)
  EXPECT_EQ(third.sample_size(), 30u);
  static_assert(!std::is_copy_constructible_v<benchkit::Bench>);
  static_assert(std::is_nothrow_move_assignable_v<benchkit::Bench>);
}

void plain_function_body(benchkit::Bencher& b) {
  b.iter([] { return benchkit::black_box(2) + 2; });
}

TEST(Bench, RunTakesAFunctionAndAStdFunctionAsWellAsALambda) {
  benchkit::Bench bench;
  bench.test_mode(true);
  EXPECT_FALSE(bench.run("function", plain_function_body).samples.empty());
  EXPECT_FALSE(bench.run("pointer", &plain_function_body).samples.empty());
  int calls = 0;
  const std::function<void(benchkit::Bencher&)> wrapped = [&calls](benchkit::Bencher& b) {
    ++calls;
    plain_function_body(b);
  };
  EXPECT_FALSE(bench.run("std::function", wrapped).samples.empty());
  EXPECT_EQ(calls, 1);
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

void registered_skippable_for_bench_test(benchkit::Bencher& b, int n) {
  b.iter([&] { return benchkit::black_box(n) + 1; });
}
BENCHKIT(registered_skippable_for_bench_test)
    .param("n", {1, 2})
    .skip_when("ci", "varies 8% between runners");
void registered_kept_for_bench_test(benchkit::Bencher& b) {
  b.iter([] { return benchkit::black_box(3) * 3; });
}
BENCHKIT(registered_kept_for_bench_test).skip_when("nightly", "only at night");

TEST(Bench, SkipTagsLeaveOutRegisteredBenchmarksWithTheirReason) {
  benchkit::Bench bench;
  bench.test_mode(true);
  EXPECT_TRUE(bench.skip_tags().empty());
  const std::string filter = "^registered_(skippable|kept)_for_bench_test";
  // Without the tag every benchmark runs, as a local run does.
  const benchkit::RunResult all = bench.run_registered(filter);
  ASSERT_EQ(all.benchmarks.size(), 3u);
  for (const auto& benchmark : all.benchmarks) {
    EXPECT_FALSE(benchmark.skipped.has_value()) << benchmark.name;
    EXPECT_FALSE(benchmark.samples.empty()) << benchmark.name;
  }
  bench.skip_tags({"ci"});
  EXPECT_EQ(bench.skip_tags(), std::vector<std::string>{"ci"});
  const benchkit::RunResult run = bench.run_registered(filter);
  ASSERT_EQ(run.benchmarks.size(), 3u);
  EXPECT_EQ(run.benchmarks[0].name, "registered_kept_for_bench_test");  // measured ones first
  EXPECT_FALSE(run.benchmarks[0].samples.empty());
  EXPECT_FALSE(run.benchmarks[0].skipped.has_value());
  for (std::size_t i = 1; i < 3; ++i) {
    const auto& skipped = run.benchmarks[i];
    EXPECT_EQ(skipped.name, "registered_skippable_for_bench_test/n=" + std::to_string(i));
    ASSERT_TRUE(skipped.skipped.has_value()) << skipped.name;
    EXPECT_EQ(skipped.skipped->tag, "ci");
    EXPECT_EQ(skipped.skipped->reason, "varies 8% between runners");
    EXPECT_TRUE(skipped.samples.empty());
    EXPECT_EQ(skipped.params.at("n"), std::to_string(i));
  }
}

TEST(Bench, RunWithSkipRulesDoesNotCallTheBodyWhenATagMatches) {
  benchkit::Bench bench;
  bench.test_mode(true);
  int calls = 0;
  const auto body = [&](benchkit::Bencher& b) {
    ++calls;
    b.iter([] { return benchkit::black_box(1); });
  };
  const std::vector<benchkit::SkipRule> rules = {{"arm", "no NEON yet"}, {"ci", "page cache"}};
  // No tag of the rules is set: it runs.
  const auto measured = bench.run("decode", body, rules);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(measured.skipped.has_value());
  EXPECT_FALSE(measured.samples.empty());
  // The first rule whose tag is set gives the tag and the reason.
  bench.skip_tags({"ci", "arm"});
  const auto skipped = bench.run("decode", body, rules);
  EXPECT_EQ(calls, 1) << "a skipped benchmark's body is not called";
  EXPECT_EQ(skipped.name, "decode");
  EXPECT_EQ(skipped.kind, "micro");
  ASSERT_TRUE(skipped.skipped.has_value());
  EXPECT_EQ(skipped.skipped->tag, "arm");
  EXPECT_EQ(skipped.skipped->reason, "no NEON yet");
  EXPECT_TRUE(skipped.samples.empty());

  int set_ups = 0;
  const auto phases =
      bench.run_scenario("load", [&](benchkit::Scenario& s) { ++set_ups, s.phase("read", [] {}); },
                         {{"ci", "needs the nightly data set"}});
  EXPECT_EQ(set_ups, 0);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].name, "load");
  EXPECT_EQ(phases[0].kind, "scenario");
  ASSERT_TRUE(phases[0].skipped.has_value());
  EXPECT_EQ(phases[0].skipped->reason, "needs the nightly data set");
}

TEST(Bench, SkipRulesAreCheckedAsSkipWhenChecksThem) {
  benchkit::Bench bench;
  const auto body = [](benchkit::Bencher& b) { b.iter([] { return 1; }); };
  EXPECT_THROW(bench.run("x", body, {{"not a word", "reason"}}), std::invalid_argument);
  EXPECT_THROW(bench.run("x", body, {{"ci", ""}}), std::invalid_argument);
}

}  // namespace
