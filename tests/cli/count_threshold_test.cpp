// --count-threshold: the threshold of counts (--mode instructions) in every command that
// compares, here `benchkit compare` on two counted result files 0.5% apart, and `benchkit history
// check` on a counted run 0.5% above five identical ones. (`benchkit ab --mode instructions`:
// tests/integration/ab_counted.py.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/estimates.hpp"
#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/history_runs.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using testing::run_command;

using benchkit::testing::kTool;

// A counted run: one benchmark of `instructions` per iteration, five identical samples.
RunResult counted_run(double instructions) {
  RunResult run;
  BenchmarkResult benchmark;
  benchmark.name = "counted";
  benchmark.metric = "instructions";
  for (int i = 0; i < 5; ++i) {
    Sample sample;
    sample.iters = 10;
    sample.ns = 10 * instructions;
    benchmark.samples.push_back(sample);
  }
  analysis::compute_estimates(benchmark);
  run.benchmarks.push_back(std::move(benchmark));
  return run;
}

std::string verdict_of(const std::string& json) {
  const auto document = nlohmann::json::parse(json, nullptr, false);
  if (!document.is_object() || document["benchmarks"].empty()) return "(none)";
  return document["benchmarks"][0]["verdict"].get<std::string>();
}

TEST(CountThreshold, DecidesWhetherASmallChangeOfACountIsAVerdict) {
  const std::string dir = "/tmp/benchkit-count-threshold-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(
      store::write_file_atomically(dir + "/old.json", formats::to_json(counted_run(100000))));
  ASSERT_TRUE(
      store::write_file_atomically(dir + "/new.json", formats::to_json(counted_run(100500))));
  const std::string compare =
      kTool + " compare " + dir + "/old.json " + dir + "/new.json --format json";
  // +0.5%: over the default 0.1%, under a threshold of 1%.
  const auto by_default = run_command(compare);
  EXPECT_EQ(verdict_of(by_default.out), "regressed") << by_default.out << by_default.err;
  const auto wider = run_command(compare + " --count-threshold 0.01");
  EXPECT_EQ(verdict_of(wider.out), "unchanged") << wider.out << wider.err;
  // The time threshold does not move a count's verdict.
  const auto time_threshold = run_command(compare + " --noise-threshold 0.5");
  EXPECT_EQ(verdict_of(time_threshold.out), "regressed") << time_threshold.out;
  const auto bad = run_command(compare + " --count-threshold 2");
  EXPECT_EQ(bad.exit_code, 2);
  std::filesystem::remove_all(dir);
}

// A counted run recorded as if on `commit` of `branch`: the made-up run's context (machine,
// date) with one benchmark of `instructions` per iteration.
RunResult counted_commit(const std::string& commit, const std::string& branch, int day,
                         double instructions) {
  RunResult run = benchkit::testing::made_run({.commit = commit,
                                               .branch = branch,
                                               .date = fmt::format("2026-11-{:02}T00:00:00Z", day),
                                               .benchmarks = 0,
                                               .seed = static_cast<std::uint64_t>(day)});
  run.benchmarks = counted_run(instructions).benchmarks;
  return run;
}

TEST(CountThreshold, HistoryCheckJudgesACountWithTheCountThreshold) {
  const std::string dir = "/tmp/benchkit-count-threshold-history-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string store = dir + "/history.db";
  std::string files;
  for (int day = 1; day <= 5; ++day) {
    const std::string path = fmt::format("{}/main{}.json", dir, day);
    ASSERT_TRUE(store::write_file_atomically(
        path, formats::to_json(counted_commit(fmt::format("m{}", day), "main", day, 100000))));
    files += " " + path;
  }
  ASSERT_TRUE(store::write_file_atomically(
      dir + "/topic.json", formats::to_json(counted_commit("t1", "topic", 9, 100500))));
  files += " " + dir + "/topic.json";
  const auto added = run_command(kTool + " history add" + files + " --store " + store);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  const std::string check =
      kTool + " history check --base-branch main --format json --store " + store;
  // +0.5% over five identical counts: regressed at the default 0.1% (the time threshold, 2%,
  // would call it unchanged), unchanged at 1%.
  const auto by_default = run_command(check);
  EXPECT_EQ(verdict_of(by_default.out), "regressed") << by_default.out << by_default.err;
  const auto wider = run_command(check + " --count-threshold 0.01");
  EXPECT_EQ(verdict_of(wider.out), "unchanged") << wider.out << wider.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace benchkit::cli
