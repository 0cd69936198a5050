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
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kSampleBench;
using benchkit::testing::kSampleBenchSlow;
using benchkit::testing::kTool;
// The same suite with copy_string about 3 times slower.
const std::string kShortQuietRun = " --time-budget 20ms --warm-up 1ms --sample-size 5 --quiet";

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
      const auto ran = run_command(kSampleBench + kShortQuietRun + " --filter 'add|copy' --shard " +
                                   std::to_string(k) + "/2 --out " + path(shard_file(k)));
      ASSERT_EQ(ran.exit_code, 0) << ran.err;
    }
  }
  // `compare sample_bench sample_bench_slow --shard K/2` of copy_string and add/amount=1, 6
  // paired rounds, into compare-K.json.
  void compare_shards() {
    for (const int k : {1, 2}) {
      const auto compared = run_command(
          kTool + " compare " + kSampleBench + " " + kSampleBenchSlow +
          " --rounds 6 --max-rounds 6 --noise-threshold 0.2 --filter 'copy_string|add/amount=1$'"
          " --format json --shard " +
          std::to_string(k) + "/2 --out " + path("compare-" + std::to_string(k) + ".json"));
      ASSERT_EQ(compared.exit_code, 0) << compared.err;
    }
  }
  static std::string shard_file(int k) { return "shard-" + std::to_string(k) + ".json"; }
  std::string merge(const std::string& files) const {
    return kTool + " merge " + files + " --out " + path("merged.json");
  }
  std::string folder_;
};

TEST_F(MergeCommand, ShardsOfABenchBinaryAreDisjointAndCompleteForEveryN) {
  const std::set<std::string> all = lines(run_command(kSampleBench + " --list").out);
  ASSERT_GE(all.size(), 3u);
  for (std::size_t count = 1; count <= all.size(); ++count) {
    std::multiset<std::string> union_of_shards;
    for (std::size_t k = 1; k <= count; ++k) {
      const auto listed = run_command(kSampleBench + " --list --shard " + std::to_string(k) + "/" +
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
         {kSampleBench + " --list --shard " + spec,
          kTool + " run " + kSampleBench + " --shard " + spec,
          kTool + " compare " + kSampleBench + " " + kSampleBench + " --shard " + spec}) {
      const auto refused = run_command(command);
      EXPECT_EQ(refused.exit_code, 2) << command;
      EXPECT_THAT(refused.err, HasSubstr("--shard")) << command;
    }
  }
  EXPECT_THAT(run_command(kSampleBench + " --list --shard 5/4").err,
              HasSubstr("give --shard 1/4 to --shard 4/4"));
  EXPECT_THAT(run_command(kSampleBench + " --list --shard 1/2 --shard-by time").err,
              HasSubstr("count"));
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
  const auto crashed = run_command("SAMPLE_BENCH_CRASH=1 " + kSampleBench + kShortQuietRun +
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
  const auto ran =
      run_command(kTool + " run " + kSampleBench + " --processes 2 --shard 2/2 --quiet -- " +
                  kShortQuietRun + " --filter 'add|copy' --out " + path("run.json"));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const auto listed =
      lines(run_command(kSampleBench + " --list --filter 'add|copy' --shard 2/2").out);
  const auto document = read_json(path("run.json"));
  std::set<std::string> names;
  for (const auto& b : document["benchmarks"]) names.insert(b["name"].get<std::string>());
  EXPECT_EQ(names, listed);
  EXPECT_EQ(document["context"]["shard"]["index"], 2);
}

TEST_F(MergeCommand, ShardsByHistoryReadTheStoreAndStillCoverTheSelection) {
  const std::string store = " --store " + path("history.db");
  const auto recorded =
      run_command(kSampleBench + kShortQuietRun + " --filter 'add|copy' --record" + store);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  std::multiset<std::string> union_of_shards;
  for (const std::string k : {"1", "2"}) {
    const auto listed =
        run_command(kSampleBench + " --list --filter 'add|copy' --shard-by history" + store +
                    " --shard " + k + "/2");
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    for (const std::string& name : lines(listed.out)) union_of_shards.insert(name);
  }
  EXPECT_EQ(union_of_shards,
            (std::multiset<std::string>{"add/amount=1", "add/amount=2", "copy_string"}));
  // --store without --record: read, not written.
  const auto ran =
      run_command(kSampleBench + kShortQuietRun + " --filter 'add|copy' --shard 1/2 --shard-by " +
                  "history" + store + " --out " + path("h1.json"));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(read_json(path("h1.json"))["context"]["shard"]["by"], "history");
}

TEST_F(MergeCommand, CompareOfTwoExecutablesMeasuresOnlyTheShard) {
  const auto compared =
      run_command(kTool + " compare " + kSampleBench + " " + kSampleBench +
                  " --filter 'add|copy' --rounds 6 --max-rounds 6 --shard 1/2 --format json");
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_THAT(compared.err, HasSubstr("shard 1/2 (by count)"));
  const auto document = nlohmann::json::parse(compared.out);
  std::set<std::string> names;
  for (const auto& b : document["benchmarks"]) names.insert(b["name"].get<std::string>());
  EXPECT_EQ(names,
            lines(run_command(kSampleBench + " --list --filter 'add|copy' --shard 1/2").out));
}

// Two real `compare OLD NEW --shard K/2` runs, one benchmark each, merged into one comment. With
// 6 paired rounds the smallest p-value is 2/2^6 = 0.031: copy_string (3 times slower) is a
// regression in its own shard, where it is the only benchmark tested, and not once the suite's
// 2 benchmarks are adjusted together (Holm: 0.031 × 2 = 0.062 > 0.05), which the merge says.
TEST_F(MergeCommand, ComparisonsOfShardsMergeIntoOneCommentJudgedAsOneSuite) {
  ASSERT_NO_FATAL_FAILURE(compare_shards());
  std::string holder;  // the shard that compared copy_string
  for (const int k : {1, 2}) {
    const std::string file = path("compare-" + std::to_string(k) + ".json");
    const auto document = read_json(file);
    EXPECT_EQ(document["version"], 2);
    EXPECT_EQ(document["shard"]["index"], k);
    EXPECT_EQ(document["shard"]["selected"], 2);
    // Side by side, the comparison still says which builds it compared.
    const std::string base_hash = document["baseline"]["executable_sha256"];
    const std::string new_hash = document["new"]["executable_sha256"];
    EXPECT_EQ(base_hash.size(), 64u);
    EXPECT_EQ(new_hash.size(), 64u);
    EXPECT_NE(base_hash, new_hash);
    ASSERT_EQ(document["benchmarks"].size(), 1u) << document.dump(1);
    if (document["benchmarks"][0]["name"] == "copy_string") {
      holder = file;
      EXPECT_EQ(document["benchmarks"][0]["verdict"], "regressed") << document.dump(1);
    }
  }
  ASSERT_FALSE(holder.empty());

  const std::string both = path("compare-1.json") + " " + path("compare-2.json");
  const auto merged = run_command(merge(both));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const auto document = read_json(path("merged.json"));
  EXPECT_FALSE(document.contains("shard"));
  ASSERT_EQ(document["benchmarks"].size(), 2u);
  nlohmann::json copy;
  for (const auto& row : document["benchmarks"]) {
    if (row["name"] == "copy_string") copy = row;
  }
  EXPECT_EQ(copy["verdict"], "inconclusive") << copy.dump(1);
  EXPECT_NEAR(copy["p_adjusted"].get<double>(), 0.0625, 1e-9) << copy.dump(1);
  EXPECT_THAT(copy["note"].get<std::string>(),
              HasSubstr("6 paired rounds cannot be significant after adjusting over 2 "
                        "benchmarks"));

  const auto comment = run_command(kTool + " merge " + both + " --format markdown");
  ASSERT_EQ(comment.exit_code, 0) << comment.err;
  EXPECT_THAT(comment.out, HasSubstr("**0 regressed, 0 improved, "));
  EXPECT_THAT(comment.out, HasSubstr("`copy_string`"));
  EXPECT_THAT(comment.out, HasSubstr("`add/amount=1`"));
  EXPECT_THAT(comment.out, HasSubstr("Holm-adjusted"));

  // One shard alone: merged, and the missing one named (exit status 1).
  const auto alone = run_command(merge(holder));
  EXPECT_EQ(alone.exit_code, 1);
  EXPECT_THAT(alone.err, HasSubstr("missing from the merge: shard "));
  EXPECT_EQ(read_json(path("merged.json"))["benchmarks"].size(), 1u);

  // Comparisons and result files are not merged together.
  measure_shards();
  const auto mixed = run_command(merge(holder + " " + path(shard_file(1))));
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_THAT(mixed.err, HasSubstr("is a comparison (benchkit/comparison)"));
  const auto result_markdown =
      run_command(kTool + " merge " + path(shard_file(1)) + " --format markdown");
  EXPECT_EQ(result_markdown.exit_code, 2);
  EXPECT_THAT(result_markdown.err, HasSubstr("benchkit report --format markdown"));
}

// The merged comparison (formats/comparison_json.hpp, version 2) read by `benchkit report` in
// every format with a form for a comparison; json gives the file back as it was written.
TEST_F(MergeCommand, AMergedComparisonIsShownByReportInEveryComparisonFormat) {
  ASSERT_NO_FATAL_FAILURE(compare_shards());
  const auto merged = run_command(merge(path("compare-1.json") + " " + path("compare-2.json")));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const std::string file = path("merged.json");
  const auto report = [&file](const std::string& format) {
    return run_command(kTool + " report " + file + " --format " + format);
  };
  for (const std::string format : {"console", "markdown", "html", "junit", "csv", "json"}) {
    const auto shown = report(format);
    ASSERT_EQ(shown.exit_code, 0) << format << ": " << shown.err;
    // Both shards' benchmarks, with the verdict the merge made over the whole suite.
    EXPECT_THAT(shown.out, HasSubstr("copy_string")) << format;
    EXPECT_THAT(shown.out, HasSubstr("add/amount=1")) << format;
    EXPECT_THAT(shown.out, HasSubstr("inconclusive")) << format;
  }
  EXPECT_THAT(report("markdown").out, HasSubstr("**0 regressed, 0 improved, "));
  EXPECT_THAT(report("junit").out, HasSubstr("<testsuites"));
  EXPECT_THAT(report("html").out, HasSubstr("<!DOCTYPE html>"));
  std::ifstream in(file);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(report("json").out, written);

  // --html beside the text, as for a result file.
  const auto page = run_command(kTool + " report " + file + " --format markdown --html " +
                                path("comparison.html"));
  ASSERT_EQ(page.exit_code, 0) << page.err;
  std::ifstream html(path("comparison.html"));
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("copy_string"));

  // A format with no form for a comparison, and --recompute (no samples): refused with the fix.
  const auto gbench = report("gbench");
  EXPECT_EQ(gbench.exit_code, 2);
  EXPECT_THAT(gbench.err, HasSubstr("is a comparison"));
  EXPECT_THAT(gbench.err, HasSubstr("give --format console, json, markdown, csv, html or junit"));
  const auto recompute = run_command(kTool + " report " + file + " --recompute");
  EXPECT_EQ(recompute.exit_code, 2);
  EXPECT_THAT(recompute.err, HasSubstr("without --recompute"));
}

// merge --fail-on-regression: status 1 only when the merged comparison, judged over the whole
// suite, holds a regression; refused for result files, which hold no verdicts.
TEST_F(MergeCommand, FailOnRegressionFollowsTheMergedVerdicts) {
  ASSERT_NO_FATAL_FAILURE(compare_shards());
  const std::string both = path("compare-1.json") + " " + path("compare-2.json");
  // copy_string: regressed in its shard, inconclusive over the suite (above).
  const auto undecided = run_command(merge(both) + " --fail-on-regression");
  EXPECT_EQ(undecided.exit_code, 0) << undecided.err;
  // The same rows with copy_string's unadjusted p-value as 12 rounds could give it (2/2^12):
  // regressed over the suite too.
  for (const int k : {1, 2}) {
    const std::string file = path("compare-" + std::to_string(k) + ".json");
    auto document = read_json(file);
    for (auto& row : document["benchmarks"]) {
      if (row["name"] == "copy_string") row["p_value"] = 2.0 / 4096.0;
    }
    write_json(file, document);
  }
  const auto regressed = run_command(merge(both) + " --fail-on-regression");
  EXPECT_EQ(regressed.exit_code, 1) << regressed.err;
  EXPECT_EQ(run_command(merge(both)).exit_code, 0);
  const auto merged = read_json(path("merged.json"));
  for (const auto& row : merged["benchmarks"]) {
    if (row["name"] == "copy_string") {
      EXPECT_EQ(row["verdict"], "regressed") << row.dump(1);
    }
  }

  measure_shards();
  const auto results =
      run_command(merge(path(shard_file(1)) + " " + path(shard_file(2))) + " --fail-on-regression");
  EXPECT_EQ(results.exit_code, 2);
  EXPECT_THAT(results.err, HasSubstr("result files hold no verdicts"));
}

}  // namespace
}  // namespace benchkit::cli
