// `benchkit run` on whole commands: the commands expanded over their parameter values (and the
// shell's start-up, when they run through a shell) run interleaved in rounds, the rounds turned
// into results of kind "command", and every command compared with the reference on the paired
// rounds and with a baseline. Typed request in, values out; progress and checkpoints go to a
// CommandObserver. It prints nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "clock/clock.hpp"
#include "model/error.hpp"
#include "process/plan.hpp"
#include "process/rounds.hpp"
#include "process/run.hpp"
#include "vcs/git.hpp"

namespace benchkit::session {

// The name of the benchmark that measures the shell's start-up (SHELL -c ''); never listed.
inline constexpr const char* kShellProbe = "(shell start-up)";

// Checkpoints are offered after a round once this many seconds passed since the last one: often
// enough that an interrupted or killed run loses little, rarely enough that computing the
// estimates of every benchmark (bootstraps included) costs nothing next to the runs.
inline constexpr double kCheckpointSeconds = 2.0;

struct CommandRequest {
  std::vector<process::CommandSpec> commands;
  std::vector<process::Parameter> parameters;  // cartesian: one benchmark per combination
  // Non-empty: every command runs as SHELL -c TEXT, and the shell's start-up is measured in the
  // same rounds and subtracted from every command (its CI widening theirs).
  std::string shell;
  process::Hooks hooks;  // {NAME} replaced by each benchmark's parameter values
  process::RoundSettings settings;
  // Adaptive runs stop once the median's 95% CI is within ±precision × median for every command.
  double precision = 0.01;
  // The benchmark the others are compared with; empty: the first.
  std::string reference;
  analysis::CompareSettings compare;
  // Offer the results so far to CommandObserver::checkpoint (every kCheckpointSeconds at most).
  // Off, no estimates are computed during the run.
  bool checkpoints = false;
  Context context;  // of every result, checkpoints included
  // When valid: the git facts of `context`, still being asked for (git_facts_in_background).
  // They are waited for before the first measured run, so that git never runs beside one.
  std::shared_future<vcs::GitFacts> pending_git;
};

// The benchmarks of a request, in the order the rounds run them.
struct CommandPlan {
  std::vector<process::RoundBenchmark> benchmarks;  // the shell probe first when there is one
  bool shell_probe = false;
  // The benchmarks the user asked for (the shell probe not counted).
  std::size_t measured() const { return benchmarks.size() - (shell_probe ? 1 : 0); }
};

// The commands expanded over the parameters, with their hooks; the error (kind usage) names the
// parameter or placeholder at fault.
model::Result<CommandPlan> plan_commands(const CommandRequest& request);

class CommandObserver {
 public:
  virtual ~CommandObserver() = default;
  // A run of benchmark `name` starts; `elapsed_seconds` since the rounds began.
  virtual void run_started(const std::string& /*name*/, std::size_t /*round*/, bool /*warmup*/,
                           double /*elapsed_seconds*/) {}
  // The benchmark stopped (the others go on): a failed run, a timeout, a hook that failed.
  virtual void failed(const std::string& /*name*/, const std::string& /*message*/) {}
  // With CommandRequest::checkpoints: the results so far, to be saved.
  virtual void checkpoint(const RunResult& /*so_far*/) {}
};

struct CommandOutcome {
  RunResult run;  // the shell probe left out
  std::size_t rounds = 0;
  std::string stop_reason;   // "precision reached", "time budget spent", "--runs reached", ...
  bool interrupted = false;  // Ctrl-C: `run` holds the rounds before it
  std::size_t failed = 0;    // benchmarks that stopped early
  // With two benchmarks or more: every other one against the reference, on the paired rounds.
  std::string reference;
  std::optional<analysis::Comparison> against_reference;
  // When CommandRequest::reference names none of the benchmarks (found once their names are
  // known, after the rounds).
  std::optional<model::Error> reference_error;
};

// Runs the plan of `request` in rounds with `executor` (tests give a fake), timed by `clock`.
CommandOutcome run_command_rounds(const CommandRequest& request, const CommandPlan& plan,
                                  process::Executor& executor, clock::Clock& clock,
                                  CommandObserver& observer);

// The rounds in the result model (kind "command"); with a shell probe (the first benchmark),
// its median is subtracted from every command and it is not listed.
RunResult to_results(const CommandPlan& plan, const process::RoundsResult& rounds,
                     const std::string& rss_method);

// Every benchmark but the reference (empty: the first) compared with it on the paired rounds;
// none with fewer than two benchmarks. The error (kind usage) lists the names.
model::Result<std::optional<analysis::Comparison>> compare_to_reference(
    const RunResult& run, const std::string& reference, const analysis::CompareSettings& settings);

// The context of a run of whole processes: the machine and the git state, not benchkit's own
// executable (the commands are what ran).
// With `git` false the git facts are left out, for CommandRequest::pending_git to fill in.
Context command_context(std::uint64_t seed, const std::string& command_line, bool git = true);

// `git status` of the working folder, started now on a thread of its own: it runs beside the
// tool's start-up (the spawner, the machine facts) and the warm-up runs instead of before them
// (2 ms outside a repository, 8 ms or more inside one; docs/commands.md).
std::shared_future<vcs::GitFacts> git_facts_in_background();

// `argv` (no shell) run `runs` times after one warm-up run, each run a fresh process, as
// `benchkit run` does; one sample per run, each numbered as its own process. The error says
// the command failed (the observer heard how) or was interrupted before a run finished; Ctrl-C
// after one did gives the runs that finished, with `*interrupted` set when given (else it is
// the error too).
model::Result<RunResult> run_command_repeatedly(const std::vector<std::string>& argv,
                                                std::size_t runs, process::Executor& executor,
                                                clock::Clock& clock, CommandObserver& observer,
                                                bool* interrupted = nullptr);

}  // namespace benchkit::session
