// The typed plans of the run pipeline (session/pipeline.hpp): what to measure, one struct per
// kind of measurement, each turned into its Measurer by make_measurer. A command line fills one
// from its flags; nothing here knows a flag's spelling.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "measure/instances.hpp"
#include "process/worker_invocation.hpp"
#include "session/commands.hpp"
#include "session/counted_commands.hpp"
#include "session/pipeline.hpp"
#include "session/revisions.hpp"
#include "session/runner.hpp"
#include "session/shard.hpp"

namespace benchkit::session {

// A bench binary's own run of the benchmarks it chose: its suite (each benchmark in a forked
// worker, all in this process, or the suite in N fresh processes), side by side with the
// baseline's kept binary, or counted under valgrind (Mode::instructions).
struct BenchPlan {
  Mode mode = Mode::time;
  RunSettings settings;
  std::vector<measure::Instance> chosen;
  // Left out by --skip-tag: reported with the results, not run.
  std::vector<BenchmarkResult> skipped;
  // Mode::instructions counts micro benchmarks only: how many scenarios were left out.
  std::size_t scenarios_left_out = 0;
  bool test = false;           // each benchmark once (a smoke run)
  std::optional<Shard> shard;  // --shard K/N: the part of the selection `chosen` is
  bool in_process = false;     // no worker: a crash ends the run
  std::size_t processes = 1;

  // What the workers this run starts are told, whatever their role (each measurer adds the
  // role, the budget and the benchmarks): how to choose the same benchmarks as this process
  // (filter, exact, skip tags, params), the sample size the user asked for (0: the engine's),
  // and what changes what a benchmark measures or records (warm-up, seed, repetitions, no
  // counters, no machine warnings, tags).
  process::WorkerInvocation worker;

  // The run compared against, loaded before measuring (a missing baseline costs nothing).
  std::optional<RunResult> baseline;
  // --baseline NAME: the bench binary kept with it runs again side by side with this one,
  // unless `saved_samples` (compare the saved samples) or it cannot take turns.
  std::string baseline_name;
  bool saved_samples = false;
  // Side by side: fresh process pairs per benchmark, and up to `max_rounds` for those still
  // inconclusive; a worker silent for longer than `worker_timeout_ns` is killed.
  std::size_t rounds = 10;
  std::size_t max_rounds = 0;
  std::int64_t worker_timeout_ns = 0;
  std::int64_t budget_ns = 0;         // --budget, as BinariesPlan::budget_ns
  analysis::CompareSettings compare;  // for the looks that decide extra rounds
  // Each side's sampling time per benchmark over `rounds` (--time-budget, else
  // kSideBySideBudgetNs).
  std::int64_t side_by_side_budget_ns = 0;

  // Mode::instructions: "" = each benchmark in a fresh valgrind process; "forward" or
  // "reverse": all in one process in that order. `keep_env`: variables passed through.
  std::string counted_order;
  std::vector<std::string> keep_env;
};

// `benchkit compare OLD NEW` of two executables: both benchkit bench binaries (sampling in
// turns) or both Google Benchmark binaries, run side by side in paired rounds.
struct BinariesPlan {
  std::string base;
  std::string candidate;
  std::vector<std::string> flags;  // given to every process of both (after `--`)
  std::string filter;              // ECMAScript regex searched in the names ("" all)
  std::size_t rounds = 10;
  // Benchmarks undecided after `rounds` get more, one at a time, up to this (0: none).
  std::size_t max_rounds = 0;
  // --budget: the wall time of the whole comparison, rounds after the first going to the
  // benchmarks furthest from settled (session/suite_budget.hpp); 0: none.
  std::int64_t budget_ns = 0;
  analysis::CompareSettings compare;  // for the looks that decide extra rounds
  std::optional<ShardSpec> shard;     // --shard K/N: only that part of the common benchmarks
  // Of the new run's context (`benchkit run ./gb --baseline NAME`); "": left as measured.
  std::string command_line;
  // A benchkit worker silent this long, or a Google Benchmark process running this long for each
  // of its benchmarks (beyond what its flags ask), is killed: compare's --worker-timeout, run's
  // --timeout. None: 60 s and kGbenchProcessTimeout.
  std::optional<std::chrono::milliseconds> worker_timeout;
  // --together: Google Benchmark binaries run each round's benchmarks in one process a build,
  // one after another as in the suite's own run, rather than each alone in a process of its own
  // (which a suite slow to start gets anyway: GbenchSideBySide::together_from_s).
  bool together = false;
};

// `benchkit compare OLD NEW` of two result files or baselines: nothing to measure, both read.
struct FilesPlan {
  std::string base;
  std::string candidate;
};

// `benchkit run -- CMD` or `--cmd A --cmd B`: whole commands interleaved in rounds
// (session/commands.hpp), compared among themselves on the paired rounds; the pipeline compares
// the run with `baseline`.
struct CommandsPlan {
  CommandRequest request;
  CommandPlan planned;  // plan_commands(request), made while the flags were checked
  std::optional<RunResult> baseline;
  std::string command_line;  // of the results' context
};

// `benchkit run --mode instructions -- CMD`: the whole command, its children too, counted under
// valgrind's callgrind in fresh runs (session/counted_commands.hpp).
struct CountedCommandPlan {
  CountedCommandRequest request;
  std::optional<RunResult> baseline;
  std::uint64_t seed = 0;    // recorded in the context
  std::string command_line;  // of the results' context
};

// `benchkit run ./gb_binary`: a Google Benchmark binary run in fresh processes and merged
// (session/gbench_binary.hpp).
struct GbenchRunPlan {
  std::string executable;
  std::size_t processes = 5;
  std::vector<std::string> flags;  // Google Benchmark's, given to every process
  std::string filter;              // --filter: ECMAScript regex searched in the names ("" all)
  std::optional<ShardSpec> shard;  // --shard K/N: one part of the listed benchmarks
  std::optional<RunResult> baseline;
  std::string command_line;  // of the results' context
  // A process running this long for each of its benchmarks (beyond what its flags ask) is
  // killed and that benchmark fails (run's --timeout); none: kGbenchProcessTimeout.
  std::optional<std::chrono::milliseconds> timeout;
};

// How the bench binaries of two builds run side by side (ab, and each step of a bisection).
struct PairSettings {
  std::string bench_regex;               // the benchmarks compared ("" every one)
  std::vector<std::string> bench_flags;  // given to every process of both builds
  std::size_t rounds = 10;
  std::size_t max_rounds = 90;  // for benchmarks still undecided after `rounds`
  // Sampling time per benchmark and side over `rounds` (each round gets its share, at least
  // 1 ms); also the time budget of whole commands.
  std::int64_t time_budget_ns = 1'000'000'000;
  std::chrono::milliseconds worker_timeout{120'000};
  std::int64_t budget_ns = 0;  // --budget of the rounds, as BinariesPlan::budget_ns (0: none)
  analysis::CompareSettings compare;  // for the looks that decide extra rounds, the method note
  std::optional<ShardSpec> shard;     // ab --shard K/N: one part of each binary's benchmarks
  // --together: pairs of Google Benchmark binaries run a round's benchmarks in one process a
  // build, as BinariesPlan::together.
  bool together = false;
};

// `benchkit ab BASE NEW`: two git revisions of the repository of the current folder, checked out
// in worktrees and built the same way, then their bench binaries run side by side (counted under
// valgrind with Mode::instructions), or one command of each build interleaved in rounds.
struct RevisionsPlan {
  std::string base;       // a revision as git names it
  std::string candidate;  // "" : the working tree with its uncommitted changes
  BuildChoice build;
  Mode mode = Mode::time;  // time or instructions
  PairSettings pairs;
  // A whole command of each build instead ({src} and {build} filled in); "" the bench binaries.
  std::string command;
  std::string command_line;  // of this run, for the commands' context
};

// `benchkit bisect GOOD BAD`: the first commit between that made the chosen benchmarks slower,
// each step an ab-like measurement (session/bisect_run.hpp). Not a kind of `Plan`: its answer is
// a commit, not a run.
struct BisectPlan {
  std::string good;
  std::string bad;
  BuildChoice build;
  PairSettings pairs;
  std::string log;      // the log of every step; "" .benchkit/bisect/bisect.log in the repository
  bool faster = false;  // --faster: the first commit that made the benchmarks faster
};

// `benchkit noise ./bench`: the same bench binary in N fresh processes (an A/A experiment,
// session/noise.hpp); the run's samples carry their process. Every error is of kind input: an
// experiment that did not run has no finding.
struct NoisePlan {
  std::string target;  // as the user named it; without a slash, a file in this folder
  std::size_t processes = 10;
  std::vector<std::string> flags;  // the bench binary's own
};

// `benchkit noise --mode instructions ./bench`: the suite counted in one process in its order and
// reversed (session/order_dependence.hpp). Not a kind of `Plan`: its answer is an OrderReport.
struct CountOrderPlan {
  std::string target;
  std::vector<std::string> flags;
  double threshold = analysis::kCountNoiseThreshold;
};

// `benchkit noise -- CMD ARGS`: any program run `runs` times, each run a fresh process (after a
// warm-up run); each run is its own process in the result. Errors are of kind input, as above.
struct CommandNoisePlan {
  std::vector<std::string> argv;
  std::size_t runs = 10;
  std::string command_line;  // of this run, for the context
};

struct Plan {
  std::variant<BenchPlan, BinariesPlan, FilesPlan, CommandsPlan, CountedCommandPlan, GbenchRunPlan,
               RevisionsPlan, NoisePlan, CommandNoisePlan>
      what;
  Steps then;
};

// The measurer of a plan's kind.
std::unique_ptr<Measurer> make_measurer(BenchPlan plan);
// The same with the suite's workers from `launchers` (tests give fakes, session/launcher.hpp);
// side-by-side and counted runs still start real processes.
std::unique_ptr<Measurer> make_measurer(BenchPlan plan, LauncherFactory launchers);
std::unique_ptr<Measurer> make_measurer(BinariesPlan plan);
std::unique_ptr<Measurer> make_measurer(FilesPlan plan);
// The measurers of whole commands on the machine: the spawner, valgrind, the Google Benchmark
// binary, the machine's facts and git (session/command_measurers.hpp takes fakes instead).
std::unique_ptr<Measurer> make_measurer(CommandsPlan plan);
std::unique_ptr<Measurer> make_measurer(CountedCommandPlan plan);
std::unique_ptr<Measurer> make_measurer(GbenchRunPlan plan);
std::unique_ptr<Measurer> make_measurer(RevisionsPlan plan);
std::unique_ptr<Measurer> make_measurer(NoisePlan plan);
std::unique_ptr<Measurer> make_measurer(CommandNoisePlan plan);
class Workshop;
// With the given workshop (session/workshop.hpp; tests give a fake), which must outlive it.
std::unique_ptr<Measurer> make_measurer(RevisionsPlan plan, Workshop& workshop);

// The whole pipeline with the real measurer and keeper.
Outcome run(Plan plan, Observer& observer);

// True when `path` is a program to run rather than a result file: an executable regular file
// whose first byte does not start a JSON document.
bool is_program(const std::string& path);
// True when `path` is written as a path (it holds a '/') and names nothing: what to say of it is
// "no such file", not what kind of argument it is not.
bool names_nothing(const std::string& path);

// Which build a run measured, for a run whose processes record no context of their own (side
// by side workers, a Google Benchmark binary's processes): the executable and its SHA-256, and
// the checkout's git state, as a bench binary records its own. Fields already set are kept.
void identify_build(const std::string& executable, Context& context);

// Two executables side by side (`compare OLD NEW`, `run ./gb --baseline NAME` with a kept binary)
// looked at after every round, up to `max_rounds` (0: kMaxRoundsFactor × binaries.rounds, the
// bench binary's --baseline default), each look and the verdicts shown read at that look's level
// of the sequential design (analysis::sequential_levels): sets binaries.max_rounds,
// then.compare.sequential_alpha and binaries.compare.
void look_after_every_round(BinariesPlan& binaries, Steps& then, std::size_t max_rounds = 0);

}  // namespace benchkit::session
