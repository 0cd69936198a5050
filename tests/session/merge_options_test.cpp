#include "session/merge_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

TEST(MergeOptions, AMergeOfResultsTakesJsonAndNoFailOnRegression) {
  MergeOptions o;
  EXPECT_FALSE(check_result_merge(o));
  o.fail_on_regression = true;
  const auto verdicts = check_result_merge(o);
  ASSERT_TRUE(verdicts);
  EXPECT_EQ(verdicts->kind, model::ErrorKind::usage);
  EXPECT_THAT(verdicts->message, HasSubstr("result files hold no verdicts to fail on"));
  o.fail_on_regression = false;
  o.format = model::Format::markdown;
  const auto format = check_result_merge(o);
  ASSERT_TRUE(format);
  EXPECT_EQ(format->kind, model::ErrorKind::usage);
  EXPECT_THAT(format->message, HasSubstr("--format markdown: a merged run is written as a result "
                                         "file (JSON); give it to benchkit report --format "
                                         "markdown"));
}

TEST(MergeOptions, EachGapIsAFailure) {
  const auto gaps = merge_gaps({"shard 2/3 (by count)"}, {"sort (a.json): crashed"});
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0].message, "missing from the merge: shard 2/3 (by count)");
  EXPECT_EQ(gaps[1].message, "benchmark sort (a.json): crashed failed");
  for (const model::Error& gap : gaps) EXPECT_EQ(gap.kind, model::ErrorKind::failed);
  EXPECT_TRUE(merge_gaps({}).empty());
}

TEST(MergeOptions, AnIncompleteMergeOrARegressionUnderFailOnRegressionIsStatusOne) {
  MergedShards shards;
  EXPECT_EQ(merge_status(shards), 0);
  shards.failed = {"sort"};
  EXPECT_EQ(merge_status(shards), 1);

  MergeOptions o;
  MergedComparisons comparisons;
  comparisons.comparison.benchmarks.resize(1);
  comparisons.comparison.benchmarks[0].verdict = analysis::Verdict::regressed;
  EXPECT_EQ(merge_status(comparisons, o), 0);
  o.fail_on_regression = true;
  EXPECT_EQ(merge_status(comparisons, o), 1);
  o.fail_on_regression = false;
  comparisons.missing = {"shard 1/2"};
  EXPECT_EQ(merge_status(comparisons, o), 1);
}

}  // namespace
}  // namespace benchkit::session
