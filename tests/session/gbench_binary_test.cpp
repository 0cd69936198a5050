#include "session/gbench_binary.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kSuite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite";
const std::string kSlower = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite_slower";
const std::string kBenchkitBinary = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
// Short runs: these tests check what is run and merged, not how fast anything is.
const std::vector<std::string> kQuick = {"--benchmark_min_time=0.005"};

TEST(GbenchBinary, RecognisesAGoogleBenchmarkBinaryBeforeRunningIt) {
  EXPECT_TRUE(links_google_benchmark(kSuite));
  EXPECT_FALSE(links_google_benchmark(kBenchkitBinary));
  EXPECT_FALSE(links_google_benchmark("/bin/sh"));
  EXPECT_FALSE(links_google_benchmark("/no/such/file"));
}

TEST(GbenchBinary, ListsTheSuitesBenchmarks) {
  const auto names = list_gbench_benchmarks(kSuite);
  ASSERT_TRUE(names) << names.error().message;
  EXPECT_THAT(*names, ElementsAre("BM_sum", "BM_accumulate/4096"));
  const auto not_one = list_gbench_benchmarks("/bin/false");
  ASSERT_FALSE(not_one);
  EXPECT_THAT(not_one.error().message, HasSubstr("exited with status 1"));
}

TEST(GbenchBinary, ExactFilterMatchesOnlyThatName) {
  const std::regex filter(exact_gbench_filter("BM_x<int>/8/threads:2"));
  EXPECT_TRUE(std::regex_match("BM_x<int>/8/threads:2", filter));
  EXPECT_FALSE(std::regex_match("BM_x<int>/8/threads:20", filter));
  EXPECT_EQ(exact_gbench_filter("a.b(c)"), "^a\\.b\\(c\\)$");
}

TEST(GbenchBinary, FreshProcessesAreMergedWithTheProcessAsUnit) {
  GbenchProcesses plan;
  plan.executable = kSuite;
  plan.processes = 2;
  plan.flags = kQuick;
  plan.flags.push_back("--benchmark_repetitions=2");
  std::size_t started = 0;
  plan.progress = [&](std::size_t, std::size_t) { ++started; };
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(started, 2u);
  ASSERT_EQ(run->benchmarks.size(), 2u);
  const BenchmarkResult& sum = run->benchmarks[0];
  EXPECT_EQ(sum.name, "BM_sum");
  ASSERT_EQ(sum.samples.size(), 4u);  // 2 processes × 2 repetitions
  std::multiset<std::uint32_t> processes;
  for (const Sample& sample : sum.samples) processes.insert(sample.process);
  EXPECT_EQ(processes, (std::multiset<std::uint32_t>{0, 0, 1, 1}));
  EXPECT_GT(sum.estimates.median.value, 0.0);
  EXPECT_EQ(sum.items_per_iteration, std::optional<std::uint64_t>(2000));
}

TEST(GbenchBinary, AProcessThatFailsNamesItself) {
  GbenchProcesses plan;
  plan.executable = kSuite;
  plan.processes = 1;
  plan.flags = {"--benchmark_no_such_flag"};
  const auto run = run_gbench_processes(plan);
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("process 1 of 1"));
}

TEST(GbenchBinary, SideBySideRoundsArePairedAndAMissingBenchmarkFails) {
  GbenchSideBySide plan;
  plan.baseline_executable = kSuite;
  plan.candidate_executable = kSlower;
  plan.benchmarks = {"BM_sum", "BM_missing"};
  plan.rounds = 2;
  plan.flags = kQuick;
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), 2u);
    const BenchmarkResult& sum = side->benchmarks[0];
    ASSERT_EQ(sum.samples.size(), 2u);
    EXPECT_EQ(sum.samples[0].round, std::optional<std::uint32_t>(0));
    EXPECT_EQ(sum.samples[1].round, std::optional<std::uint32_t>(1));
    EXPECT_FALSE(side->benchmarks[1].valid());
    EXPECT_THAT(side->benchmarks[1].failures.at(0), HasSubstr("has no benchmark named BM_missing"));
  }
  EXPECT_EQ(runs->baseline.context.executable, kSuite);
  EXPECT_EQ(runs->candidate.context.executable, kSlower);
}

}  // namespace
}  // namespace benchkit::session
