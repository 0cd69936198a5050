// Benchmarks kept out of a run by --skip-tag (Registration::skip_when): taken out of the chosen
// instances and recorded as skipped results, each with its tag and reason.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "measure/instances.hpp"

namespace benchkit::session {

// Removes from `chosen` every instance with a skip_when rule whose tag is in `skip_tags`, and
// returns a skipped result for each (its first matching rule), in the order they were chosen.
std::vector<BenchmarkResult> take_skipped(std::vector<measure::Instance>& chosen,
                                          const std::vector<std::string>& skip_tags);

// The skipped result of one benchmark (`kind` "micro" or "scenario") when one of its `rules` has
// a tag in `skip_tags` (the first such rule gives the tag and reason); nullopt when it runs.
std::optional<BenchmarkResult> skipped_by(const std::string& name, const std::string& kind,
                                          const std::map<std::string, std::string>& params,
                                          const std::vector<SkipRule>& rules,
                                          const std::vector<std::string>& skip_tags);

// "codec/level=9 skipped (--skip-tag ci): walltime varies 8% between runners": one line.
std::string describe_skip(const BenchmarkResult& skipped);

}  // namespace benchkit::session
