// `benchkit run`'s options as plain data, and what they become: a session::Plan (whole commands
// interleaved in rounds, one command counted under callgrind, or a Google Benchmark binary in
// fresh processes), or the command line of a benchkit bench binary that runs itself. Every
// error names the flag and the fix, and is of kind usage unless it says otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/error.hpp"
#include "process/plan.hpp"
#include "process/rounds.hpp"
#include "session/command_options.hpp"
#include "session/plans.hpp"

namespace benchkit::session {

struct RunOptions {
  std::vector<std::string> positional;  // before `--`: a bench binary, or a command
  std::vector<std::string> trailing;    // after `--`: a command, or a bench binary's own flags
  std::vector<std::string> commands;    // --cmd
  std::vector<std::string> names;       // --name
  std::vector<std::string> env;         // --env KEY=VALUE
  // "--cmd", "--name" and "--env" in the order they were given (one entry per value): a --name
  // or --env applies to the --cmd before it, an --env before every --cmd to all of them.
  std::vector<std::string> flag_order;
  std::string shell;  // --shell[=PATH]: "" no shell
  std::size_t warmup = 1;
  std::size_t runs = 0;
  std::size_t min_runs = 10;
  std::size_t max_runs = 0;
  std::string time_budget = "3s";
  double precision = 0.01;
  std::string setup, prepare, conclude, cleanup;
  std::vector<std::vector<std::string>> scans;  // NAME MIN MAX
  double step = 1.0;
  std::vector<std::vector<std::string>> lists;  // NAME a,b,c
  double timeout = 0.0;
  std::string ignore_failure;  // "", "all" or "1,2"
  std::string input;
  std::string output = "null";  // null, pipe, inherit or a file path
  std::string pin;              // CPUs, "0,2-3"
  std::string order = "alternate";
  std::uint64_t seed = 0;
  std::string reference;
  std::string export_json, export_markdown, export_csv, export_junit;
  std::string html;  // the results and their comparisons as one HTML page
  bool quiet = false;
  std::string color = "auto";
  ComparisonFlags comparison;
  std::string save_baseline, baseline;
  bool fail_on_regression = false;
  std::size_t processes = 0;  // a bench or Google Benchmark binary's fresh processes; 0 default
  bool record = false;
  std::string store;
  std::string group;  // --group: the run group (session/run_groups.hpp); "" the default
  // --filter REGEX: the benchmarks of a bench binary (passed on) or of a Google Benchmark binary
  // (session::NameFilter, as compare reads it); "" every one.
  std::string filter;
  // --shard K/N, --shard-by: a bench binary (passed on) or a Google Benchmark binary (by count).
  std::string shard;
  std::string shard_by;
  // Mode::instructions: counted under valgrind (docs/instructions.md).
  Mode mode = Mode::time;
  // --rounds, --max-rounds and --budget of a side-by-side comparison with a baseline: a bench
  // binary's (passed on), or a Google Benchmark binary's beside the binary its baseline kept.
  // 0 and "": the defaults (10 rounds, up to kMaxRoundsFactor times as many, no budget).
  std::size_t rounds = 0;
  std::size_t max_rounds = 0;
  std::string budget;
  // --together: a Google Benchmark binary beside its baseline's kept binary runs a round's
  // benchmarks in one process a build (BinariesPlan::together).
  bool together = false;
  std::string command_line;  // the whole `benchkit run ...`, for the results' context
};

// "0,2-3" -> {0, 2, 3}; the error names --pin and the item that is not a CPU or a range.
model::Result<std::vector<int>> parse_cpus(const std::string& text);

// --ignore-failure=1,2: the exit codes that count as runs.
model::Result<std::vector<int>> ignored_exit_codes(const std::string& text);

// --parameter-scan and --parameter-list, in that order.
model::Result<std::vector<process::Parameter>> parameters(const RunOptions& options);

// The commands to measure: the one after -- (or without --, the words given), then every
// --cmd, each with its --name and --env.
model::Result<std::vector<process::CommandSpec>> command_specs(const RunOptions& options);

// --input, --output and --pin: what every measured run gets. An --output file is truncated now.
model::Result<process::RunRequest> run_template(const RunOptions& options);

// Runs, budget, timeout, order, failures ignored, the hooks' shell and the run template.
model::Result<process::RoundSettings> round_settings(const RunOptions& options);

// `benchkit run ./my_bench [-- flags]` of a benchkit bench binary (it answers --benchkit-info):
// its own command line, run in fresh worker processes with the comparison, baseline and history
// options passed on.
struct BenchBinaryCommand {
  std::vector<std::string> argv;
};

// What `benchkit run` runs: a bench binary's own command line, or the plan of the kind of run the
// options ask for, with the baseline loaded and the flags checked before anything runs. --store
// without --record and a history that cannot be opened are refused first, whatever runs.
using RunTarget = std::variant<BenchBinaryCommand, Plan>;
model::Result<RunTarget> plan_for(const RunOptions& options);

// Runs the bench binary's command line (it has the pipeline of its own) and waits: its exit
// status, or an error naming it: of kind input when it could not be started, failed when a
// signal ended it.
model::Result<int> run_bench_binary(const BenchBinaryCommand& command);

// The fresh processes a Google Benchmark binary runs in when --processes is not given: six, the
// fewest in which the process medians are tested for states (stats::ProcessStateOptions), for
// one process start more than five (the processes share the suite's minimum time; json's
// twitter rows: 5.6-5.7 s against 5.2 s, docs/interop.md), and the median's interval between
// the extreme processes at 96.9% where five give 93.8% (report::confidence_suffix).
inline constexpr std::size_t kGbenchProcesses = 6;

}  // namespace benchkit::session
