// What a command says on stderr at the end of a run in which some benchmarks failed to run or
// some scenario runs failed a check, whatever the format of its report.
#pragma once

#include <cstddef>
#include <string>

#include "benchkit/result.hpp"

namespace benchkit::report {

// "N benchmark(s) failed; every other benchmark is measured and kept:" then "  NAME: CAUSE" for
// each benchmark of `run` that failed to run (its first failure); when none did but
// `invalid_runs` scenario runs failed a check, "N scenario run(s) failed a check and are kept
// out of comparisons"; "" when neither. Names are shown as they are: the caller's stream decides
// (the bench binary's stderr).
std::string failure_summary(const RunResult& run, std::size_t invalid_runs);

}  // namespace benchkit::report
