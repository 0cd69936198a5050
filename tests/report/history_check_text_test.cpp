#include "report/history_check_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

CheckReport check_of(const analysis::Comparison& comparison) {
  return CheckReport{.run = "0123456789abcdef0123",
                     .commit = "fedcba9876543210fedc",
                     .branch = "topic",
                     .machine = "m1",
                     .base_branch = "main",
                     .history_runs = 1,
                     .comparison = &comparison,
                     .last = 10};
}

TEST(CheckReport, TheHeadingNamesTheRunAndItsHistoryByTwelveDigits) {
  const analysis::Comparison comparison;
  const std::string text = check_report(check_of(comparison), Format::console);
  EXPECT_THAT(text, StartsWith("run 0123456789ab (commit fedcba987654, branch topic) against 1 "
                               "earlier run of machine m1 on main\n\n"));
  EXPECT_THAT(text, EndsWith("\nno change point in the last 10 commits\n"));
  CheckReport group = check_of(comparison);
  group.group = "ci-77";
  group.shards = "3/4";
  group.history_runs = 5;
  EXPECT_THAT(check_report(group, Format::markdown),
              StartsWith("run 0123456789ab (group ci-77, 3/4 shards, commit fedcba987654, branch "
                         "topic) against 5 earlier runs of machine m1 on main\n\n"));
  group.shards = "";
  EXPECT_THAT(check_report(group, Format::console), HasSubstr("(group ci-77, no shards, "));
}

TEST(CheckReport, ChangePointsSayTheirChangeAndCommitRange) {
  const analysis::Comparison comparison;
  CheckReport check = check_of(comparison);
  check.changes = {{.benchmark = "sort",
                    .from_commit = "aaaaaaaaaaaaaaaa",
                    .to_commit = "bbbbbbbbbbbbbbbb",
                    .before = 100.0,
                    .after = 125.0,
                    .p_value = 0.0012}};
  EXPECT_THAT(check_report(check, Format::console),
              EndsWith("\nchange points in the last 10 commits:\n  sort: +25.0% (100 ns -> 125 "
                       "ns) in the commits after aaaaaaaaaaaa up to bbbbbbbbbbbb (p=0.0012)\n"));
}

TEST(CheckReport, JsonAndCsvAreTheVerdictTableAlone) {
  const analysis::Comparison comparison;
  const CheckReport check = check_of(comparison);
  for (const Format format : {Format::json, Format::csv}) {
    EXPECT_EQ(check_report(check, format),
              make_reporter(format)->render(Document{.comparison = &comparison}));
    EXPECT_THAT(check_report(check, format), Not(HasSubstr("change point")));
  }
}

}  // namespace
}  // namespace benchkit::report
