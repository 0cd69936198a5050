#include "session/revision_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "analysis/compare.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RevisionOptions, PairSettingsTakeTheRoundsBudgetAndFlags) {
  RevisionOptions o;
  o.rounds = 6;
  o.time_budget = "2s";
  o.worker_timeout = "30s";
  o.bench = "sort";
  o.trailing = {"--sample-size", "5"};
  const auto pairs = pair_settings(o);
  ASSERT_TRUE(pairs) << pairs.error().message;
  EXPECT_EQ(pairs->rounds, 6u);
  EXPECT_EQ(pairs->max_rounds, 54u);
  // Side by side, looked at after every round from the 6th: a level per round count, up to 54,
  // the same for the looks and the verdicts shown (then.compare is pairs.compare).
  ASSERT_EQ(pairs->compare.sequential_alpha.size(), 55u);
  EXPECT_DOUBLE_EQ(pairs->compare.sequential_alpha[6],
                   analysis::sequential_levels(6, 54, pairs->compare.alpha)[6]);
  EXPECT_EQ(pairs->time_budget_ns, 2'000'000'000);
  EXPECT_EQ(pairs->worker_timeout.count(), 30'000);
  EXPECT_EQ(pairs->bench_regex, "sort");
  EXPECT_THAT(pairs->bench_flags, ElementsAre("--sample-size", "5"));
}

TEST(RevisionOptions, PairSettingsRefuseBadValues) {
  RevisionOptions rounds;
  rounds.rounds = 0;
  EXPECT_THAT(pair_settings(rounds).error().message, HasSubstr("--rounds must be at least 1"));
  RevisionOptions max;
  max.max_rounds = 3;
  EXPECT_THAT(pair_settings(max).error().message, HasSubstr("--max-rounds 3 is below"));
  RevisionOptions budget;
  budget.time_budget = "-1s";
  EXPECT_THAT(pair_settings(budget).error().message, HasSubstr("--time-budget"));
  RevisionOptions timeout;
  timeout.worker_timeout = "x";
  EXPECT_THAT(pair_settings(timeout).error().message,
              HasSubstr("--worker-timeout \"x\" is not a positive duration; write e.g."));
  // As compare's: an empty --worker-timeout keeps the default of 120 s.
  RevisionOptions empty;
  empty.worker_timeout = "";
  ASSERT_TRUE(pair_settings(empty));
  EXPECT_EQ(pair_settings(empty)->worker_timeout.count(), 120'000);
  RevisionOptions commands;
  commands.commands = {"a", "b"};
  EXPECT_THAT(pair_settings(commands).error().message, HasSubstr("give one --cmd"));
  RevisionOptions together;
  together.together = true;
  ASSERT_TRUE(pair_settings(together));
  EXPECT_TRUE(pair_settings(together)->together);
  together.commands = {"./tool"};
  EXPECT_THAT(pair_settings(together).error().message, HasSubstr("leave --together out"));
}

TEST(RevisionOptions, AbRefusesWhatCountedRunsCannotTake) {
  RevisionOptions after;
  after.trailing = {"--mode=instructions"};
  EXPECT_THAT(check_ab(after)->message, HasSubstr("--mode goes before --"));
  RevisionOptions command;
  command.mode = Mode::instructions;
  command.commands = {"./tool"};
  EXPECT_THAT(check_ab(command)->message, HasSubstr("counts the builds' bench binaries"));
  RevisionOptions rounds;
  rounds.mode = Mode::instructions;
  rounds.given = {"--rounds"};
  EXPECT_THAT(check_ab(rounds)->message, HasSubstr("--rounds is for --mode time"));
  RevisionOptions together;
  together.mode = Mode::instructions;
  together.given = {"--together"};
  EXPECT_THAT(check_ab(together)->message, HasSubstr("--together is for --mode time"));
  RevisionOptions store;
  store.store = "h.db";
  EXPECT_THAT(check_ab(store)->message, HasSubstr("add --record"));
  const RevisionOptions plain;
  EXPECT_FALSE(check_ab(plain));
}

TEST(RevisionOptions, AbPlansTwoRevisionsAndRecordsBenchBinariesOnly) {
  RevisionOptions o;
  o.base = "v1";
  o.candidate = "v2";
  o.record = true;
  o.fail_on_regression = true;
  o.command_line = "benchkit ab v1 v2";
  const auto plan = ab_plan(o);
  ASSERT_TRUE(plan) << plan.error().message;
  const auto& revisions = std::get<RevisionsPlan>(plan->what);
  EXPECT_EQ(revisions.base, "v1");
  EXPECT_EQ(revisions.candidate, "v2");
  EXPECT_EQ(revisions.command_line, "benchkit ab v1 v2");
  EXPECT_TRUE(plan->then.record);
  EXPECT_TRUE(plan->then.both_sides_measured);
  EXPECT_TRUE(plan->then.fail_on_regression);
  o.commands = {"./tool {build}"};
  const auto commands = ab_plan(o);
  ASSERT_TRUE(commands);
  EXPECT_EQ(std::get<RevisionsPlan>(commands->what).command, "./tool {build}");
  EXPECT_FALSE(commands->then.record);
  EXPECT_FALSE(commands->then.both_sides_measured);
}

TEST(RevisionOptions, BisectComparesBenchBinaries) {
  RevisionOptions o;
  o.good = "v1";
  o.bad = "v2";
  o.log = "bisect.log";
  const auto plan = bisect_plan(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->good, "v1");
  EXPECT_EQ(plan->bad, "v2");
  EXPECT_EQ(plan->log, "bisect.log");
  o.commands = {"./tool"};
  EXPECT_THAT(bisect_plan(o).error().message, HasSubstr("--cmd is for ab"));
}

}  // namespace
}  // namespace benchkit::session
