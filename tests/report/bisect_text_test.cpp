#include "report/bisect_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

TEST(BisectText, AStepSaysItsCommitVerdictRatioRoundsAndReference) {
  EXPECT_EQ(bisect_step_line({.commit = "1a2b3c4d5e6f",
                              .outcome = "bad",
                              .verdict = analysis::Verdict::regressed,
                              .benchmark = "copy_string",
                              .ratio = 1.1534,
                              .ratio_lower = 1.1412,
                              .ratio_upper = 1.1666,
                              .rounds = "10",
                              .reference = "9f8e7d6c5b4a",
                              .subject = "Copy by value"}),
            "benchkit bisect: 1a2b3c4d5e6f bad: regressed (copy_string 1.153x [1.141, 1.167], 10 "
            "rounds, against 9f8e7d6c5b4a) Copy by value");
}

TEST(BisectText, AStepThatCouldNotBeJudgedSaysWhy) {
  EXPECT_EQ(bisect_step_line({.commit = "1a2b3c4d5e6f",
                              .outcome = "skipped",
                              .subject = "Half a refactoring",
                              .failure = "step 2: the build failed: error: no member named x"}),
            "benchkit bisect: 1a2b3c4d5e6f skipped: step 2: the build failed: error: no member "
            "named x Half a refactoring");
}

TEST(BisectText, TheAnswerNamesTheCommitAndLeadsToTheComparison) {
  const std::string text =
      bisect_found("1a2b3c4d5e6f7a8b", "Copy by value", 17, 4, 6, ".benchkit/bisect/bisect.log");
  EXPECT_THAT(text, ::testing::StartsWith("first bad commit: 1a2b3c4d5e6f7a8b Copy by value\n"));
  EXPECT_THAT(text, HasSubstr("17 commits between, 4 tested besides the two ends, 6 revisions "
                              "built (or kept from an earlier run); every step is in "
                              ".benchkit/bisect/bisect.log\n\n"));
  EXPECT_THAT(text, EndsWith("\nthe comparison that convicted it:\n"));
}

TEST(BisectText, ASpeedUpIsNamedAsOne) {
  const std::string text = bisect_found("1a2b3c4d5e6f7a8b", "Defer copies", 9, 3, 5, "log", true);
  EXPECT_THAT(text, ::testing::StartsWith(
                        "first commit that made it faster: 1a2b3c4d5e6f7a8b Defer copies\n"));
  EXPECT_THAT(text, EndsWith("\nthe comparison that found it:\n"));
  EXPECT_THAT(bisect_undecided({{"aaaa", "First"}}, "log", true),
              ::testing::StartsWith("the first faster commit could not be told apart"));
}

TEST(BisectText, MoreChangeAfterTheCommitFoundIsSaidWithBothChanges) {
  EXPECT_EQ(bisect_more_after("30326e5b8cae", 0.889, 0.975, 0.970, 0.980),
            "the whole range changed by -11.1%, this commit by -2.5% [-3.0%, -2.0%]: more of "
            "the change may lie after it; to find it, bisect again from it (GOOD 30326e5b8cae, "
            "the same BAD and flags)\n");
}

TEST(BisectText, AnUndecidedAnswerListsTheCommitsItMayBe) {
  EXPECT_EQ(bisect_undecided({{"aaaa", "First"}, {"bbbb", "Second"}}, "log.txt"),
            "the first bad commit could not be told apart: some commits were skipped, "
            "inconclusive or not built or measured; it is one of:\n  aaaa First\n  bbbb "
            "Second\n(log of every step, with why each was skipped: log.txt; raise --rounds for "
            "those inconclusive)\n");
}

}  // namespace
}  // namespace benchkit::report
