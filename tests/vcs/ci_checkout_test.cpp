// The branch of a detached HEAD, read from a faked CI environment.
#include "vcs/ci_checkout.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "fakes/fake_environment.hpp"

namespace benchkit::vcs {
namespace {

constexpr char kHead[] = "4f2c1d9e8b7a6f5e4d3c2b1a09f8e7d6c5b4a392";
constexpr char kOther[] = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";

EnvironmentLookup environment(std::map<std::string, std::string> variables) {
  return benchkit::testing::fake_environment(std::move(variables));
}

TEST(CiBranch, OutsideACiThereIsNone) {
  EXPECT_EQ(ci_branch(environment({{"HOME", "/root"}, {"CI", "true"}}), kHead), "");
}

// actions/checkout of a pull request checks out its merge commit, GITHUB_SHA, detached; the
// branch under review is GITHUB_HEAD_REF. A push names its branch in GITHUB_REF, and sets
// GITHUB_HEAD_REF empty.
TEST(CiBranch, GitHubNamesThePullRequestsBranchOrThePushedOne) {
  EXPECT_EQ(ci_branch(environment({{"GITHUB_SHA", kHead},
                                   {"GITHUB_REF", "refs/pull/42/merge"},
                                   {"GITHUB_HEAD_REF", "feature/fast-path"}}),
                      kHead),
            "feature/fast-path");
  EXPECT_EQ(ci_branch(environment({{"GITHUB_SHA", kHead},
                                   {"GITHUB_REF", "refs/heads/main"},
                                   {"GITHUB_HEAD_REF", ""}}),
                      kHead),
            "main");
}

// A tag's build, or a pull request's merge ref with no head ref, is on no branch.
TEST(CiBranch, AnotherRefIsNoBranch) {
  EXPECT_EQ(
      ci_branch(environment({{"GITHUB_SHA", kHead}, {"GITHUB_REF", "refs/tags/v1.2"}}), kHead), "");
  EXPECT_EQ(
      ci_branch(environment({{"GITHUB_SHA", kHead}, {"GITHUB_REF", "refs/pull/7/merge"}}), kHead),
      "");
  EXPECT_EQ(ci_branch(environment({{"BUILD_SOURCEVERSION", kHead},
                                   {"BUILD_SOURCEBRANCH", "refs/tags/v1.2"}}),
                      kHead),
            "");
}

// A job that checked out another revision (a base commit, to measure it) is not on the CI's
// branch.
TEST(CiBranch, AnotherCommitThanTheCisIsOnNoBranch) {
  EXPECT_EQ(
      ci_branch(environment({{"CI_COMMIT_SHA", kOther}, {"CI_COMMIT_BRANCH", "main"}}), kHead), "");
  EXPECT_EQ(
      ci_branch(environment({{"GITHUB_SHA", kOther}, {"GITHUB_REF", "refs/heads/main"}}), kHead),
      "");
}

// GitLab sets CI_COMMIT_BRANCH in branch pipelines only; a merge request pipeline names its
// source branch.
TEST(CiBranch, GitLabNamesTheBranchOrTheMergeRequestsSource) {
  EXPECT_EQ(ci_branch(environment({{"CI_COMMIT_SHA", kHead}, {"CI_COMMIT_BRANCH", "main"}}), kHead),
            "main");
  EXPECT_EQ(ci_branch(environment({{"CI_COMMIT_SHA", kHead},
                                   {"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "speed-up"}}),
                      kHead),
            "speed-up");
  EXPECT_EQ(ci_branch(environment({{"CI_COMMIT_SHA", kHead}, {"CI_COMMIT_TAG", "v2"}}), kHead), "");
}

TEST(CiBranch, TheOtherServicesNameTheirBranches) {
  EXPECT_EQ(
      ci_branch(environment({{"BUILDKITE_COMMIT", kHead}, {"BUILDKITE_BRANCH", "main"}}), kHead),
      "main");
  EXPECT_EQ(ci_branch(environment({{"CIRCLE_SHA1", kHead}, {"CIRCLE_BRANCH", "dev"}}), kHead),
            "dev");
  EXPECT_EQ(ci_branch(environment({{"BUILD_SOURCEVERSION", kHead},
                                   {"BUILD_SOURCEBRANCH", "refs/heads/release/3"}}),
                      kHead),
            "release/3");
  EXPECT_EQ(ci_branch(environment({{"BUILD_SOURCEVERSION", kHead},
                                   {"BUILD_SOURCEBRANCH", "refs/pull/9/merge"},
                                   {"SYSTEM_PULLREQUEST_SOURCEBRANCH", "fix"}}),
                      kHead),
            "fix");
  // Jenkins names a pull request's job PR-24; CHANGE_BRANCH is the branch itself.
  EXPECT_EQ(
      ci_branch(
          environment({{"GIT_COMMIT", kHead}, {"BRANCH_NAME", "PR-24"}, {"CHANGE_BRANCH", "fix"}}),
          kHead),
      "fix");
  EXPECT_EQ(ci_branch(environment({{"GIT_COMMIT", kHead}, {"BRANCH_NAME", "main"}}), kHead),
            "main");
  EXPECT_EQ(ci_branch(environment({{"TRAVIS_COMMIT", kHead},
                                   {"TRAVIS_BRANCH", "main"},
                                   {"TRAVIS_PULL_REQUEST_BRANCH", ""}}),
                      kHead),
            "main");
}

// Buildkite, Jenkins, Travis and CircleCI name a built tag as their branch, or beside it.
TEST(CiBranch, ATagsBuildIsOnNoBranch) {
  EXPECT_EQ(ci_branch(environment({{"BUILDKITE_COMMIT", kHead},
                                   {"BUILDKITE_BRANCH", "v1.0"},
                                   {"BUILDKITE_TAG", "v1.0"}}),
                      kHead),
            "");
  EXPECT_EQ(
      ci_branch(environment({{"GIT_COMMIT", kHead}, {"BRANCH_NAME", "v1.0"}, {"TAG_NAME", "v1.0"}}),
                kHead),
      "");
  EXPECT_EQ(
      ci_branch(environment(
                    {{"TRAVIS_COMMIT", kHead}, {"TRAVIS_BRANCH", "v1.0"}, {"TRAVIS_TAG", "v1.0"}}),
                kHead),
      "");
}

TEST(WithCiBranch, OnlyADetachedHeadTakesTheCisBranch) {
  const EnvironmentLookup gitlab =
      environment({{"CI_COMMIT_SHA", kHead}, {"CI_COMMIT_BRANCH", "main"}});
  EXPECT_EQ(with_ci_branch(GitFacts{kHead, "", false}, gitlab).branch, "main");
  // The user's own `git checkout -B bench` wins.
  EXPECT_EQ(with_ci_branch(GitFacts{kHead, "bench", false}, gitlab).branch, "bench");
  // Outside a repository there is no commit, and no branch either.
  EXPECT_EQ(with_ci_branch(GitFacts{}, gitlab), GitFacts{});
}

}  // namespace
}  // namespace benchkit::vcs
