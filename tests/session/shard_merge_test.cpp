#include "session/shard_merge.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/error.hpp"

namespace benchkit::session {
namespace {

Sample sample(double ns) {
  Sample one;
  one.iters = 10;
  one.ns = ns;
  return one;
}

Failure crash() {
  Failure failure;
  failure.cause = Failure::Cause::crashed;
  return failure;
}

using ::testing::ElementsAre;
using ::testing::HasSubstr;

BenchmarkResult benchmark(const std::string& name) {
  BenchmarkResult result;
  result.name = name;
  result.samples = {sample(100), sample(110)};
  return result;
}

// Shard `index` of `count` on one machine, build and commit, holding `names`.
ShardFile shard(std::uint32_t index, std::uint32_t count, std::vector<std::string> names) {
  ShardFile file;
  file.path = "shard-" + std::to_string(index) + ".json";
  Context& context = file.run.context;
  context.date = "2026-12-03T10:0" + std::to_string(index) + ":00Z";
  context.hostname = "runner";
  context.cpu_model = "Example CPU";
  context.logical_cpus = 4;
  context.git_commit = "abc123";
  context.executable_sha256 = "feedbeef00112233445566778899";
  context.shard = Shard{index, count, "count", names.size(), 5};
  for (const std::string& name : names) file.run.benchmarks.push_back(benchmark(name));
  return file;
}

std::vector<std::string> names_of(const RunResult& run) {
  std::vector<std::string> names;
  for (const BenchmarkResult& b : run.benchmarks) names.push_back(b.name);
  return names;
}

TEST(ShardMerge, JoinsShardsInShardOrderIntoOneRun) {
  auto merged = merge_shard_runs({shard(2, 2, {"c", "d"}), shard(1, 2, {"a", "b", "e"})}, false);
  // (each shard records 5 selected: all five are here)
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_THAT(names_of(merged->run), ElementsAre("a", "b", "e", "c", "d"));
  EXPECT_FALSE(merged->run.context.shard);
  EXPECT_EQ(merged->run.context.date, "2026-12-03T10:01:00Z");  // the earliest
  EXPECT_EQ(merged->run.context.git_commit, "abc123");
  EXPECT_FALSE(merged->incomplete());
  EXPECT_TRUE(merged->run.benchmarks.front().machine.empty());  // one machine: the context's
}

TEST(ShardMerge, RefusesOverlappingShardsNamingBothFiles) {
  const auto merged = merge_shard_runs({shard(1, 2, {"a", "b"}), shard(2, 2, {"b", "c"})}, false);
  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().kind, model::ErrorKind::input);
  EXPECT_THAT(merged.error().message, HasSubstr("shard-1.json and shard-2.json"));
  EXPECT_THAT(merged.error().message, HasSubstr("\"b\""));
}

TEST(ShardMerge, RefusesDifferentBuildsAndCommits) {
  ShardFile other_build = shard(2, 2, {"c"});
  other_build.run.context.executable_sha256 = "0123456789abcdef0123";
  auto merged = merge_shard_runs({shard(1, 2, {"a"}), other_build}, false);
  ASSERT_FALSE(merged);
  EXPECT_THAT(merged.error().message, HasSubstr("different builds"));
  EXPECT_THAT(merged.error().message, HasSubstr("shard-1.json and shard-2.json"));
  ShardFile other_commit = shard(2, 2, {"c"});
  other_commit.run.context.git_commit = "def456";
  merged = merge_shard_runs({shard(1, 2, {"a"}), other_commit}, false);
  ASSERT_FALSE(merged);
  EXPECT_THAT(merged.error().message, HasSubstr("different commits (abc123 and def456)"));
}

TEST(ShardMerge, RefusesShardsOfDifferentSplits) {
  const auto merged = merge_shard_runs({shard(1, 2, {"a"}), shard(2, 3, {"c"})}, false);
  ASSERT_FALSE(merged);
  EXPECT_THAT(merged.error().message, HasSubstr("shard 1/2 (by count)"));
  EXPECT_THAT(merged.error().message, HasSubstr("shard 2/3 (by count)"));
}

TEST(ShardMerge, MixedMachinesOnlyWhenAllowedAndThenEachBenchmarkKeepsItsMachine) {
  ShardFile elsewhere = shard(2, 2, {"c"});
  elsewhere.run.context.hostname = "other-runner";
  elsewhere.run.context.cpu_model = "Other CPU";
  elsewhere.run.context.logical_cpus = 64;
  const auto refused = merge_shard_runs({shard(1, 2, {"a"}), elsewhere}, false);
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("--allow-mixed-machines"));
  const auto merged = merge_shard_runs({shard(1, 2, {"a"}), elsewhere}, true);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(merged->run.benchmarks[0].machine.at("hostname"), "runner");
  EXPECT_EQ(merged->run.benchmarks[1].machine.at("hostname"), "other-runner");
  EXPECT_NE(merged->run.benchmarks[0].machine.at("fingerprint"),
            merged->run.benchmarks[1].machine.at("fingerprint"));
}

TEST(ShardMerge, NamesAMissingShardAndAFailedBenchmark) {
  ShardFile crashed = shard(3, 4, {"d", "e"});
  crashed.run.benchmarks[1].samples.clear();
  crashed.run.benchmarks[1].failure = crash();
  const auto merged =
      merge_shard_runs({shard(1, 4, {"a"}), shard(2, 4, {"b", "c"}), crashed}, false);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_THAT(merged->missing, ElementsAre(HasSubstr("shard 4/4")));
  ASSERT_EQ(merged->failed.size(), 1u);
  EXPECT_THAT(merged->failed[0], HasSubstr("e (shard-3.json): crashed"));
  EXPECT_TRUE(merged->incomplete());
  ASSERT_FALSE(merged->run.context.warnings.empty());
  EXPECT_EQ(merged->run.context.warnings.back().code, "shards_missing");
}

TEST(ShardMerge, NamesBenchmarksNoShardHeld) {
  // Shards of 5 selected benchmarks holding 4: split differently (another history read).
  const auto merged = merge_shard_runs({shard(1, 2, {"a", "b"}), shard(2, 2, {"c", "d"})}, false);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_THAT(merged->missing, ElementsAre(HasSubstr("1 of the 5 selected benchmarks")));
}

TEST(ShardMerge, RefusesNothingToMerge) {
  const auto merged = merge_shard_runs({}, false);
  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().kind, model::ErrorKind::input);
}

}  // namespace
}  // namespace benchkit::session
