// A bench binary's options as the user gives them, as plain data (cli/bench_flags.cpp binds its
// flags to these fields), and what they become: the run settings, the benchmarks chosen, the
// checks made before anything runs, and the plan of the run. Every error names the flag and the
// fix.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "measure/instances.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "process/worker_invocation.hpp"
#include "session/command_options.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"
#include "session/runner.hpp"

namespace benchkit::session {

struct BenchOptions {
  std::string filter;
  bool exact = false;
  bool list = false;
  bool test = false;
  std::string time_budget;
  std::string warm_up;
  std::size_t sample_size = 0;
  double precision = 0.0;
  std::uint64_t seed = 0;
  model::Format format = model::Format::console;  // when --format is given (else by --out)
  std::string out;
  std::string html;  // --html FILE: the results (and the comparison) as an HTML page
  bool quiet = false;
  std::string color = "auto";
  bool no_counters = false;
  std::string save_baseline;
  std::string baseline;
  std::string baseline_file;
  ComparisonFlags comparison;  // --noise-threshold, --count-threshold, --adjust, --all-samples
  bool fail_on_regression = false;
  bool no_machine_warnings = false;
  std::vector<std::string> tags;
  bool record = false;  // --record: store the run in the history (docs/history.md)
  std::string store;    // --store: which history (default $BENCHKIT_STORE, .benchkit/history.db)
  std::string group;    // --group: the run group (session/run_groups.hpp); "" the default
  std::vector<std::string> skip_tags;  // --skip-tag: leave out benchmarks with skip_when(TAG)
  // --shard K/N: only the K-th of N disjoint parts of the selection (session/shard.hpp);
  // --shard-by count (equal numbers) or history (equal durations recorded in --store).
  std::string shard;
  std::string shard_by = "count";
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
  // Benchmarks still inconclusive after `rounds` get more, one at a time, up to this
  // (0: kMaxRoundsFactor times `rounds`).
  std::size_t max_rounds = 0;
  // --budget: the wall time of the whole side-by-side comparison; rounds after the first go to
  // the benchmarks furthest from settled while it lasts (session/suite_budget.hpp). "": none.
  std::string budget;
  std::int64_t budget_ns = 0;
  // How long a side-by-side worker may take to set up, to take one sample or to write its
  // results before it is taken for hung and killed.
  std::string worker_timeout = "120s";
  // A benchmark still running after this long is taken for hung: recorded as failed.
  std::string timeout = "300s";
  std::int64_t worker_timeout_ns = 0;
  bool saved_samples = false;
  // What is measured: time (the clock), instructions (counted under valgrind's callgrind,
  // docs/instructions.md) or counters (instructions:u from the CPU's counters, natively).
  Mode mode = Mode::time;
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
  // The flags given on the command line, as spelled ("--rounds"): flags that apply only with
  // another are refused alone.
  std::vector<std::string> given;
  std::string command_line;  // the user's, passwords redacted, for the results' context
};

// Benchmarks still inconclusive after --rounds get more, up to this many times --rounds. Rounds
// of a memory-bound 64 MiB sum scatter 7-8% here (each process pair's buffers land on other
// physical pages), and its 5% slow-down was found in 3 of 9 comparisons at 30 rounds, 8 of 9 at
// 60 and 90; resampling those rounds: 57%, 90%, 97% (docs/verdicts.md). Decided benchmarks stop
// early, so the cost falls on the noisy ones. `ab` and `bisect` take the same default. The looks
// after each round are read at their levels of a group-sequential design spread over these
// rounds (analysis::sequential_levels), so a higher maximum makes each look a little stricter.
inline constexpr std::size_t kMaxRoundsFactor = 9;
std::size_t max_rounds_of(const BenchOptions& options);

// A benchmark still running after this long is taken for hung (--timeout's default).
inline constexpr std::int64_t kDefaultTimeoutNs = 300'000'000'000;
// Side by side (--baseline, ab, compare OLD NEW of bench binaries), each side's sampling time
// per benchmark over the first look's rounds when no --time-budget is given: turns of 10 ms at
// 10 rounds. Shorter turns make cheap rounds, and a round's scatter is mostly the difference
// between its two processes, which only more rounds average away: against 250 ms, the
// compute-bound set decided in 0.5-0.7 s a benchmark instead of 0.9-1.3 s, and the workload's
// seven benchmarks 11-14% sooner with twice the 2% changes found and no false alarm
// (docs/verdicts.md, "Shorter turns" and "100 ms a side").
inline constexpr std::int64_t kSideBySideBudgetNs = 100'000'000;

// A side's sampling time in each round side by side: `budget_ns` over `rounds`, at least 1 ms
// (a shorter turn is all process start-up).
inline std::int64_t turn_budget_ns(std::int64_t budget_ns, std::size_t rounds) {
  return std::max<std::int64_t>(
      1'000'000, budget_ns / static_cast<std::int64_t>(std::max<std::size_t>(1, rounds)));
}

// --processes as the run needs it when not given: counts do not change from one process to the
// next (one run is the whole answer); a run that saves or checks a baseline takes three.
void default_processes(BenchOptions& options);

// The run settings the options give (worker_timeout_ns is filled in too); the error names the
// flag and the fix.
model::Result<RunSettings> run_settings(BenchOptions& options);

// The run settings of a worker's invocation: the one rule from options to settings, which the
// user's options go through too.
RunSettings run_settings(const process::WorkerInvocation& invocation);

// --param NAME=V1,V2 (repeatable) as overrides of the registered values: a value that reads as an
// integer or a number is one, else text.
measure::ParamOverrides parse_param_overrides(const std::vector<std::string>& params);

// How the user's options choose benchmarks (--filter, --exact, --param, --skip-tag, --list), as
// a worker is told them: the one selection of this process and of every worker it starts.
process::WorkerInvocation selection_of(const BenchOptions& options);

// What every worker this run starts is told, whether the workers run one after another or side
// by side (session::BenchPlan::worker): how to choose the benchmarks this process chose, and
// what changes what a benchmark measures or records.
process::WorkerInvocation shared_worker_invocation(const BenchOptions& options,
                                                   const RunSettings& settings);

// --mode as the user's run can honour it: benchkit starts valgrind itself for a counted run, and
// --mode counters needs the CPU's counters (not to --list the benchmarks).
std::optional<model::Error> check_mode(const BenchOptions& options);

// --mode as a worker can honour it: a counted worker must run under valgrind with its dump
// files named, and never takes turns.
std::optional<model::Error> check_worker_mode(const process::WorkerInvocation& invocation);

// The benchmarks a run chose, those --skip-tag left out, and how many scenarios a counted run
// leaves out (under callgrind a scenario would take minutes, its times the simulation's).
struct Chosen {
  std::vector<measure::Instance> chosen;
  std::vector<BenchmarkResult> skipped;
  std::size_t scenarios_left_out = 0;
  // --shard K/N: which part `chosen` is, and the positions of its benchmarks in the whole
  // selection (what the run's workers are told, --worker-shard).
  std::optional<Shard> shard;
  std::optional<std::vector<std::size_t>> shard_positions;
};

// The registered benchmarks that `selection` (the user's, or a worker's as its driver chose
// them) chooses; the error says why none can run. With `list`, none is no error.
model::Result<Chosen> choose(const process::WorkerInvocation& selection, Mode mode);

// The benchmarks the user's run chooses: choose() of selection_of(options), then only the part
// of --shard K/N (by --shard-by; history reads --store). Benchmarks left out by --skip-tag are
// listed by shard 1 alone, so that the shards' results merge without overlap. A bad --shard or
// --shard-by is a usage error naming it and the fix.
model::Result<Chosen> choose_for_run(const BenchOptions& options);

// For a bench binary's flags that did not parse: when one is Google Benchmark's
// (--benchmark_filter=X), a sentence naming benchkit's form of it and the porting guide, to
// follow the parser's message; else "".
std::string gbench_flag_hint(const std::vector<std::string>& words);

// Checks made before anything runs, so that a long run never ends in a usage error: the
// baseline options go together, a bad --out folder is found now, a history that cannot be opened.
std::optional<model::Error> check_before_running(const BenchOptions& options);

// The plan of the user's run: the benchmarks chosen, how they are measured, what is compared
// (the baseline loaded now, so that a missing one costs nothing) and saved afterwards. Makes the
// checks of check_before_running first.
model::Result<Plan> plan_for(const BenchOptions& options, RunSettings settings, Chosen chosen);

// The plan of a worker of a side-by-side comparison: its one benchmark measured in this process,
// one sample per turn that `gate` gives.
Plan turns_plan(const process::WorkerInvocation& invocation, RunSettings settings, Chosen chosen,
                measure::SampleGate& gate);

// --profile-time runs one benchmark for a positive duration: the error says which is wrong.
// `shown` is the duration as given.
std::optional<model::Error> check_profiled(std::optional<std::int64_t> duration_ns,
                                           const std::string& shown,
                                           const std::vector<measure::Instance>& chosen);

}  // namespace benchkit::session
