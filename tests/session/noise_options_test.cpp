#include "session/noise_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(NoiseOptions, ACommandAfterDoubleDashRunsInFreshProcesses) {
  NoiseCommandOptions o;
  o.trailing = {"sleep", "0.1"};
  o.processes = 4;
  const auto target = noise_target(o);
  ASSERT_TRUE(target) << target.error().message;
  const auto& experiment = std::get<NoiseExperiment>(*target);
  const auto& plan = std::get<CommandNoisePlan>(experiment.plan.what);
  EXPECT_THAT(plan.argv, ElementsAre("sleep", "0.1"));
  EXPECT_EQ(plan.runs, 4u);
  EXPECT_EQ(experiment.shown.subject, "sleep 0.1");
  EXPECT_EQ(experiment.shown.example, "benchkit run --baseline NAME -- sleep 0.1");
}

TEST(NoiseOptions, ABenchBinaryRunsInFreshProcessesOrIsCountedInTwoOrders) {
  NoiseCommandOptions o;
  o.target = "./bench";
  o.trailing = {"--filter", "sort"};
  const auto target = noise_target(o);
  ASSERT_TRUE(target);
  const auto& plan = std::get<NoisePlan>(std::get<NoiseExperiment>(*target).plan.what);
  EXPECT_EQ(plan.target, "./bench");
  EXPECT_THAT(plan.flags, ElementsAre("--filter", "sort"));
  o.mode = Mode::instructions;
  const auto counted = noise_target(o);
  ASSERT_TRUE(counted);
  EXPECT_EQ(std::get<CountOrderPlan>(*counted).target, "./bench");
}

TEST(NoiseOptions, AResultFileIsAnalysedAsItIs) {
  NoiseCommandOptions o;
  o.target = "runs.json";
  const auto target = noise_target(o);
  ASSERT_TRUE(target);
  EXPECT_EQ(std::get<NoiseResultFile>(*target).path, "runs.json");
}

TEST(NoiseOptions, MissingOrMisplacedWordsAreRefused) {
  const NoiseCommandOptions none;
  EXPECT_THAT(noise_target(none).error().message, HasSubstr("needs a bench binary"));
  NoiseCommandOptions stray;
  stray.target = "./bench";
  stray.stray_words = {"--filter"};
  EXPECT_THAT(noise_target(stray).error().message, HasSubstr("unexpected argument \"--filter\""));
}

}  // namespace
}  // namespace benchkit::session
