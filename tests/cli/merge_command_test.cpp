// --shard K/N on a real bench binary and `benchkit run`, and `benchkit merge` of the shards'
// files, read back by report, compare, --html and history add (docs/ci.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/run_command.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

const std::string kTool = std::string(BENCHKIT_BINARY_DIR) + "/benchkit";
const std::string kBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
const std::string kFast = " --time-budget 20ms --warm-up 1ms --sample-size 5 --quiet";

std::set<std::string> lines(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void write_json(const std::string& path, const nlohmann::json& document) {
  std::ofstream(path) << document.dump(2);
}

class MergeCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-merge-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string path(const std::string& name) const { return folder_ + "/" + name; }

  // Shard K of 2 of `add` and `copy_string`, measured into shard-K.json.
  void measure_shards() {
    for (const int k : {1, 2}) {
      const auto ran = run_command(kBench + kFast + " --filter 'add|copy' --shard " +
                                   std::to_string(k) + "/2 --out " + path(shard_file(k)));
      ASSERT_EQ(ran.exit_code, 0) << ran.err;
    }
  }
  static std::string shard_file(int k) { return "shard-" + std::to_string(k) + ".json"; }
  std::string merge(const std::string& files) const {
    return kTool + " merge " + files + " --out " + path("merged.json");
  }
  std::string folder_;
};

TEST_F(MergeCommand, ShardsOfABenchBinaryAreDisjointAndCompleteForEveryN) {
  const std::set<std::string> all = lines(run_command(kBench + " --list").out);
  ASSERT_GE(all.size(), 3u);
  for (std::size_t count = 1; count <= all.size(); ++count) {
    std::multiset<std::string> union_of_shards;
    for (std::size_t k = 1; k <= count; ++k) {
      const auto listed = run_command(kBench + " --list --shard " + std::to_string(k) + "/" +
                                      std::to_string(count));
      ASSERT_EQ(listed.exit_code, 0) << listed.err;
      for (const std::string& name : lines(listed.out)) union_of_shards.insert(name);
    }
    EXPECT_EQ(union_of_shards.size(), all.size()) << count << " shards";
    EXPECT_EQ(std::set<std::string>(union_of_shards.begin(), union_of_shards.end()), all);
  }
}

TEST_F(MergeCommand, BadShardSpecsAreRefusedWithStatus2AndTheFix) {
  for (const std::string spec : {"0/4", "5/4", "a/b"}) {
    for (const std::string& command :
         {kBench + " --list --shard " + spec, kTool + " run " + kBench + " --shard " + spec,
          kTool + " compare " + kBench + " " + kBench + " --shard " + spec}) {
      const auto refused = run_command(command);
      EXPECT_EQ(refused.exit_code, 2) << command;
      EXPECT_THAT(refused.err, HasSubstr("--shard")) << command;
    }
  }
  EXPECT_THAT(run_command(kBench + " --list --shard 5/4").err,
              HasSubstr("give --shard 1/4 to --shard 4/4"));
  EXPECT_THAT(run_command(kBench + " --list --shard 1/2 --shard-by time").err, HasSubstr("count"));
}

TEST_F(MergeCommand, ShardsRecordTheirAssignmentAndMergeIntoARunReadEverywhere) {
  measure_shards();
  std::set<std::string> names;
  for (const int k : {1, 2}) {
    const auto document = read_json(path(shard_file(k)));
    EXPECT_EQ(document["context"]["shard"]["index"], k);
    EXPECT_EQ(document["context"]["shard"]["count"], 2);
    EXPECT_EQ(document["context"]["shard"]["by"], "count");
    EXPECT_EQ(document["context"]["shard"]["selected"], 3);
    for (const auto& b : document["benchmarks"]) names.insert(b["name"].get<std::string>());
  }
  EXPECT_EQ(names, (std::set<std::string>{"add/amount=1", "add/amount=2", "copy_string"}));
  const auto merged = run_command(merge(path("shard-2.json") + " " + path("shard-1.json")));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const auto document = read_json(path("merged.json"));
  EXPECT_EQ(document["benchmarks"].size(), 3u);
  EXPECT_FALSE(document["context"].contains("shard"));
  const auto report = run_command(kTool + " report " + path("merged.json"));
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, HasSubstr("copy_string"));
  const auto compared = run_command(kTool + " compare " + path("merged.json") + " " +
                                    path("merged.json") + " --format markdown");
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_THAT(compared.out, HasSubstr("add/amount=2"));
  const auto html =
      run_command(kTool + " report " + path("merged.json") + " --html " + path("merged.html"));
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_GT(std::filesystem::file_size(path("merged.html")), 1000u);
  const std::string store = " --store " + path("history.db");
  const auto added = run_command(kTool + " history add " + path("merged.json") + store);
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto listed = run_command(kTool + " history list" + store + " --format json");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("\"benchmarks\": 3"));
}

TEST_F(MergeCommand, RefusesOverlapsAndOtherBuildsOrCommitsWithStatus2) {
  measure_shards();
  const auto overlap = run_command(merge(path("shard-1.json") + " " + path("shard-1.json")));
  EXPECT_EQ(overlap.exit_code, 2);
  EXPECT_THAT(overlap.err, HasSubstr("both hold benchmark"));
  auto other = read_json(path("shard-2.json"));
  other["context"]["executable_sha256"] = std::string(64, '0');
  write_json(path("other-build.json"), other);
  const auto build = run_command(merge(path("shard-1.json") + " " + path("other-build.json")));
  EXPECT_EQ(build.exit_code, 2);
  EXPECT_THAT(build.err, HasSubstr("different builds"));
  EXPECT_THAT(build.err, HasSubstr("other-build.json"));
  other = read_json(path("shard-2.json"));
  other["context"]["git"]["commit"] = "0123456789abcdef";
  write_json(path("other-commit.json"), other);
  const auto commit = run_command(merge(path("shard-1.json") + " " + path("other-commit.json")));
  EXPECT_EQ(commit.exit_code, 2);
  EXPECT_THAT(commit.err, HasSubstr("different commits"));
  other = read_json(path("shard-2.json"));
  other["context"]["cpu_model"] = "Another CPU";
  write_json(path("other-machine.json"), other);
  const std::string mixed = path("shard-1.json") + " " + path("other-machine.json");
  const auto machine = run_command(merge(mixed));
  EXPECT_EQ(machine.exit_code, 2);
  EXPECT_THAT(machine.err, HasSubstr("--allow-mixed-machines"));
  const auto allowed = run_command(merge(mixed) + " --allow-mixed-machines");
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  const auto document = read_json(path("merged.json"));
  std::set<std::string> cpus;
  for (const auto& b : document["benchmarks"]) cpus.insert(b["machine"]["cpu_model"]);
  EXPECT_EQ(cpus.size(), 2u);
}

TEST_F(MergeCommand, NamesAMissingShardAndACrashedBenchmark) {
  measure_shards();
  const auto missing = run_command(merge(path("shard-1.json")));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("missing from the merge: shard 2/2"));
  EXPECT_TRUE(std::filesystem::exists(path("merged.json")));
  const auto crashed = run_command("SAMPLE_BENCH_CRASH=1 " + kBench + kFast +
                                   " --filter may_fail --shard 1/1 --out " + path("crash.json"));
  EXPECT_EQ(crashed.exit_code, 1) << crashed.err;
  const auto named = run_command(merge(path("crash.json")));
  EXPECT_EQ(named.exit_code, 1);
  EXPECT_THAT(named.err, HasSubstr("may_fail"));
  EXPECT_THAT(named.err, HasSubstr("crashed"));
}

TEST_F(MergeCommand, RunPassesTheShardOnAndItsWorkersChooseAlike) {
  // Fresh worker processes (--processes 2) are told the shard's positions: each measures the
  // shard's benchmarks, not the whole selection's.
  const auto ran = run_command(kTool + " run " + kBench + " --processes 2 --shard 2/2 --quiet -- " +
                               kFast + " --filter 'add|copy' --out " + path("run.json"));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const auto listed = lines(run_command(kBench + " --list --filter 'add|copy' --shard 2/2").out);
  const auto document = read_json(path("run.json"));
  std::set<std::string> names;
  for (const auto& b : document["benchmarks"]) names.insert(b["name"].get<std::string>());
  EXPECT_EQ(names, listed);
  EXPECT_EQ(document["context"]["shard"]["index"], 2);
}

TEST_F(MergeCommand, ShardsByHistoryReadTheStoreAndStillCoverTheSelection) {
  const std::string store = " --store " + path("history.db");
  const auto recorded = run_command(kBench + kFast + " --filter 'add|copy' --record" + store);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  std::multiset<std::string> union_of_shards;
  for (const std::string k : {"1", "2"}) {
    const auto listed = run_command(kBench + " --list --filter 'add|copy' --shard-by history" +
                                    store + " --shard " + k + "/2");
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    for (const std::string& name : lines(listed.out)) union_of_shards.insert(name);
  }
  EXPECT_EQ(union_of_shards,
            (std::multiset<std::string>{"add/amount=1", "add/amount=2", "copy_string"}));
  // --store without --record: read, not written.
  const auto ran = run_command(kBench + kFast + " --filter 'add|copy' --shard 1/2 --shard-by " +
                               "history" + store + " --out " + path("h1.json"));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(read_json(path("h1.json"))["context"]["shard"]["by"], "history");
}

TEST_F(MergeCommand, CompareOfTwoExecutablesMeasuresOnlyTheShard) {
  const auto compared = run_command(kTool + " compare " + kBench + " " + kBench +
                                    " --filter 'add|copy' --rounds 6 --shard 1/2 --format json");
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_THAT(compared.err, HasSubstr("shard 1/2 (by count)"));
  const auto document = nlohmann::json::parse(compared.out);
  std::set<std::string> names;
  for (const auto& b : document["benchmarks"]) names.insert(b["name"].get<std::string>());
  EXPECT_EQ(names, lines(run_command(kBench + " --list --filter 'add|copy' --shard 1/2").out));
}

}  // namespace
}  // namespace benchkit::cli
