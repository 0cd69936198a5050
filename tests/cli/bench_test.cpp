// benchkit::Bench, the programmatic front, on the real clock (loose checks only).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "benchkit/benchkit.hpp"

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

}  // namespace
