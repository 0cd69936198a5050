// `benchkit noise ./my_bench`: the A/A experiment on a bench binary. The binary runs its suite in
// N fresh processes (--processes N --out FILE, the file in a temporary folder) and its merged
// result is loaded for the analysis (analysis/noise.hpp). It prints nothing; the binary's own
// progress and failure messages go to this process's stderr, its table is discarded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/noise.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "session/order_dependence.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"

namespace benchkit::session {

struct NoiseRequest {
  std::string executable;  // the bench binary, a path (not looked up in PATH)
  std::string name;        // how the user named it, for the messages
  std::size_t processes = 10;
  std::vector<std::string> flags;  // the bench binary's own flags (--filter, --time-budget, ...)
};

struct NoiseRun {
  RunResult run;
  // The binary exited with status 1 but left a result: some benchmarks failed (it said which,
  // and they are failed results in `run`), the others were measured.
  bool partial = false;
  // Ctrl-C: the binary stopped and left what finished before it (it exited with status 130).
  bool interrupted = false;
};

// The command that runs the experiment, writing the result to `out`.
std::vector<std::string> noise_command(const NoiseRequest& request, const std::string& out);

// Runs the experiment. The error (kind failed, or input for the temporary folder) says what the
// binary did or which file is missing, with the command that was run.
// The A/A findings of `run` (samples carrying process indices; estimates need not be computed):
// analysis::analyse_noise's, and, when no benchmark ran in 2 or more processes, the error that
// says so (kind input: exit status 2; the report is still shown, saying why).
struct NoiseFindings {
  analysis::NoiseAnalysis analysis = {};
  std::optional<model::Error> nothing_analysed = {};
};
NoiseFindings noise_findings(const RunResult& run);

model::Result<NoiseRun> run_noise_experiment(const NoiseRequest& request);

// The path of the bench binary `target` names (without a slash: a file in this folder), once it
// is an executable file; the error says what it is instead (kind input).
model::Result<std::string> bench_binary_path(const std::string& target);

// The checks before the experiment: a benchkit bench binary of this protocol, in at most 64
// processes, given none of the flags noise sets itself. The error is of kind input.
std::optional<model::Error> check_noise_binary(const std::string& path, const NoisePlan& plan);

// The counted-order check: the binary checked, `measuring_started` told, then counted both
// ways. Every error is of kind input (an A/A experiment that did not run has no finding).
model::Result<OrderReport> check_count_order(const CountOrderPlan& plan, Observer& observer);

}  // namespace benchkit::session
