// The measurers of a bench binary's own run (BenchPlan): its suite, side by side with the
// baseline's kept binary, or counted under valgrind; then what every kind adds to the run (the
// skipped benchmarks, the counters as the headline, the data files read).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "process/interrupt.hpp"
#include "process/spawn.hpp"
#include "process/temporary_folder.hpp"
#include "process/worker_invocation.hpp"
#include "session/ab.hpp"
#include "session/bench_options.hpp"
#include "session/counted.hpp"
#include "session/plans.hpp"
#include "session/side_by_side.hpp"
#include "session/skips.hpp"
#include "session/suite_budget.hpp"
#include "store/baselines.hpp"

namespace benchkit::session {
namespace {

std::size_t max_rounds_of(const BenchPlan& plan) {
  return std::max(plan.max_rounds, plan.rounds);
}

// The suite of this binary as the plan asks for it: one forked worker per benchmark, all in this
// process, or N fresh processes of this executable, each with its share of the budget.
SuiteRequest suite_request(const BenchPlan& plan, std::vector<measure::Instance> chosen,
                           std::size_t processes) {
  SuiteRequest request;
  request.settings = plan.settings;
  request.chosen = std::move(chosen);
  request.in_process = plan.in_process;
  request.processes = plan.test ? 1 : processes;
  if (request.processes <= 1) return request;
  const RunSettings& settings = plan.settings;
  const auto count = static_cast<std::int64_t>(request.processes);
  request.worker_command = {process::self_executable()};
  // The workers choose the same benchmarks as this process (plan.worker), skipped ones left out.
  request.worker = plan.worker;
  request.worker.quiet = true;
  // Each process gets its share of the budget and of the minimum sample count.
  request.worker.time_budget_ns = settings.engine.time_budget_ns / count;
  request.worker.sample_size = std::max<std::size_t>(
      5, (settings.engine.min_samples + request.processes - 1) / request.processes);
  request.worker.precision = settings.engine.precision;
  return request;
}

// The binary kept with --baseline NAME when the comparison can run it side by side; otherwise
// nothing, and `note` says why the saved samples are compared instead.
std::optional<std::string> side_by_side_binary(const BenchPlan& plan, std::string& note) {
  if (plan.baseline_name.empty() || !plan.baseline || plan.saved_samples || plan.test ||
      plan.settings.gate != nullptr) {
    return std::nullopt;
  }
  const auto kept = store::baseline_executable(plan.baseline_name);
  if (!kept) {
    note = fmt::format(
        "compared with the samples saved in baseline {}: no bench binary was kept with it to run "
        "again side by side (save it with this version's --save-baseline to get that)",
        plan.baseline_name);
    return std::nullopt;
  }
  const auto handshake = process::probe_bench_binary(*kept);
  if (!handshake || !handshake->benchkit || !handshake->turns) {
    note = fmt::format(
        "compared with the samples saved in baseline {}: its kept binary {} cannot run side by "
        "side ({})",
        plan.baseline_name, *kept,
        !handshake             ? handshake.error().message
        : !handshake->benchkit ? handshake->problem
                               : "it was built with a benchkit that cannot take turns");
    return std::nullopt;
  }
  return kept;
}

// The names the baseline's binary lists (with this run's --param values).
model::Result<std::set<std::string>> listed_by(const std::string& binary, const BenchPlan& plan) {
  process::WorkerInvocation lister;
  lister.list = true;
  lister.params = plan.worker.params;
  const std::vector<std::string> argv = lister.command(binary);
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(30);
  const auto listed = process::run_captured(argv, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{
        fmt::format("the baseline's binary {} could not list its benchmarks ({}); compare against "
                    "the saved samples with --saved-samples",
                    binary, listed ? listed->exit.describe() : listed.error().message),
        model::ErrorKind::failed};
  }
  std::set<std::string> names;
  std::istringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.insert(line);
  }
  return names;
}

// The chosen benchmarks side by side with `baseline_binary` (session/side_by_side.hpp).
// Benchmarks that binary does not have run here alone, and are reported as added.
model::Result<SideBySideRuns> run_beside(const BenchPlan& plan, const std::string& baseline_binary,
                                         Observer& observer, SuiteBudget& budget) {
  const auto theirs = listed_by(baseline_binary, plan);
  if (!theirs) return theirs.error();
  SideBySide pairs;
  pairs.baseline_executable = baseline_binary;
  pairs.candidate_executable = process::self_executable();
  std::vector<measure::Instance> only_here;
  for (const measure::Instance& instance : plan.chosen) {
    if (theirs->count(instance.name)) {
      pairs.benchmarks.push_back(instance.name);
    } else {
      only_here.push_back(instance);
    }
  }
  pairs.rounds = plan.rounds;
  pairs.max_rounds = max_rounds_of(plan);
  pairs.worker_timeout = std::chrono::milliseconds(plan.worker_timeout_ns / 1'000'000);
  pairs.round_budget_ns = turn_budget_ns(plan.side_by_side_budget_ns, plan.rounds);
  // Each worker is told its benchmark (--filter NAME --exact) and takes its samples in turns.
  pairs.worker = plan.worker;
  pairs.worker.filter.clear();
  pairs.worker.exact = false;
  pairs.worker.skip_tags.clear();
  pairs.worker.shard_positions.reset();
  pairs.worker.sample_size = 0;
  pairs.clock = process_clock().clock;
  pairs.progress = [&](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                       const std::string& name) {
    observer.round_started(round, planned, index, count, name, round >= plan.rounds);
  };
  pairs.failed = [&](const std::string& name, const std::string& message) {
    observer.benchmark_failed(name, message);
  };
  // More rounds for the benchmarks the comparison cannot decide yet.
  // A look after every round: a benchmark stops as soon as its verdict is settled at that
  // look's level of the sequential design (plan.compare.sequential_alpha, set by plan_for).
  pairs.look_every = 1;
  // With --budget, only those the budget left affords (session/suite_budget.hpp).
  auto runs = pairs.benchmarks.empty() ? model::Result<SideBySideRuns>(SideBySideRuns{})
                                       : run_side_by_side(pairs, budget.looks(plan.compare));
  if (runs) budget.ended(*runs);
  if (!runs) {
    return model::Error{runs.error().message, process::interrupt_requested()
                                                  ? model::ErrorKind::interrupted
                                                  : model::ErrorKind::failed};
  }
  if (!only_here.empty() && !runs->interrupted_in) {
    SuiteOutcome alone = run_suite(suite_request(plan, only_here, 1), observer);
    if (runs->candidate.benchmarks.empty()) runs->candidate.context = alone.run.context;
    for (BenchmarkResult& result : alone.run.benchmarks) {
      runs->candidate.benchmarks.push_back(std::move(result));
    }
  }
  return runs;
}

// Side by side with the baseline's kept binary: the baseline's new samples replace the saved
// ones (benchmarks it no longer ran keep theirs); the saved context still describes it.
model::Result<Measured> measure_beside(const BenchPlan& plan, const std::string& binary,
                                       Observer& observer) {
  Measured measured;
  // Collected once here, not by each worker of each round (they leave it out).
  const Context context = run_context(plan.settings, plan.chosen);
  SuiteBudget budget(plan.budget_ns, *process_clock().clock);
  auto runs = run_beside(plan, binary, observer, budget);
  if (!runs) return runs.error();
  measured.round_cost_ns = budget.round_cost_ns();
  RunResult saved = *plan.baseline;
  std::set<std::string> rerun;
  for (const BenchmarkResult& b : runs->baseline.benchmarks) rerun.insert(b.name);
  for (BenchmarkResult& old : saved.benchmarks) {
    if (!rerun.count(old.name)) runs->baseline.benchmarks.push_back(std::move(old));
  }
  runs->baseline.context = saved.context;
  measured.baseline = std::move(runs->baseline);
  measured.run = std::move(runs->candidate);
  // The rounds' own findings (machine speed, counters) join the run's context.
  std::vector<Diagnostic> found = std::move(measured.run.context.warnings);
  const std::optional<std::int64_t> peak = measured.run.context.process_peak_rss_bytes;
  measured.run.context = context;
  measured.run.context.process_peak_rss_bytes = peak;
  for (Diagnostic& warning : found) {
    const bool known =
        std::any_of(context.warnings.begin(), context.warnings.end(),
                    [&](const Diagnostic& present) { return present.code == warning.code; });
    if (!known) measured.run.context.warnings.push_back(std::move(warning));
  }
  measured.method_note = fmt::format(
      "baseline {}: its bench binary ran again beside this one, {} rounds of fresh process "
      "pairs per benchmark taking samples in turns, so both met the machine in the same "
      "state{} (--saved-samples compares the saved samples instead)",
      plan.baseline_name, rounds_taken(measured.run),
      max_rounds_of(plan) > plan.rounds
          ? fmt::format(
                "; benchmarks still inconclusive after {} got more, up to {}, one round at a "
                "time, each look read at its level of a sequential design (docs/verdicts.md)",
                plan.rounds, max_rounds_of(plan))
          : "");
  if (plan.budget_ns > 0) measured.method_note += "; " + budget.summary();
  measured.method_note += interrupted_note(*runs);
  measured.interrupted = runs->interrupted_in.has_value();
  return measured;
}

// A counted worker of this binary: valgrind, then this binary counting the benchmarks it is given
// (the launcher adds them and the stream).
process::WorkerInvocation counted_worker(const BenchPlan& plan, const CountedFiles& files) {
  process::WorkerInvocation invocation = plan.worker;
  invocation.quiet = true;
  invocation.mode = Mode::instructions;
  invocation.callgrind_dumps = files.dump_prefix();
  invocation.test = plan.test;
  return invocation;
}

// The baseline's kept binary counted again now, under the same valgrind and options (counts do
// not depend on the machine's state, so the two need not take turns): its result, or the error.
model::Result<RunResult> count_baseline_binary(const BenchPlan& plan, const std::string& binary,
                                               const std::string& folder) {
  // It chooses the plan's benchmarks with this run's parameters; it starts valgrind itself.
  process::WorkerInvocation run;
  run.filter = plan.worker.filter;
  run.exact = plan.worker.exact;
  run.sample_size = plan.worker.sample_size;
  run.params = plan.worker.params;
  run.keep_env = plan.keep_env;
  auto counted = count_bench_binary(binary, std::move(run), folder + "/baseline.json");
  if (!counted) {
    return model::Error{
        fmt::format("the baseline's bench binary could not be counted ({}); compare against the "
                    "counts saved with the baseline with --saved-samples",
                    counted.error().message),
        model::ErrorKind::failed};
  }
  return counted;
}

// A baseline of times cannot be compared with counts: the error says how to save counts.
std::optional<model::Error> check_counted_baseline(const RunResult& baseline) {
  for (const BenchmarkResult& benchmark : baseline.benchmarks) {
    if (benchmark.metric.empty() && !benchmark.failure && benchmark.kind == "micro") {
      return model::Error{
          fmt::format("the baseline holds times ({} has no instruction counts), and --mode "
                      "instructions counts: save the baseline with --mode instructions, or "
                      "compare with --mode time",
                      benchmark.name),
          model::ErrorKind::input};
    }
  }
  return std::nullopt;
}

// Mode::instructions: every benchmark in a fresh process under callgrind (session/counted.hpp),
// supervised from here; with --baseline, the baseline's binary is counted too when it was kept.
model::Result<Measured> measure_counted(const BenchPlan& plan, Observer& observer) {
  const auto valgrind = find_valgrind();
  if (!valgrind) return valgrind.error();
  const auto folder = process::make_temporary_folder("benchkit-callgrind");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  const CountedFiles files{*folder};
  Measured measured;
  measured.baseline = plan.baseline;
  if (measured.baseline && !plan.baseline_name.empty() && !plan.saved_samples) {
    if (const auto kept = store::baseline_executable(plan.baseline_name)) {
      auto counted = count_baseline_binary(plan, *kept, *folder);
      if (!counted) return counted.error();
      counted->context = measured.baseline->context;
      measured.baseline = std::move(*counted);
      measured.method_note = fmt::format(
          "baseline {}: its bench binary was counted again now, under the same valgrind and "
          "options (--saved-samples compares the saved counts instead)",
          plan.baseline_name);
    }
  }
  if (measured.baseline) {
    if (auto problem = check_counted_baseline(*measured.baseline)) return *problem;
  }
  SuiteRequest request;
  request.settings = plan.settings;
  request.chosen = plan.chosen;
  request.processes = plan.test ? 1 : std::max<std::size_t>(1, plan.processes);
  request.fresh_process_each = plan.counted_order.empty();
  if (!plan.counted_order.empty()) {
    request.one_worker = true;
    request.processes = 1;
    for (std::size_t i = 0; i < request.chosen.size(); ++i) request.order.push_back(i);
    if (plan.counted_order == "reverse") std::reverse(request.order.begin(), request.order.end());
  }
  request.worker_command = callgrind_command(*valgrind, files, false);
  request.worker_command.push_back(process::self_executable());
  request.worker = counted_worker(plan, files);
  request.exec.environment = counted_environment(current_environment(), plan.keep_env);
  request.exec.fixed_addresses = true;
  SuiteOutcome outcome = run_suite(request, observer);
  explain_crashes(outcome.run, *folder);
  outcome.run.context.clock["mode"] = "instructions (valgrind callgrind)";
  outcome.run.context.clock["cache_geometry"] =
      fmt::format("{} {} {}", kInstructionCache, kDataCache, kLastLevelCache);
  measured.run = std::move(outcome.run);
  measured.interrupted = outcome.interrupted;
  return measured;
}

// Mode::counters: the samples' instructions:u become the measurement (time stays in the
// counters' place as `ns_elapsed`), and the estimates are computed again from them.
void headline_counters(RunResult& run) {
  for (BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.kind != "micro" || benchmark.failure || benchmark.samples.empty()) continue;
    const bool counted =
        std::all_of(benchmark.samples.begin(), benchmark.samples.end(),
                    [](const Sample& sample) { return sample.counters.count("instructions") > 0; });
    if (!counted) continue;
    for (Sample& sample : benchmark.samples) {
      sample.counters["ns_elapsed"] = sample.ns;
      sample.ns = sample.counters["instructions"];
      sample.probe_ns.reset();
    }
    benchmark.metric = "instructions";
    // The counters are read around the timed region: their own instructions are in each sample.
    benchmark.overhead_ns_per_sample = 0.0;
    benchmark.first_iteration_ns.reset();
    benchmark.diagnostics.clear();
    analysis::compute_estimates(benchmark);
    analysis::diagnose_counted(benchmark);
  }
}

class BenchMeasurer final : public Measurer {
 public:
  BenchMeasurer(BenchPlan plan, LauncherFactory launchers)
      : plan_(std::move(plan)), launchers_(std::move(launchers)) {}

  model::Result<Measured> measure(Observer& observer) override {
    auto measured = measure_kind(observer);
    if (!measured) return measured;
    RunResult& run = measured->run;
    if (plan_.mode == Mode::counters) headline_counters(run);
    if (plan_.scenarios_left_out > 0) {
      run.context.warnings.push_back(Diagnostic{
          "scenarios_not_counted", "info",
          fmt::format("{} scenario(s) left out: --mode instructions counts micro benchmarks; run "
                      "scenarios with --mode time",
                      plan_.scenarios_left_out)});
    }
    run.context.command_line = plan_.settings.command_line;
    run.context.shard = plan_.shard;
    for (BenchmarkResult& result : plan_.skipped) run.benchmarks.push_back(std::move(result));
    gather_inputs(run);
    return measured;
  }

 private:
  model::Result<Measured> measure_kind(Observer& observer) {
    if (plan_.mode == Mode::instructions) return measure_counted(plan_, observer);
    std::string note;
    if (const auto beside = side_by_side_binary(plan_, note)) {
      return measure_beside(plan_, *beside, observer);
    }
    const SuiteRequest request = suite_request(plan_, plan_.chosen, plan_.processes);
    SuiteOutcome outcome =
        launchers_ ? run_suite(request, launchers_, observer) : run_suite(request, observer);
    Measured measured;
    measured.run = std::move(outcome.run);
    measured.interrupted = outcome.interrupted;
    measured.baseline = std::move(plan_.baseline);
    measured.method_note = std::move(note);
    return measured;
  }

  BenchPlan plan_;
  LauncherFactory launchers_;  // empty: the real ones
};

}  // namespace

std::unique_ptr<Measurer> make_measurer(BenchPlan plan) {
  return std::make_unique<BenchMeasurer>(std::move(plan), LauncherFactory{});
}

std::unique_ptr<Measurer> make_measurer(BenchPlan plan, LauncherFactory launchers) {
  return std::make_unique<BenchMeasurer>(std::move(plan), std::move(launchers));
}

}  // namespace benchkit::session
