// Which CI run this process belongs to, read from the variables each CI service sets in every
// job of a run: the default run group of a shard recorded into the history (docs/history.md), so
// that the shards of one CI run, recorded by several runners, are one run there.
#pragma once

#include <string>

#include "model/environment.hpp"

namespace benchkit::system {

using model::EnvironmentLookup;

// "github:RUN_ID.ATTEMPT", "gitlab:PIPELINE_ID", "buildkite:BUILD_ID", "circleci:WORKFLOW_ID",
// "azure:BUILD_ID", "jenkins:BUILD_TAG", "travis:BUILD_ID", or "" outside a known CI. Each id is
// the same in every job of one run of the pipeline (a matrix's or `parallel:` jobs alike) and
// differs between runs. A retried GitHub run keeps its id and counts attempts
// (GITHUB_RUN_ATTEMPT): the attempt is part of the group, so that a retry's shards are not
// joined with those of the failed attempt. The service's name keeps two services' numbers apart.
std::string ci_run_id(const EnvironmentLookup& lookup);

// ci_run_id of this process's environment.
std::string ci_run_id_from_environment();

}  // namespace benchkit::system
