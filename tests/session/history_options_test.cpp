#include "session/history_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(HistoryOptions, SelectionFlagsBecomeTheQueryOfListExportAndTrend) {
  HistoryOptions o;
  o.machine = "m1";
  o.branch = "main";
  o.since = "2026-11-01";
  o.before = "2026-12-01";
  o.pattern = "sort";
  const store::RunQuery query = run_query(o);
  EXPECT_EQ(query.machine, "m1");
  EXPECT_EQ(query.branch, "main");
  EXPECT_EQ(query.since, "2026-11-01");
  EXPECT_EQ(query.before, "2026-12-01");
  const SeriesRequest trend = trend_request(o);
  EXPECT_EQ(trend.pattern, "sort");
  EXPECT_EQ(trend.machine, "m1");
  EXPECT_EQ(trend.before, "2026-12-01");
}

TEST(HistoryOptions, ReportTakesThePeriodAndTheComparisonFlags) {
  HistoryOptions o;
  o.since = "2026-11-01";
  o.comparison.noise_threshold = 0.05;
  const SnapshotRequest request = snapshot_request(o);
  EXPECT_EQ(request.since, "2026-11-01");
  EXPECT_DOUBLE_EQ(request.settings.noise_threshold, 0.05);
}

TEST(HistoryOptions, CheckReadsWaitAsADurationAndRefusesAnythingElse) {
  HistoryOptions o;
  o.base_branch = "trunk";
  o.last = 4;
  o.expect_shards = 3;
  const auto none = check_request(o);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(none->wait_seconds, 0.0);
  EXPECT_EQ(none->base_branch, "trunk");
  EXPECT_EQ(none->last, 4u);
  EXPECT_EQ(none->expect_shards, 3u);
  o.wait = "90s";
  const auto ninety = check_request(o);
  ASSERT_TRUE(ninety) << ninety.error().message;
  EXPECT_DOUBLE_EQ(ninety->wait_seconds, 90.0);
  o.wait = "soon";
  const auto refused = check_request(o);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(refused.error().message, HasSubstr("--wait soon: not a duration"));
}

TEST(HistoryOptions, CheckFailsOnARegressionOnlyWhenAsked) {
  analysis::Comparison regressed;
  regressed.benchmarks.push_back(analysis::BenchmarkComparison{});
  regressed.benchmarks.back().verdict = analysis::Verdict::regressed;
  analysis::Comparison unchanged;
  unchanged.benchmarks.push_back(analysis::BenchmarkComparison{});
  unchanged.benchmarks.back().verdict = analysis::Verdict::unchanged;
  HistoryOptions o;
  EXPECT_EQ(check_status(o, regressed), 0);
  o.fail_on_regression = true;
  EXPECT_EQ(check_status(o, regressed), 1);
  EXPECT_EQ(check_status(o, unchanged), 0);
}

TEST(HistoryOptions, PruneNeedsKeepOrBefore) {
  HistoryOptions o;
  const auto refused = prune_request(o);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(refused.error().message, HasSubstr("--keep N"));
  o.keep = 5;
  const auto kept = prune_request(o);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->keep, 5u);
  o.keep = 0;
  o.before = "2026-01-01";
  const auto dated = prune_request(o);
  ASSERT_TRUE(dated);
  EXPECT_EQ(dated->before, "2026-01-01");
}

store::RunInfo run_info(std::string id, std::string group = {}, std::size_t shard = 0,
                        std::size_t shards = 0) {
  store::RunInfo run;
  run.id = std::move(id);
  run.date = "2026-12-01T10:00:00Z";
  run.commit = "0123456789abcdef0123";
  run.branch = "main";
  run.dirty = false;
  run.machine = "m1";
  run.hostname = "ci-1";
  run.benchmarks = 7;
  run.tags = {{"cc", "gcc"}, {"opt", "O2"}};
  run.group = std::move(group);
  run.shard_index = shard;
  run.shard_count = shards;
  return run;
}

TEST(HistoryOptions, TheTableShortensIdentitiesAndShowsGroupsOnlyWhenThereAreAny) {
  JoinedRun lone{.info = run_info("aaaaaaaaaaaaaaaaaaaa"),
                 .members = {run_info("aaaaaaaaaaaaaaaaaaaa")}};
  lone.info.dirty.reset();
  const RunsTable plain = runs_table({lone});
  EXPECT_EQ(plain.header.size(), 9u);
  EXPECT_EQ(plain.right.size(), 9u);
  ASSERT_EQ(plain.rows.size(), 1u);
  EXPECT_THAT(plain.rows[0], ElementsAre("aaaaaaaaaaaa", "2026-12-01T10:00:00Z", "0123456789ab",
                                         "main", "?", "m1", "ci-1", "7", "cc=gcc,opt=O2"));
  JoinedRun grouped{.info = run_info("bbbbbbbbbbbbbbbb", "g7", 1, 2),
                    .members = {run_info("bbbbbbbbbbbbbbbb", "g7", 1, 2)}};
  const RunsTable both = runs_table({lone, grouped});
  EXPECT_EQ(both.header.back(), "shards");
  EXPECT_TRUE(both.right.back());
  ASSERT_EQ(both.rows.size(), 2u);
  EXPECT_EQ(both.rows[1][9], "g7");
  EXPECT_EQ(both.rows[1][10], "1/2");
  EXPECT_EQ(both.rows[0][4], "?");
  EXPECT_EQ(both.rows[1][4], "no");
}

TEST(HistoryOptions, TheRunsDocumentHoldsEveryRunWithItsWholeIdentityAndMembers) {
  JoinedRun grouped{.info = run_info("cccccccccccccccccccc", "g1", 1, 2),
                    .members = {run_info("cccccccccccccccccccc", "g1", 1, 2)}};
  const std::string text = runs_document({grouped}, "/tmp/history.db");
  ASSERT_EQ(text.back(), '\n');
  const auto document = nlohmann::json::parse(text);
  EXPECT_EQ(document["schema"], "benchkit/history-runs");
  EXPECT_EQ(document["version"], 1);
  EXPECT_EQ(document["store"], "/tmp/history.db");
  ASSERT_EQ(document["runs"].size(), 1u);
  const auto& run = document["runs"][0];
  EXPECT_EQ(run["id"], "cccccccccccccccccccc");
  EXPECT_EQ(run["commit"], "0123456789abcdef0123");
  EXPECT_EQ(run["dirty"], false);
  EXPECT_EQ(run["shards"], "1/2");
  EXPECT_EQ(run["tags"]["cc"], "gcc");
  ASSERT_EQ(run["members"].size(), 1u);
  EXPECT_EQ(run["members"][0]["shard"], 1);
  EXPECT_EQ(run["members"][0]["host"], "ci-1");
}

}  // namespace
}  // namespace benchkit::session
