#include "vcs/ci_checkout.hpp"

#include <array>
#include <utility>

namespace benchkit::vcs {
namespace {

struct CiCheckout {
  const char* commit_variable;                  // the commit the service built
  std::array<const char*, 2> branch_variables;  // in order of precedence; null for none
  const char* tag_variable;                     // set when a tag was built; null for none
};

// A runner sets one service's variables only; their order is that of system/ci_run.cpp.
constexpr std::array<CiCheckout, 7> kServices{{
    {"GITHUB_SHA", {"GITHUB_HEAD_REF", "GITHUB_REF"}, nullptr},
    {"CI_COMMIT_SHA", {"CI_COMMIT_BRANCH", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"}, nullptr},
    {"BUILDKITE_COMMIT", {"BUILDKITE_BRANCH", nullptr}, "BUILDKITE_TAG"},
    {"CIRCLE_SHA1", {"CIRCLE_BRANCH", nullptr}, "CIRCLE_TAG"},
    {"BUILD_SOURCEVERSION", {"SYSTEM_PULLREQUEST_SOURCEBRANCH", "BUILD_SOURCEBRANCH"}, nullptr},
    {"GIT_COMMIT", {"CHANGE_BRANCH", "BRANCH_NAME"}, "TAG_NAME"},
    {"TRAVIS_COMMIT", {"TRAVIS_PULL_REQUEST_BRANCH", "TRAVIS_BRANCH"}, "TRAVIS_TAG"},
}};

// "refs/heads/NAME" is NAME, another ref is no branch, a plain name is itself.
std::string_view branch_name(std::string_view value) {
  constexpr std::string_view kHeads = "refs/heads/";
  if (value.starts_with(kHeads)) return value.substr(kHeads.size());
  if (value.starts_with("refs/")) return {};
  return value;
}

}  // namespace

std::string ci_branch(const EnvironmentLookup& lookup, std::string_view head) {
  for (const CiCheckout& service : kServices) {
    const std::string_view commit = model::environment_value(lookup, service.commit_variable);
    if (commit.empty()) continue;
    // Another service's variables are not read: the first whose commit is set is this runner's.
    if (commit != head || !model::environment_value(lookup, service.tag_variable).empty())
      return {};
    for (const char* variable : service.branch_variables) {
      const std::string_view value = model::environment_value(lookup, variable);
      if (!value.empty()) return std::string(branch_name(value));
    }
    return {};
  }
  return {};
}

GitFacts with_ci_branch(GitFacts facts, const EnvironmentLookup& lookup) {
  if (facts.branch.empty() && !facts.commit.empty()) {
    facts.branch = ci_branch(lookup, facts.commit);
  }
  return facts;
}

}  // namespace benchkit::vcs
