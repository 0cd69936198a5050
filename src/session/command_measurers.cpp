// The measurers of `benchkit run` on whole commands: commands interleaved in rounds, a command
// counted under callgrind, a Google Benchmark binary in fresh processes. Each hands the pipeline
// its run and the baseline loaded with the plan; the pipeline judges, saves and records.
#include "session/command_measurers.hpp"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "session/counted.hpp"
#include "system/machine_files.hpp"
#include "system/machine_warnings.hpp"

namespace benchkit::session {
namespace {

// The rounds' events, told to the pipeline's observer.
class RoundsEvents final : public CommandObserver {
 public:
  explicit RoundsEvents(Observer& observer) : observer_(observer) {}
  void run_started(const std::string& name, std::size_t round, bool warmup,
                   double elapsed_seconds) override {
    observer_.command_run_started(name, round, warmup, elapsed_seconds);
  }
  void failed(const std::string& name, const std::string& message) override {
    observer_.benchmark_failed(name, message);
  }
  void checkpoint(const RunResult& so_far) override { observer_.checkpoint(so_far); }

 private:
  Observer& observer_;
};

class CommandsMeasurer final : public Measurer {
 public:
  // `executor` null: the real machine (the spawner, git, the machine's facts).
  CommandsMeasurer(CommandsPlan plan, process::Executor* executor, clock::Clock& clock)
      : plan_(std::move(plan)), executor_(executor), clock_(clock) {}

  model::Result<Measured> measure(Observer& observer) override {
    if (executor_) return measure_on(*executor_, observer);
    // git status runs beside the spawner's start-up and the warm-up runs, not before them.
    plan_.request.pending_git = git_facts_in_background();
    const process::ExecutorChoice executor = process::make_executor();
    if (!executor.warning.empty()) observer.note(executor.warning);
    plan_.request.context =
        command_context(plan_.request.settings.seed, plan_.command_line, /*git=*/false);
    return measure_on(*executor.executor, observer);
  }

 private:
  model::Result<Measured> measure_on(process::Executor& executor, Observer& observer) {
    RoundsEvents events(observer);
    CommandOutcome outcome =
        run_command_rounds(plan_.request, plan_.planned, executor, clock_, events);
    Measured measured;
    measured.run = std::move(outcome.run);
    measured.interrupted = outcome.interrupted;
    measured.baseline = std::move(plan_.baseline);
    measured.rounds = Rounds{outcome.rounds, std::move(outcome.stop_reason),
                             std::move(outcome.reference), std::move(outcome.against_reference)};
    if (outcome.reference_error) measured.errors.push_back(std::move(*outcome.reference_error));
    return measured;
  }

  CommandsPlan plan_;
  process::Executor* executor_;
  clock::Clock& clock_;
};

class CountedCommandMeasurer final : public Measurer {
 public:
  CountedCommandMeasurer(CountedCommandPlan plan, CommandCounter count,
                         std::function<Context()> context)
      : plan_(std::move(plan)), count_(std::move(count)), context_(std::move(context)) {}

  model::Result<Measured> measure(Observer& /*observer*/) override {
    auto counted = count_(plan_.request);
    if (!counted) return counted.error();
    Measured measured;
    measured.run.context = context_();
    measured.run.context.clock["mode"] = "instructions (valgrind callgrind, --trace-children=yes)";
    measured.run.context.clock["cache_geometry"] =
        fmt::format("{} {} {}", kInstructionCache, kDataCache, kLastLevelCache);
    measured.run.benchmarks.push_back(std::move(*counted));
    measured.baseline = std::move(plan_.baseline);
    return measured;
  }

 private:
  CountedCommandPlan plan_;
  CommandCounter count_;
  std::function<Context()> context_;
};

class GbenchRunMeasurer final : public Measurer {
 public:
  GbenchRunMeasurer(GbenchRunPlan plan, GbenchRunner run)
      : plan_(std::move(plan)), run_(std::move(run)) {}

  model::Result<Measured> measure(Observer& observer) override {
    // The machine as the run starts (a busy machine, frequency scaling, a VM), as a bench
    // binary's context has it: Google Benchmark's own context only records its load average.
    std::vector<Diagnostic> machine = system::machine_warnings_unless_silenced(
        system::run_run_time_checks(system::RootedMachineFiles("/")));
    GbenchProcesses processes;
    processes.executable = plan_.executable;
    processes.processes = plan_.processes;
    processes.flags = plan_.flags;
    processes.min_time_s = gbench_process_min_time(plan_.flags, plan_.processes);
    processes.filter = plan_.filter;
    processes.shard = plan_.shard;
    if (plan_.timeout) processes.timeout = plan_.timeout;
    // Each process runs the whole suite: benchmark 0 of 1, named by the binary.
    processes.progress = [&](std::size_t process, std::size_t total) {
      observer.started(process, total, 0, 1, plan_.executable);
    };
    processes.note = [&observer](const std::string& line) { observer.note(line); };
    processes.checkpoint = [&observer](const RunResult& so_far) { observer.checkpoint(so_far); };
    bool interrupted = false;
    processes.interrupted = &interrupted;
    auto run = run_(processes);
    if (!run) return run.error();
    Measured measured;
    measured.interrupted = interrupted;
    measured.run = std::move(*run);
    measured.run.context.command_line = plan_.command_line;
    // Google Benchmark's context names no build: the executable's SHA-256 and the checkout's
    // commit, as `compare` records them for the same binary.
    identify_build(plan_.executable, measured.run.context);
    for (Diagnostic& warning : machine) measured.run.context.warnings.push_back(std::move(warning));
    measured.baseline = std::move(plan_.baseline);
    return measured;
  }

 private:
  GbenchRunPlan plan_;
  GbenchRunner run_;
};

}  // namespace

std::unique_ptr<Measurer> make_measurer(CommandsPlan plan, process::Executor& executor,
                                        clock::Clock& clock) {
  return std::make_unique<CommandsMeasurer>(std::move(plan), &executor, clock);
}

std::unique_ptr<Measurer> make_measurer(CommandsPlan plan) {
  return std::make_unique<CommandsMeasurer>(std::move(plan), nullptr, clock::steady_clock());
}

std::unique_ptr<Measurer> make_measurer(CountedCommandPlan plan, CommandCounter count,
                                        Context context) {
  return std::make_unique<CountedCommandMeasurer>(std::move(plan), std::move(count),
                                                  [context] { return context; });
}

std::unique_ptr<Measurer> make_measurer(CountedCommandPlan plan) {
  // Read after the count, as the results are made.
  auto context = [seed = plan.seed, line = plan.command_line] {
    return command_context(seed, line);
  };
  return std::make_unique<CountedCommandMeasurer>(std::move(plan), count_command,
                                                  std::move(context));
}

std::unique_ptr<Measurer> make_measurer(GbenchRunPlan plan, GbenchRunner run) {
  return std::make_unique<GbenchRunMeasurer>(std::move(plan), std::move(run));
}

std::unique_ptr<Measurer> make_measurer(GbenchRunPlan plan) {
  return std::make_unique<GbenchRunMeasurer>(std::move(plan), run_gbench_processes);
}

}  // namespace benchkit::session
