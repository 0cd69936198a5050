// The branch a CI service checked out, for a HEAD that git reports as detached: GitLab CI, Azure
// Pipelines, Jenkins, Travis and GitHub's pull requests check out a commit, not a branch, so git
// alone would record every CI run on no branch, and `history check --base-branch main` would find
// no history (docs/history.md, docs/ci.md).
#pragma once

#include <string>
#include <string_view>

#include "model/environment.hpp"
#include "vcs/git.hpp"

namespace benchkit::vcs {

using model::EnvironmentLookup;

// The branch the CI service of this environment says it built, when the commit it names is
// `head` (a full hash); "" outside a known CI, when the build is of a tag, or when the commit
// checked out is another (a job that checked out a base revision must not record it on the
// branch under test). Per service, in order of precedence, the first variable set and not empty:
//   GitHub Actions  GITHUB_SHA      GITHUB_HEAD_REF (pull requests), GITHUB_REF (refs/heads/...)
//   GitLab CI       CI_COMMIT_SHA   CI_COMMIT_BRANCH, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME
//   Buildkite       BUILDKITE_COMMIT  BUILDKITE_BRANCH (none when BUILDKITE_TAG is set)
//   CircleCI        CIRCLE_SHA1     CIRCLE_BRANCH
//   Azure Pipelines BUILD_SOURCEVERSION  SYSTEM_PULLREQUEST_SOURCEBRANCH, BUILD_SOURCEBRANCH
//   Jenkins         GIT_COMMIT      CHANGE_BRANCH, BRANCH_NAME (none when TAG_NAME is set)
//   Travis CI       TRAVIS_COMMIT   TRAVIS_PULL_REQUEST_BRANCH, TRAVIS_BRANCH (none with
//   TRAVIS_TAG)
// A value "refs/heads/NAME" is NAME; any other "refs/..." (a tag, a pull request's merge ref) is
// no branch.
std::string ci_branch(const EnvironmentLookup& lookup, std::string_view head);

// `facts` with the CI's branch (ci_branch) when git reports a detached HEAD; a branch git
// reports is kept (the user's own `git checkout -B` wins).
GitFacts with_ci_branch(GitFacts facts, const EnvironmentLookup& lookup);

}  // namespace benchkit::vcs
