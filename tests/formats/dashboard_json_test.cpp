#include "formats/dashboard_json.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/sample_run.hpp"

namespace benchkit::formats {
namespace {

TEST(DashboardJson, BencherMetricFormatMatchesTheGoldenFile) {
  testing::expect_golden("bmf.json", to_bmf_json(testing::sample_run()));
}

TEST(DashboardJson, BencherLatencyIsTheMedianWithItsInterval) {
  const RunResult run = testing::sample_run();
  const auto document = nlohmann::json::parse(to_bmf_json(run));
  const Estimate& median = run.benchmarks[0].estimates.median;
  const auto& latency = document[run.benchmarks[0].name]["latency"];
  EXPECT_DOUBLE_EQ(latency["value"].get<double>(), median.value);
  EXPECT_DOUBLE_EQ(latency["lower_value"].get<double>(), median.lower);
  EXPECT_DOUBLE_EQ(latency["upper_value"].get<double>(), median.upper);
  // Items per second: the slower bound of the time is the lower bound of the rate.
  const BenchmarkResult& sort = run.benchmarks[1];
  const auto& throughput = document[sort.name]["throughput"];
  EXPECT_LE(throughput["lower_value"].get<double>(), throughput["value"].get<double>());
  EXPECT_GE(throughput["upper_value"].get<double>(), throughput["value"].get<double>());
}

TEST(DashboardJson, GithubActionMatchesTheGoldenFile) {
  testing::expect_golden("github_action.json", to_github_action_json(testing::sample_run()));
}

TEST(DashboardJson, FailedBenchmarksAreLeftOut) {
  RunResult run = testing::sample_run();
  run.benchmarks[0].failures.push_back("crashed");
  EXPECT_FALSE(nlohmann::json::parse(to_bmf_json(run)).contains(run.benchmarks[0].name));
  const auto entries = nlohmann::json::parse(to_github_action_json(run));
  ASSERT_EQ(entries.size(), run.benchmarks.size() - 1);
  for (const auto& entry : entries) EXPECT_NE(entry["name"], run.benchmarks[0].name);
}

}  // namespace
}  // namespace benchkit::formats
