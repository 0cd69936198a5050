#include "system/ci_run.hpp"

#include <array>
#include <cstdlib>

namespace benchkit::system {
namespace {

struct CiService {
  const char* name;
  const char* run_variable;      // the run's id, the same in every job of the run
  const char* attempt_variable;  // the attempt of a retried run, or null
};

// In order of precedence (a runner sets one service's variables only).
constexpr std::array<CiService, 7> kServices{{
    {"github", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT"},
    {"gitlab", "CI_PIPELINE_ID", nullptr},
    {"buildkite", "BUILDKITE_BUILD_ID", nullptr},
    {"circleci", "CIRCLE_WORKFLOW_ID", nullptr},
    {"azure", "BUILD_BUILDID", nullptr},
    {"jenkins", "BUILD_TAG", nullptr},
    {"travis", "TRAVIS_BUILD_ID", nullptr},
}};

}  // namespace

std::string ci_run_id(const EnvironmentLookup& lookup) {
  for (const CiService& service : kServices) {
    const std::string run(model::environment_value(lookup, service.run_variable));
    if (run.empty()) continue;
    const std::string attempt(model::environment_value(lookup, service.attempt_variable));
    return std::string(service.name) + ":" + run + (attempt.empty() ? "" : "." + attempt);
  }
  return {};
}

std::string ci_run_id_from_environment() {
  return ci_run_id([](const char* name) { return std::getenv(name); });
}

}  // namespace benchkit::system
