// The names of a failed benchmark's causes, as result files and reports spell them.
#pragma once

#include <optional>
#include <string_view>

#include "benchkit/result.hpp"

namespace benchkit::model {

// "threw", "crashed", "timed_out", "exited", "interrupted".
std::string_view failure_cause_name(Failure::Cause cause);
// The cause a name stands for; nothing for an unknown name.
std::optional<Failure::Cause> failure_cause_from_name(std::string_view name);

// A benchmark that failed with nothing measured: it crashed, threw, hung or exited (`failure`),
// or the tool that ran it reported an error and gave no sample (a Google Benchmark row with
// error_occurred). Reports show it as failed, with its reason, never as 0 ns.
bool failed_unmeasured(const BenchmarkResult& b);
// The word a report's table shows for such a benchmark: its failure's cause, else "error".
std::string_view unmeasured_cause(const BenchmarkResult& b);

// What joins a failed process's last lines on standard error, on one line, to its failure's
// message ("... killed by signal 6 (SIGABRT); its standard error ends: LINE | LINE"): a report
// that shows Failure::stderr_tail as a block of its own leaves this part of the message out.
inline constexpr std::string_view kStderrTailJoint = "; its standard error ends: ";

}  // namespace benchkit::model
