// benchkit run --mode instructions (a bench binary, and a whole command with its children) and
// benchkit noise --mode instructions (the two orders), with real valgrind. Labelled `valgrind`
// (see counted_run_test.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kCountedBench;
using benchkit::testing::kTool;

std::string temp_file(const std::string& name) {
  return "/tmp/benchkit-counted-cmd-" + std::to_string(::getpid()) + "-" + name;
}

RunResult load(const std::string& path) {
  const auto text = store::read_file(path);
  EXPECT_TRUE(text) << path;
  if (!text) return {};
  auto parsed = formats::from_json(*text, path);
  EXPECT_TRUE(parsed);
  std::filesystem::remove(path);
  return parsed ? parsed->run : RunResult{};
}

TEST(CountedCommand, AWholeCommandIsCountedTheSameInEveryRun) {
  const std::string out = temp_file("true.json");
  const auto result = run_command(
      kTool + " run --mode instructions --runs 2 --quiet --export-json " + out + " -- /bin/true");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = load(out);
  ASSERT_EQ(run.benchmarks.size(), 1u);
  const BenchmarkResult& counted = run.benchmarks.front();
  EXPECT_EQ(counted.metric, "instructions");
  EXPECT_EQ(counted.kind, "command");
  ASSERT_EQ(counted.samples.size(), 2u);
  // /bin/true: the dynamic loader and libc's start-up, some tens of thousands of instructions.
  EXPECT_GT(counted.samples[0].ns, 10'000.0);
  EXPECT_EQ(counted.samples[0].ns, counted.samples[1].ns);
  EXPECT_EQ(counted.samples[0].counters.at("processes"), 1.0);
}

TEST(CountedCommand, ChildrenAreTraced) {
  const std::string out = temp_file("sh.json");
  // The shell forks a child for the first /bin/true and the child execs it.
  const auto result =
      run_command(kTool + " run --mode instructions --runs 1 --quiet --export-json " + out +
                  " -- /bin/sh -c '/bin/true; /bin/true'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = load(out);
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_GE(run.benchmarks.front().samples.at(0).counters.at("processes"), 2.0);
}

TEST(CountedCommand, AFailingCommandIsReported) {
  const auto result =
      run_command(kTool + " run --mode instructions --runs 1 --quiet -- /bin/false");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("/bin/false"));
}

TEST(CountedCommand, ABenchBinaryCountsItsBenchmarks) {
  const std::string out = temp_file("bench.json");
  const auto result = run_command(kTool + " run --mode instructions --quiet " + kCountedBench +
                                  " -- --filter steady --sample-size 2 --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = load(out);
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks.front().metric, "instructions");
}

TEST(CountOrder, NoiseFindsTheBenchmarkWhoseCountDependsOnTheOrder) {
  const auto result = run_command(kTool + " noise --mode instructions --format json " +
                                  kCountedBench + " -- --filter order_ --sample-size 1");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out, nullptr, false);
  ASSERT_TRUE(json.is_object()) << result.out;
  std::map<std::string, bool> moved;
  for (const auto& row : json["benchmarks"]) moved[row["name"]] = row["moved"].get<bool>();
  ASSERT_EQ(moved.size(), 2u) << result.out;
  EXPECT_TRUE(moved["order_walks_table"]) << result.out;
  EXPECT_FALSE(moved["order_fills_table"]) << result.out;
  EXPECT_EQ(json["moved"], 1);
}

}  // namespace
}  // namespace benchkit
