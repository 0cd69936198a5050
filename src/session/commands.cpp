#include "session/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "benchkit_build_info.hpp"
#include "process/interrupt.hpp"
#include "session/pipeline.hpp"
#include "session/runner.hpp"
#include "stats/intervals.hpp"
#include "stats/summary.hpp"
#include "system/context.hpp"
#include "vcs/git.hpp"

namespace benchkit::session {
namespace {

// Translates the rounds' benchmark indices to names, keeps time, and offers the checkpoints.
class RoundsTracker final : public process::RoundObserver {
 public:
  RoundsTracker(const std::vector<process::RoundBenchmark>& benchmarks, clock::Clock& clock,
                CommandObserver& observer, std::function<void(const process::RoundsResult&)> save,
                std::function<void()> before_measuring = nullptr)
      : benchmarks_(benchmarks),
        clock_(clock),
        observer_(observer),
        save_(std::move(save)),
        before_measuring_(std::move(before_measuring)) {}

  void run_started(std::size_t b, std::size_t round, bool warmup) override {
    if (!warmup && before_measuring_) {
      before_measuring_();
      before_measuring_ = nullptr;
    }
    observer_.run_started(benchmarks_[b].command.name, round, warmup, seconds_since_start());
  }
  void benchmark_failed(std::size_t b, const std::string& message) override {
    observer_.failed(benchmarks_[b].command.name, message);
  }
  void round_finished(const process::RoundsResult& so_far) override {
    if (!save_) return;
    const double now = seconds_since_start();
    if (now - last_checkpoint_ >= kCheckpointSeconds) {
      last_checkpoint_ = now;
      save_(so_far);
    }
  }

 private:
  double seconds_since_start() const { return static_cast<double>(clock_.now_ns() - start_) / 1e9; }
  const std::vector<process::RoundBenchmark>& benchmarks_;
  clock::Clock& clock_;
  CommandObserver& observer_;
  std::function<void(const process::RoundsResult&)> save_;
  std::function<void()> before_measuring_;
  std::int64_t start_ = clock_.now_ns();
  double last_checkpoint_ = 0.0;
};

// Whether the median's 95% CI is within ±precision × median.
process::PrecisionCheck precise_within(double precision) {
  return [precision](const std::vector<double>& times) {
    if (times.size() < 2) return false;
    const double median = stats::median(times);
    const stats::Interval ci = stats::median_ci(times);
    return median > 0 && std::max(median - ci.lower, ci.upper - median) <= precision * median;
  };
}

BenchmarkResult command_result(const process::RoundBenchmark& benchmark,
                               const process::BenchmarkOutcome& outcome,
                               const std::string& rss_method) {
  BenchmarkResult result;
  result.name = benchmark.command.name;
  result.kind = "command";
  result.params = benchmark.command.params;
  result.command = benchmark.command.display;
  for (const process::MeasuredRun& measured : outcome.runs) {
    Sample sample;
    sample.iters = 1;
    sample.ns = measured.record.wall_ns;
    sample.round = static_cast<std::uint32_t>(measured.round);
    sample.turn = static_cast<std::uint32_t>(measured.turn);
    sample.resources = measured.record.resources;
    result.samples.push_back(std::move(sample));
    if (const auto rss = measured.record.resources.peak_rss_bytes) {
      result.memory.peak_rss_bytes = std::max(result.memory.peak_rss_bytes.value_or(0), *rss);
    }
  }
  result.memory.peak_rss_method = rss_method;
  result.warm_up_iters = outcome.warmups.size();
  for (const process::RunRecord& w : outcome.warmups) result.warm_up_ns += w.wall_ns;
  if (!outcome.warmups.empty()) result.first_iteration_ns = outcome.warmups.front().wall_ns;
  if (!outcome.failure.empty()) result.failures.push_back(outcome.failure);
  return result;
}

}  // namespace

model::Result<CommandPlan> plan_commands(const CommandRequest& request) {
  auto planned = process::expand(request.commands, request.parameters, request.shell);
  if (!planned) return model::Error{planned.error().message, model::ErrorKind::usage};
  CommandPlan plan;
  plan.shell_probe = !request.shell.empty();
  if (plan.shell_probe) {
    process::RoundBenchmark probe;
    probe.command.name = kShellProbe;
    probe.command.argv = {request.shell, "-c", ""};
    probe.command.display = request.shell + " -c ''";
    plan.benchmarks.push_back(std::move(probe));
  }
  for (process::PlannedCommand& p : *planned) {
    process::RoundBenchmark b;
    b.hooks.setup = process::substitute(request.hooks.setup, p.params);
    b.hooks.prepare = process::substitute(request.hooks.prepare, p.params);
    b.hooks.conclude = process::substitute(request.hooks.conclude, p.params);
    b.hooks.cleanup = process::substitute(request.hooks.cleanup, p.params);
    b.command = std::move(p);
    plan.benchmarks.push_back(std::move(b));
  }
  return plan;
}

RunResult to_results(const CommandPlan& plan, const process::RoundsResult& rounds,
                     const std::string& rss_method) {
  RunResult run;
  std::optional<stats::Interval> shell_ci;
  double shell_median = 0.0;
  for (std::size_t b = 0; b < plan.benchmarks.size(); ++b) {
    BenchmarkResult result = command_result(plan.benchmarks[b], rounds.benchmarks[b], rss_method);
    if (plan.shell_probe && b == 0) {
      std::vector<double> times;
      for (const Sample& s : result.samples) times.push_back(s.ns);
      if (!times.empty()) {
        shell_median = stats::median(times);
        shell_ci = stats::median_ci(times);
      }
      continue;
    }
    if (shell_ci) result.overhead_ns_per_sample = shell_median;
    analysis::compute_estimates(result);
    if (shell_ci) {
      // The shell's start-up is estimated too: its CI half-widths add in quadrature.
      Estimate& m = result.estimates.median;
      m.lower = m.value - std::hypot(m.value - m.lower, shell_median - shell_ci->lower);
      m.upper = m.value + std::hypot(m.upper - m.value, shell_ci->upper - shell_median);
      result.counters["shell_startup_ns"] = shell_median;
      result.counters["shell_startup_lower_ns"] = shell_ci->lower;
      result.counters["shell_startup_upper_ns"] = shell_ci->upper;
    }
    analysis::diagnose(result, analysis::ClockFacts{});
    run.benchmarks.push_back(std::move(result));
  }
  return run;
}

model::Result<std::optional<analysis::Comparison>> compare_to_reference(
    const RunResult& run, const std::string& reference, const analysis::CompareSettings& settings) {
  if (run.benchmarks.size() < 2) return std::optional<analysis::Comparison>{};
  const BenchmarkResult* base = &run.benchmarks.front();
  if (!reference.empty()) {
    base = nullptr;
    for (const BenchmarkResult& b : run.benchmarks) {
      if (b.name == reference) base = &b;
    }
    if (!base) {
      std::string error =
          fmt::format("--reference \"{}\" is not one of the benchmarks; the names are:", reference);
      for (const BenchmarkResult& b : run.benchmarks) error += "\n  " + b.name;
      return model::Error{std::move(error), model::ErrorKind::usage};
    }
  }
  RunResult baseline;
  RunResult candidate;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (&b == base) continue;
    BenchmarkResult reference_copy = *base;
    reference_copy.name = b.name;
    baseline.benchmarks.push_back(std::move(reference_copy));
    candidate.benchmarks.push_back(b);
  }
  return std::optional<analysis::Comparison>{
      judge(baseline, candidate, settings, {}, /*measured_together=*/true)};
}

CommandOutcome run_command_rounds(const CommandRequest& request, const CommandPlan& plan,
                                  process::Executor& executor, clock::Clock& clock,
                                  CommandObserver& observer) {
  const std::string rss_method = executor.peak_rss_method();
  Context context = request.context;
  bool git_recorded = !request.pending_git.valid();
  auto record_git = [&] {
    if (git_recorded) return;
    vcs::record(request.pending_git.get(), context);
    git_recorded = true;
  };
  auto finished_run = [&](const process::RoundsResult& rounds) {
    record_git();  // when no run was measured (every warm-up failed, Ctrl-C)
    RunResult run = to_results(plan, rounds, rss_method);
    run.context = context;
    return run;
  };
  std::function<void(const process::RoundsResult&)> save;
  if (request.checkpoints) {
    save = [&](const process::RoundsResult& so_far) { observer.checkpoint(finished_run(so_far)); };
  }
  RoundsTracker tracker(plan.benchmarks, clock, observer, std::move(save), record_git);
  process::install_interrupt_handler();
  const process::RoundsResult rounds =
      process::run_rounds(plan.benchmarks, request.settings, executor, clock,
                          precise_within(request.precision), tracker);

  CommandOutcome outcome;
  outcome.run = finished_run(rounds);
  outcome.rounds = rounds.rounds;
  outcome.stop_reason = rounds.stop_reason;
  outcome.interrupted = rounds.interrupted;
  for (const BenchmarkResult& b : outcome.run.benchmarks) outcome.failed += b.valid() ? 0 : 1;
  auto among = compare_to_reference(outcome.run, request.reference, request.compare);
  if (!among) {
    outcome.reference_error = among.error();
  } else if (*among) {
    outcome.against_reference = std::move(**among);
    // The rounds are paired by design: no advice about the design to give.
    outcome.against_reference->design_warning.clear();
    outcome.reference =
        request.reference.empty() ? outcome.run.benchmarks.front().name : request.reference;
  }
  return outcome;
}

Context command_context(std::uint64_t seed, const std::string& command_line, bool git) {
  Context context = system::collect_context(/*identify_executable=*/false);
  if (git) vcs::record(vcs::git_facts("."), context);
  context.tool_version = build_info::version;
  context.seed = seed;
  context.command_line = command_line;
  return context;
}

std::shared_future<vcs::GitFacts> git_facts_in_background() {
  return std::async(std::launch::async, [] { return vcs::git_facts("."); }).share();
}

model::Result<RunResult> run_command_repeatedly(const std::vector<std::string>& argv,
                                                std::size_t runs, process::Executor& executor,
                                                clock::Clock& clock, CommandObserver& observer,
                                                bool* interrupted) {
  CommandPlan plan;
  process::RoundBenchmark benchmark;
  benchmark.command.argv = argv;
  benchmark.command.display = fmt::format("{}", fmt::join(argv, " "));
  benchmark.command.name = benchmark.command.display;
  plan.benchmarks = {benchmark};
  process::RoundSettings settings;
  settings.warmup = 1;
  settings.runs = runs;
  RoundsTracker tracker(plan.benchmarks, clock, observer, nullptr);
  process::install_interrupt_handler();
  const process::RoundsResult rounds =
      process::run_rounds(plan.benchmarks, settings, executor, clock, nullptr, tracker);
  if (rounds.interrupted) {
    if (!interrupted || rounds.benchmarks[0].runs.empty()) {
      return model::Error{"interrupted before a run finished", model::ErrorKind::interrupted};
    }
    *interrupted = true;
  }
  if (!rounds.benchmarks[0].failure.empty()) {  // the observer has heard how
    return model::Error{benchmark.command.display + " failed; every run must succeed",
                        model::ErrorKind::failed};
  }
  RunResult run = to_results(plan, rounds, executor.peak_rss_method());
  for (Sample& sample : run.benchmarks[0].samples) {
    sample.process = sample.round.value_or(0);
    sample.round.reset();
    sample.turn.reset();
  }
  return run;
}

}  // namespace benchkit::session
