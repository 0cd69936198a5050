#include "session/compare_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <variant>

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CompareOptions, TwoFilesAreReadNotRun) {
  CompareOptions o;
  o.base = "base.json";
  o.candidate = "new.json";
  o.fail_on_regression = true;
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_TRUE(std::holds_alternative<FilesPlan>(plan->what));
  EXPECT_TRUE(plan->then.fail_on_regression);
  EXPECT_FALSE(plan->then.fail_on_failed_benchmark);
}

TEST(CompareOptions, TwoExecutablesRunInRounds) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "/bin/false";
  o.rounds = 8;
  o.filter = "sum";
  o.trailing = {"--sample-size", "3"};
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  const auto& binaries = std::get<BinariesPlan>(plan->what);
  EXPECT_EQ(binaries.rounds, 8u);
  EXPECT_EQ(binaries.filter, "sum");
  EXPECT_THAT(binaries.flags, ElementsAre("--sample-size", "3"));
  // Undecided benchmarks get more rounds, up to 9 times --rounds, judged with the settings of
  // the comparison.
  EXPECT_EQ(binaries.max_rounds, 72u);
  EXPECT_EQ(binaries.compare.noise_threshold, plan->then.compare.noise_threshold);
  // A benchmark of two executables that fails as they run fails the command too.
  EXPECT_TRUE(plan->then.fail_on_failed_benchmark);
  EXPECT_FALSE(binaries.worker_timeout);
}

TEST(CompareOptions, TheWorkerTimeoutIsAPositiveDuration) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "/bin/false";
  o.worker_timeout = "5min";
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(std::get<BinariesPlan>(plan->what).worker_timeout, std::chrono::minutes(5));
  for (const std::string wrong : {"0s", "soon"}) {
    o.worker_timeout = wrong;
    const auto refused = plan_for(o);
    ASSERT_FALSE(refused) << wrong;
    EXPECT_THAT(refused.error().message,
                HasSubstr("--worker-timeout \"" + wrong + "\" is not a positive duration"));
  }
}

TEST(CompareOptions, MaxRoundsBelowRoundsIsRefused) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "/bin/false";
  o.rounds = 10;
  o.max_rounds = 20;
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(std::get<BinariesPlan>(plan->what).max_rounds, 20u);
  o.max_rounds = 5;
  const auto refused = plan_for(o);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(refused.error().message, HasSubstr("--max-rounds 5 is below --rounds 10"));
}

TEST(CompareOptions, TheBudgetIsAPositiveDurationOfTwoExecutablesRunNow) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "/bin/false";
  o.budget = "1.5min";
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(std::get<BinariesPlan>(plan->what).budget_ns, 90'000'000'000);
  for (const char* bad : {"soon", "0s", "-3s", "10 parsecs"}) {
    o.budget = bad;
    const auto refused = plan_for(o);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind, model::ErrorKind::usage) << bad;
    EXPECT_THAT(refused.error().message, HasSubstr("is not a positive duration")) << bad;
  }
  o.base = "base.json";
  o.candidate = "new.json";
  o.budget = "30s";
  const auto files = plan_for(o);
  ASSERT_FALSE(files);
  EXPECT_THAT(files.error().message, HasSubstr("leave --budget out"));
}

TEST(CompareOptions, TogetherIsOfTwoExecutablesRunNow) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "/bin/false";
  EXPECT_FALSE(std::get<BinariesPlan>(plan_for(o)->what).together);
  o.together = true;
  const auto plan = plan_for(o);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_TRUE(std::get<BinariesPlan>(plan->what).together);
  o.base = "base.json";
  o.candidate = "new.json";
  const auto files = plan_for(o);
  ASSERT_FALSE(files);
  EXPECT_EQ(files.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(files.error().message, HasSubstr("leave --together out"));
}

TEST(CompareOptions, OneOfEachIsRefused) {
  CompareOptions o;
  o.base = "/bin/true";
  o.candidate = "new.json";
  const auto plan = plan_for(o);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(plan.error().message, HasSubstr("not one of each"));
}

}  // namespace
}  // namespace benchkit::session
