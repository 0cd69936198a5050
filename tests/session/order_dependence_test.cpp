#include "session/order_dependence.hpp"

#include <gtest/gtest.h>

#include "analysis/estimates.hpp"

namespace benchkit::session {
namespace {

BenchmarkResult counted(const std::string& name, double per_iteration) {
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

TEST(OrderDependence, CountsForwardThenReverseThroughTheGivenCounter) {
  std::vector<std::string> orders;
  const CountInOrder fake = [&](const std::string& order) -> model::Result<RunResult> {
    orders.push_back(order);
    RunResult run;
    // b counts more once a ran before it: the order check must say so.
    run.benchmarks = order == "forward"
                         ? std::vector<BenchmarkResult>{counted("a", 1000), counted("b", 5500)}
                         : std::vector<BenchmarkResult>{counted("b", 5000), counted("a", 1000)};
    return run;
  };
  const auto report = measure_order_dependence(fake, 0.001);
  ASSERT_TRUE(report);
  EXPECT_EQ(orders, (std::vector<std::string>{"forward", "reverse"}));
  EXPECT_EQ(report->moved(), 1u);
  EXPECT_TRUE(report->benchmarks[1].moved);
  EXPECT_EQ(report->benchmarks[1].name, "b");
}

TEST(OrderDependence, AnOrderThatFailsToRunIsTheError) {
  std::vector<std::string> orders;
  const CountInOrder fake = [&](const std::string& order) -> model::Result<RunResult> {
    orders.push_back(order);
    if (order == "forward") return RunResult{};
    return model::Error{"./bench --counted-order reverse did not run (killed by SIGSEGV)",
                        model::ErrorKind::failed};
  };
  const auto report = measure_order_dependence(fake, 0.001);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("reverse"), std::string::npos);
  EXPECT_EQ(orders.size(), 2u);
}

}  // namespace
}  // namespace benchkit::session
