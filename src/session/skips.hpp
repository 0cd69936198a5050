// Benchmarks kept out of a run by --skip-tag (Registration::skip_when): taken out of the chosen
// instances and recorded as skipped results, each with its tag and reason.
#pragma once

#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "measure/instances.hpp"

namespace benchkit::session {

// Removes from `chosen` every instance with a skip_when rule whose tag is in `skip_tags`, and
// returns a skipped result for each (its first matching rule), in the order they were chosen.
std::vector<BenchmarkResult> take_skipped(std::vector<measure::Instance>& chosen,
                                          const std::vector<std::string>& skip_tags);

// "codec/level=9 skipped (--skip-tag ci): walltime varies 8% between runners": one line.
std::string describe_skip(const BenchmarkResult& skipped);

}  // namespace benchkit::session
