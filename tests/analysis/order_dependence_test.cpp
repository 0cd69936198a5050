#include "analysis/order_dependence.hpp"

#include <gtest/gtest.h>

#include "analysis/estimates.hpp"

namespace benchkit::analysis {
namespace {

BenchmarkResult counted_benchmark(const std::string& name, double per_iteration) {
  BenchmarkResult result;
  result.name = name;
  result.metric = "instructions";
  for (int i = 0; i < 3; ++i) {
    Sample sample;
    sample.iters = 4;
    sample.ns = 4 * per_iteration;
    result.samples.push_back(sample);
  }
  analysis::compute_estimates(result);
  return result;
}

TEST(OrderDependence, ACountThatMovesBeyondTheThresholdIsOrderDependent) {
  RunResult forward;
  forward.benchmarks = {counted_benchmark("a", 1000), counted_benchmark("b", 5000),
                        counted_benchmark("c", 200)};
  RunResult reverse;
  reverse.benchmarks = {counted_benchmark("c", 200), counted_benchmark("b", 4000),
                        counted_benchmark("a", 1000.5)};
  const OrderReport report = compare_orders(forward, reverse, 0.001);
  ASSERT_EQ(report.benchmarks.size(), 3u);
  EXPECT_EQ(report.benchmarks[0].name, "a");
  EXPECT_FALSE(report.benchmarks[0].moved);  // +0.05%: within 0.1%
  EXPECT_TRUE(report.benchmarks[1].moved);
  EXPECT_NEAR(report.benchmarks[1].change, -0.2, 1e-12);
  EXPECT_FALSE(report.benchmarks[2].moved);
  EXPECT_EQ(report.moved(), 1u);
  EXPECT_TRUE(report.missing.empty());
}

TEST(OrderDependence, ABenchmarkCountedInOneOrderOnlyIsMissing) {
  RunResult forward;
  forward.benchmarks = {counted_benchmark("a", 1000), counted_benchmark("b", 10)};
  RunResult reverse;
  reverse.benchmarks = {counted_benchmark("a", 1000)};
  BenchmarkResult failed = counted_benchmark("b", 10);
  failed.failure = Failure{};
  reverse.benchmarks.push_back(failed);
  const OrderReport report = compare_orders(forward, reverse, 0.001);
  EXPECT_EQ(report.benchmarks.size(), 1u);
  ASSERT_EQ(report.missing.size(), 1u);
  EXPECT_EQ(report.missing[0], "b");
}

}  // namespace
}  // namespace benchkit::analysis
