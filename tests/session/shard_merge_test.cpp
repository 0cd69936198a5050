#include "session/shard_merge.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "formats/comparison_json.hpp"
#include "formats/result_json.hpp"
#include "model/error.hpp"
#include "support/sample_run.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::ten_iteration_sample;

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
  result.samples = {ten_iteration_sample(100), ten_iteration_sample(110)};
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

// ---- comparisons ----

using analysis::BenchmarkComparison;
using analysis::Verdict;

// A row as compare() leaves it before the suite's step: tested, its p-value and interval.
BenchmarkComparison tested_row(const std::string& name, double p_value, double lower,
                               double upper) {
  BenchmarkComparison row;
  row.name = name;
  row.design = analysis::Design::processes;
  row.baseline_median = 100;
  row.candidate_median = 100 * (lower + upper) / 2;
  row.ratio = (lower + upper) / 2;
  row.ratio_lower = lower;
  row.ratio_upper = upper;
  row.p_value = p_value;
  row.tested = true;
  return row;
}

// Shard `index` of `count` of a suite of `selected` benchmarks, judged alone as compare() would.
ComparisonFile comparison_shard(std::uint32_t index, std::uint32_t count, std::size_t selected,
                                std::vector<BenchmarkComparison> rows) {
  ComparisonFile file;
  file.path = "compare-" + std::to_string(index) + ".json";
  analysis::Comparison& comparison = file.comparison;
  comparison.baseline_build = {"abc123", "0123456789abcdef"};
  comparison.candidate_build = {"abc123", "fedcba9876543210"};
  comparison.shard = Shard{index, count, "count", rows.size(), selected};
  comparison.benchmarks = std::move(rows);
  analysis::judge_suite(comparison);
  return file;
}

const BenchmarkComparison& row_named(const analysis::Comparison& comparison,
                                     const std::string& name) {
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

// A 20-benchmark suite in two shards: "slow" (p = 0.004, interval +10% to +20%) is significant
// among the 2 benchmarks of its shard (Holm: 0.004 × 2 = 0.008 < 0.05), not among the 20 of the
// suite (0.004 × 20 = 0.08).
std::vector<ComparisonFile> twenty_in_two_shards() {
  std::vector<BenchmarkComparison> second;
  for (int i = 0; i < 18; ++i) {
    second.push_back(tested_row("same-" + std::to_string(i), 0.9, 0.99, 1.01));
  }
  return {
      comparison_shard(
          1, 2, 20, {tested_row("slow", 0.004, 1.10, 1.20), tested_row("steady", 0.9, 0.99, 1.01)}),
      comparison_shard(2, 2, 20, std::move(second))};
}

TEST(ComparisonMerge, TheAdjustmentIsMadeOnceOverEveryShardsBenchmarks) {
  auto shards = twenty_in_two_shards();
  // Alone, the first shard calls it a regression.
  ASSERT_EQ(row_named(shards[0].comparison, "slow").verdict, Verdict::regressed);
  EXPECT_NEAR(row_named(shards[0].comparison, "slow").p_adjusted, 0.008, 1e-12);

  const auto merged = merge_shard_comparisons(std::move(shards));
  ASSERT_TRUE(merged) << merged.error().message;
  const analysis::Comparison& suite = merged->comparison;
  ASSERT_EQ(suite.benchmarks.size(), 20u);
  const BenchmarkComparison& slow = row_named(suite, "slow");
  EXPECT_NEAR(slow.p_adjusted, 0.08, 1e-12);
  EXPECT_EQ(slow.verdict, Verdict::inconclusive);
  EXPECT_THAT(slow.note, HasSubstr("not significant after adjustment"));
  EXPECT_EQ(suite.count(Verdict::unchanged), 19u);
  EXPECT_EQ(suite.count(Verdict::regressed), 0u);
  EXPECT_FALSE(suite.shard);
  EXPECT_FALSE(merged->incomplete());
  EXPECT_EQ(suite.baseline_build.git_commit, "abc123");
}

// What a shard's looks use to decide whether to stop (CompareSettings::suite_size, set by
// compare and ab with --shard): the same rows judged over the whole suite give the verdict, the
// adjusted p-value and the note the merge gives, so a shard does not stop on a verdict the merge
// would undo.
TEST(ComparisonMerge, AShardsLooksJudgeOverTheWholeSuite) {
  analysis::Comparison looked;
  looked.settings.suite_size = 20;
  looked.benchmarks = {tested_row("slow", 0.004, 1.10, 1.20),
                       tested_row("steady", 0.9, 0.99, 1.01)};
  analysis::judge_suite(looked);
  const BenchmarkComparison& slow = row_named(looked, "slow");
  EXPECT_NEAR(slow.p_adjusted, 0.08, 1e-12) << "0.004 among 20, as in the merge";
  EXPECT_EQ(slow.verdict, Verdict::inconclusive);
  EXPECT_THAT(slow.note, HasSubstr("not significant after adjustment"));
  EXPECT_EQ(row_named(looked, "steady").verdict, Verdict::unchanged);
  // A suite_size below the rows tested changes nothing.
  analysis::Comparison small;
  small.settings.suite_size = 1;
  small.benchmarks = {tested_row("slow", 0.004, 1.10, 1.20), tested_row("steady", 0.9, 0.99, 1.01)};
  analysis::judge_suite(small);
  EXPECT_NEAR(row_named(small, "slow").p_adjusted, 0.008, 1e-12);
  EXPECT_EQ(row_named(small, "slow").verdict, Verdict::regressed);
}

TEST(ComparisonMerge, ASmallerSuiteKeepsTheVerdictTheShardGave) {
  // The same regression merged with one unchanged shard of 2: 4 tested, 0.004 × 4 < 0.05.
  auto merged = merge_shard_comparisons(
      {comparison_shard(1, 2, 4,
                        {tested_row("slow", 0.004, 1.10, 1.20), tested_row("a", 0.9, 0.99, 1.01)}),
       comparison_shard(2, 2, 4,
                        {tested_row("b", 0.9, 0.99, 1.01), tested_row("c", 0.9, 0.99, 1.01)})});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(row_named(merged->comparison, "slow").verdict, Verdict::regressed);
  EXPECT_NEAR(row_named(merged->comparison, "slow").p_adjusted, 0.016, 1e-12);
  EXPECT_EQ(merged->comparison.benchmarks.front().name, "slow");  // regressions first
}

TEST(ComparisonMerge, RowsNotTestedKeepTheirVerdicts) {
  BenchmarkComparison added;
  added.name = "new-one";
  added.verdict = Verdict::added;
  BenchmarkComparison invalid;
  invalid.name = "broken";
  invalid.verdict = Verdict::invalid;
  invalid.note = "it failed to run (crashed), so it is not compared";
  const auto merged = merge_shard_comparisons(
      {comparison_shard(1, 2, 3, {tested_row("slow", 0.001, 1.10, 1.20), added}),
       comparison_shard(2, 2, 3, {invalid})});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(row_named(merged->comparison, "new-one").verdict, Verdict::added);
  EXPECT_EQ(row_named(merged->comparison, "broken").verdict, Verdict::invalid);
  EXPECT_EQ(row_named(merged->comparison, "broken").note, invalid.note);
  // One test only: the one tested row's p-value is not multiplied.
  EXPECT_NEAR(row_named(merged->comparison, "slow").p_adjusted, 0.001, 1e-12);
}

// A run of `names` whose benchmark i is slower by factor[i], 40 samples of one process, their
// scatter shifted by `phase` (two runs never hold the very same samples); `first` is the index
// of names[0] in the whole suite, which sets each benchmark's samples.
RunResult run_of(const std::vector<std::string>& names, const std::vector<double>& factor,
                 double phase, std::size_t first = 0) {
  RunResult run;
  for (std::size_t i = 0; i < names.size(); ++i) {
    BenchmarkResult result;
    result.name = names[i];
    for (int k = 0; k < 40; ++k) {
      // Deterministic scatter of about ±3%.
      const double wobble = std::sin(k * 1.7 + static_cast<double>(first + i) + phase);
      result.samples.push_back(ten_iteration_sample(1000.0 * factor[i] * (1.0 + 0.03 * wobble)));
    }
    run.benchmarks.push_back(std::move(result));
  }
  analysis::compute_estimates(run);
  return run;
}

TEST(ComparisonMerge, ShardsMergedThroughTheirFilesJudgeAsOneComparisonOfTheSuite) {
  std::vector<std::string> names;
  std::vector<double> same;
  std::vector<double> changed;
  for (int i = 0; i < 12; ++i) {
    names.push_back("bench-" + std::to_string(10 + i));
    same.push_back(1.0);
    changed.push_back(1.0 + 0.01 * i);  // 0% to 11% slower
  }
  const RunResult baseline = run_of(names, same, 0.0);
  const RunResult candidate = run_of(names, changed, 0.5);
  const analysis::Comparison whole = analysis::compare(baseline, candidate);

  std::vector<ComparisonFile> files;
  for (std::uint32_t k = 1; k <= 2; ++k) {
    const std::size_t from = (k - 1) * 6;
    const std::vector<std::string> part(names.begin() + from, names.begin() + from + 6);
    const std::vector<double> part_same(same.begin() + from, same.begin() + from + 6);
    const std::vector<double> part_changed(changed.begin() + from, changed.begin() + from + 6);
    analysis::Comparison shard = analysis::compare(run_of(part, part_same, 0.0, from),
                                                   run_of(part, part_changed, 0.5, from));
    shard.shard = Shard{k, 2, "count", 6, 12};
    // Through the file, as CI hands it from the shard's job to the merge's.
    const std::string path = "compare-" + std::to_string(k) + ".json";
    auto read = formats::comparison_from_json(formats::comparison_to_json(shard), path);
    ASSERT_TRUE(read) << read.error().message;
    files.push_back(ComparisonFile{path, std::move(*read)});
  }
  const auto merged = merge_shard_comparisons(std::move(files));
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_EQ(merged->comparison.benchmarks.size(), whole.benchmarks.size());
  for (std::size_t i = 0; i < whole.benchmarks.size(); ++i) {
    const BenchmarkComparison& expected = whole.benchmarks[i];
    const BenchmarkComparison& got = merged->comparison.benchmarks[i];
    EXPECT_EQ(got.name, expected.name);  // the same order too
    EXPECT_EQ(got.verdict, expected.verdict) << expected.name;
    EXPECT_DOUBLE_EQ(got.p_adjusted, expected.p_adjusted) << expected.name;
    EXPECT_EQ(got.note, expected.note) << expected.name;
  }
  EXPECT_GT(whole.count(Verdict::regressed), 0u);  // the suite has verdicts to agree on
}

TEST(ComparisonMerge, RefusesShardsOfOtherBuildsCommitsSplitsOrSettings) {
  auto other_baseline = twenty_in_two_shards();
  other_baseline[1].comparison.baseline_build.executable_sha256 = "9999999999999999";
  auto refused = merge_shard_comparisons(std::move(other_baseline));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::input);
  EXPECT_THAT(refused.error().message,
              HasSubstr("compare-1.json and compare-2.json were measured by different baseline "
                        "builds"));

  auto other_commit = twenty_in_two_shards();
  other_commit[1].comparison.candidate_build.git_commit = "def456";
  refused = merge_shard_comparisons(std::move(other_commit));
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("different new commits (abc123 and def456)"));

  auto other_split = twenty_in_two_shards();
  other_split[1].comparison.shard->count = 3;
  refused = merge_shard_comparisons(std::move(other_split));
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("shard 2/3 (by count)"));

  auto other_threshold = twenty_in_two_shards();
  other_threshold[1].comparison.settings.noise_threshold = 0.05;
  refused = merge_shard_comparisons(std::move(other_threshold));
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("--noise-threshold"));

  auto overlapping = twenty_in_two_shards();
  overlapping[1].comparison.benchmarks.push_back(tested_row("slow", 0.5, 0.9, 1.1));
  refused = merge_shard_comparisons(std::move(overlapping));
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("both hold benchmark \"slow\""));
}

TEST(ComparisonMerge, NamesAMissingShardInTheComparison) {
  auto shards = twenty_in_two_shards();
  shards.pop_back();
  const auto merged = merge_shard_comparisons(std::move(shards));
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_THAT(merged->missing, ElementsAre(HasSubstr("shard 2/2")));
  EXPECT_TRUE(merged->incomplete());
  EXPECT_THAT(merged->comparison.context_warning, HasSubstr("merged without shard 2/2"));
}

TEST(ComparisonMerge, TellsComparisonsFromResultsAndRefusesAMix) {
  const std::string folder =
      ::testing::TempDir() + "/benchkit-merge-kind-" + std::to_string(::getpid());
  std::filesystem::create_directories(folder);
  const std::string comparison = folder + "/compare-1.json";
  const std::string result = folder + "/shard-1.json";
  std::ofstream(comparison) << formats::comparison_to_json(twenty_in_two_shards()[0].comparison);
  std::ofstream(result) << formats::to_json(shard(1, 2, {"a"}).run);

  EXPECT_EQ(merge_kind({comparison, comparison}).value(), MergeKind::comparisons);
  EXPECT_EQ(merge_kind({result}).value(), MergeKind::results);
  const auto mixed = merge_kind({result, comparison});
  ASSERT_FALSE(mixed);
  EXPECT_EQ(mixed.error().kind, model::ErrorKind::input);
  EXPECT_THAT(
      mixed.error().message,
      HasSubstr(comparison + " is a comparison (benchkit/comparison) and " + result + " is not"));
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace benchkit::session
