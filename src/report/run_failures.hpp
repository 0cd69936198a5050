// What a command says on stderr at the end of a run in which some benchmarks failed to run or
// some scenario runs failed a check, whatever the format of its report.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchkit/result.hpp"
#include "report/run_summary.hpp"

namespace benchkit::report {

// "N benchmark(s) failed; every other benchmark is measured and kept:" then "  NAME: CAUSE" for
// each benchmark of `run` that failed to run (its first failure); when none did but
// `invalid_runs` scenario runs failed a check, "N scenario run(s) failed a check and are kept
// out of comparisons"; "" when neither. Names are shown as they are: the caller's stream decides
// (the bench binary's stderr).
std::string failure_summary(const RunResult& run, std::size_t invalid_runs);

// What the bench binary says on stderr at the end of its run: `errors`, "NAME is invalid: CHECK"
// for each failed check of each scenario run in `invalid_runs` (session::Outcome::invalid_runs);
// `note`, the failure_summary, then when `interrupted` "interrupted: what finished before it is
// shown", and "and kept in A and B" for `kept_in` (the --out file, "baseline NAME").
RunFailures bench_failures(
    const RunResult& run,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& invalid_runs,
    bool interrupted, const std::vector<std::string>& kept_in = {});

// What a command says on stderr after its report when Ctrl-C stopped it once some of its
// `parts` had finished: "interrupted: `figures` rest on the `parts` that finished before it (exit
// status 130)". `compare` and `ab`: the verdicts, the rounds
// (session::SideBySideRuns::interrupted_in); `noise`: the figures, the processes.
std::string interrupted_note(std::string_view figures, std::string_view parts);

}  // namespace benchkit::report
