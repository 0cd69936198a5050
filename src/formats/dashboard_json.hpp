// Documents for benchmark dashboards, written from a run's estimates (docs/interop.md):
//
//   Bencher Metric Format (bencher run --adapter json): an object keyed by benchmark name, each
//   holding measures; "latency" is the median in nanoseconds with its 95% CI as lower_value
//   and upper_value, and "throughput" (items per second, when the benchmark declares items)
//   the same interval turned into a rate.
//
//   github-action-benchmark's customSmallerIsBetter (tool: customSmallerIsBetter): an array of
//   {name, unit, value, range, extra}, the median in nanoseconds, "range" the half-width of its
//   95% CI ("± 1.2"), "extra" the CI and the sample count.
//
// Both leave out benchmarks that failed or have no samples: a dashboard has no place for them.
#pragma once

#include <string>

#include "benchkit/result.hpp"

namespace benchkit::formats {

std::string to_bmf_json(const RunResult& run);

std::string to_github_action_json(const RunResult& run);

}  // namespace benchkit::formats
