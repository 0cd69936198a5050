// The bench binary's flags: what a user types, turned into a validated run request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "cli/commands.hpp"
#include "model/error.hpp"
#include "process/worker_invocation.hpp"
#include "report/reporter.hpp"
#include "session/pipeline.hpp"
#include "session/runner.hpp"

namespace CLI {
class App;
}

namespace benchkit::cli {

struct BenchFlags {
  std::string filter;
  bool exact = false;
  bool list = false;
  bool test = false;
  std::string time_budget;
  std::string warm_up;
  std::size_t sample_size = 0;
  double precision = 0.0;
  std::uint64_t seed = 0;
  std::string format;
  std::string out;
  std::string html;  // --html FILE: the results (and the comparison) as an HTML page
  bool quiet = false;
  std::string color = "auto";
  bool no_counters = false;
  std::string save_baseline;
  std::string baseline;
  std::string baseline_file;
  cli::ComparisonFlags comparison;  // --noise-threshold, --count-threshold, --adjust, --all-samples
  bool fail_on_regression = false;
  bool no_machine_warnings = false;
  std::vector<std::string> tags;
  bool record = false;  // --record: store the run in the history (docs/history.md)
  std::string store;    // --store: which history (default $BENCHKIT_STORE, .benchkit/history.db)
  std::vector<std::string> skip_tags;  // --skip-tag: leave out benchmarks with skip_when(TAG)
  std::size_t repetitions = 1;
  std::vector<std::string> params;  // NAME=V1,V2,...
  // 0 = automatic: 3 fresh processes when the run saves or checks a baseline, 1 otherwise.
  // On a shared machine the speed changes between runs by far more than within one: one
  // process per run gave 55% false alarms in A/A comparisons against 2.4% with three
  // (bench/verdicts/measure_rates, docs/verdicts.md). A plain run stays in one process, fast.
  std::size_t processes = 0;
  // Everything in this one process, no forked worker per benchmark: for a debugger or a
  // profiler that follows one process (docs/isolation.md).
  bool in_process = false;
  // Side-by-side comparisons (--baseline NAME with the baseline's executable kept): rounds of
  // fresh process pairs per benchmark; --saved-samples compares the saved samples instead.
  std::size_t rounds = 10;
  // Benchmarks still inconclusive after `rounds` get more, `rounds` at a time, up to this
  // (0: kMaxRoundsFactor times `rounds`).
  std::size_t max_rounds = 0;
  // How long a side-by-side worker may take to set up, to take one sample or to write its
  // results before it is taken for hung and killed.
  std::string worker_timeout = "120s";
  // A benchmark still running after this long is taken for hung: recorded as failed.
  std::string timeout = "300s";
  std::int64_t worker_timeout_ns = 0;
  bool saved_samples = false;
  // What is measured: time (the clock), instructions (counted under valgrind's callgrind,
  // docs/instructions.md) or counters (instructions:u from the CPU's counters, natively).
  session::Mode mode = session::Mode::time;
  // Counted runs: "" = each benchmark in a fresh process; "forward" or "reverse": all in one
  // valgrind process in that order (benchkit noise --mode instructions, docs/instructions.md).
  std::string counted_order;
  // Counted runs: environment variables passed to the benchmarks besides the fixed ones.
  std::vector<std::string> keep_env;
  // --profile-time DURATION: run only the chosen benchmark's measured routine for this long
  // (after its set-up and one warm-up iteration), in this process, for a profiler
  // (docs/profiling.md); `benchkit profile` starts it as a worker instead
  // (process/worker_invocation.hpp), with its markers and summary file.
  std::string profile_time;
};

// Registers every flag of the bench binary on `app`.
void add_bench_flags(CLI::App& app, BenchFlags& flags);

// Benchmarks still inconclusive after --rounds get more, up to this many times --rounds. Rounds
// of a memory-bound 64 MiB sum scatter 7-8% here (each process pair's buffers land on other
// physical pages), and its 5% slow-down was found in 3 of 9 comparisons at 30 rounds, 8 of 9 at
// 60 and 90; resampling those rounds: 57%, 90%, 97% (docs/verdicts.md). Decided benchmarks stop
// early, so the cost falls on the noisy ones.
inline constexpr std::size_t kMaxRoundsFactor = 9;
std::size_t max_rounds_of(const BenchFlags& flags);

// A benchmark still running after this long is taken for hung (--timeout's default).
inline constexpr std::int64_t kDefaultTimeoutNs = 300'000'000'000;

// The run settings the flags give; the error names the flag and the fix.
model::Result<session::RunSettings> run_settings(BenchFlags& flags);

// The run settings of a worker's invocation: the one rule from flags to settings, which the
// user's flags go through too.
session::RunSettings run_settings(const process::WorkerInvocation& invocation);

// --param NAME=V1,V2 (repeatable) as overrides of the registered values.
measure::ParamOverrides parse_param_overrides(const std::vector<std::string>& params);

// What every worker this run starts is told, whether the workers run one after another or side
// by side (session::BenchPlan::worker): how to choose the benchmarks this process chose, and
// what changes what a benchmark measures or records.
process::WorkerInvocation shared_worker_invocation(const BenchFlags& flags,
                                                   const session::RunSettings& settings);

// Checks made before anything runs, so that a long run never ends in a usage error: the
// baseline flags go together, a bad --out folder is found now. `app` tells which flags were given.
std::optional<model::Error> check_before_running(const BenchFlags& flags, const CLI::App& app);

// --format, or console (json when --out is given).
report::Format output_format(const BenchFlags& flags);

}  // namespace benchkit::cli
