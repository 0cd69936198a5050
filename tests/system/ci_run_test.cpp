// The CI run a process belongs to, read from a faked environment.
#include "system/ci_run.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "fakes/fake_environment.hpp"

namespace benchkit::system {
namespace {

EnvironmentLookup environment(std::map<std::string, std::string> variables) {
  return benchkit::testing::fake_environment(std::move(variables));
}

TEST(CiRun, OutsideACiThereIsNone) {
  EXPECT_EQ(ci_run_id(environment({{"HOME", "/root"}, {"CI", "true"}})), "");
}

// A retried GitHub run keeps GITHUB_RUN_ID: the attempt keeps the retry's shards apart.
TEST(CiRun, GitHubNamesTheRunAndItsAttempt) {
  EXPECT_EQ(ci_run_id(environment({{"GITHUB_RUN_ID", "8812"}, {"GITHUB_RUN_ATTEMPT", "2"}})),
            "github:8812.2");
  EXPECT_EQ(ci_run_id(environment({{"GITHUB_RUN_ID", "8812"}})), "github:8812");
}

TEST(CiRun, EachServiceIsNamedWithItsRunsId) {
  EXPECT_EQ(ci_run_id(environment({{"CI_PIPELINE_ID", "77"}, {"CI_NODE_INDEX", "3"}})),
            "gitlab:77");
  EXPECT_EQ(ci_run_id(environment({{"BUILDKITE_BUILD_ID", "0190-ab"}})), "buildkite:0190-ab");
  EXPECT_EQ(ci_run_id(environment({{"CIRCLE_WORKFLOW_ID", "wf-1"}})), "circleci:wf-1");
}

// An empty variable is no id (a runner exporting it unset must not group every run as one).
TEST(CiRun, AnEmptyVariableIsNoRun) {
  EXPECT_EQ(ci_run_id(environment({{"GITHUB_RUN_ID", ""}, {"CI_PIPELINE_ID", "5"}})), "gitlab:5");
}

}  // namespace
}  // namespace benchkit::system
