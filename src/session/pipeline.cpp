#include "session/pipeline.hpp"

#include <algorithm>
#include <utility>

#include "analysis/round_budget.hpp"
#include "clock/phase_trace.hpp"
#include "formats/result_json.hpp"
#include "session/runner.hpp"
#include "store/baselines.hpp"

namespace benchkit::session {

namespace {

class StoreKeeper final : public Keeper {
 public:
  model::Result<std::string> save_baseline(const std::string& name, const RunResult& run) override {
    auto saved = store::save_baseline(name, formats::to_json(run));
    if (!saved) return saved.error();
    return saved->path;
  }
  model::Result<std::string> keep_executable(const std::string& name,
                                             const std::string& executable) override {
    auto kept = store::save_baseline_executable(name, executable);
    if (!kept) return kept.error();
    return kept->path;
  }
  model::Result<Recorded> record(const std::string& store, const RunResult& run,
                                 const std::string& group) override {
    return record_run_at(store, run, group);
  }
};

}  // namespace

std::unique_ptr<Keeper> make_keeper() {
  return std::make_unique<StoreKeeper>();
}

analysis::Comparison judge(const RunResult& baseline, const RunResult& candidate,
                           const analysis::CompareSettings& settings,
                           const std::string& method_note, bool measured_together) {
  analysis::Comparison comparison = analysis::compare(baseline, candidate, settings);
  if (!measured_together) {
    comparison.context_warning = context_differences(baseline.context, candidate.context);
  }
  comparison.method_note = method_note;
  comparison.baseline_build = {baseline.context.git_commit, baseline.context.executable_sha256};
  comparison.candidate_build = {candidate.context.git_commit, candidate.context.executable_sha256};
  comparison.shard = candidate.context.shard;
  return comparison;
}

std::size_t Outcome::failed_benchmarks() const {
  std::size_t failed = 0;
  for (const BenchmarkResult& benchmark : run.benchmarks) failed += benchmark.failure ? 1 : 0;
  return failed;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Outcome::invalid_runs() const {
  std::vector<std::pair<std::string, std::vector<std::string>>> invalid;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.valid() || benchmark.failure) continue;
    // A scenario's phases all carry the failed checks of its run: named once, by the scenario.
    const std::string name = benchmark.kind == "scenario"
                                 ? benchmark.name.substr(0, benchmark.name.rfind('/'))
                                 : benchmark.name;
    if (invalid.empty() || invalid.back().first != name) {
      invalid.emplace_back(name, benchmark.failures);
    }
  }
  return invalid;
}

bool Outcome::regressed() const {
  const bool among =
      rounds && rounds->against_reference && rounds->against_reference->any_regression();
  return among || (comparison && comparison->any_regression());
}

const analysis::Comparison* Outcome::deciding_comparison() const {
  if (comparison) return &*comparison;
  if (rounds && rounds->against_reference) return &*rounds->against_reference;
  return nullptr;
}

int exit_status_of(model::ErrorKind kind) {
  switch (kind) {
    case model::ErrorKind::usage:
    case model::ErrorKind::input:
      return 2;
    case model::ErrorKind::failed:
      return 1;
    case model::ErrorKind::interrupted:
      return 130;
  }
  return 2;
}

int Outcome::exit_status() const {
  if (interrupted) return 130;
  if (!errors.empty()) return exit_status_of(errors.front().kind);
  if (fail_on_regression && regressed()) return 1;
  if (!fail_on_failed_benchmark) return 0;
  if (failed_benchmarks() > 0) return 1;
  if (!both_sides_measured) return invalid_runs().empty() ? 0 : 1;
  const bool failed_baseline =
      baseline && std::any_of(baseline->benchmarks.begin(), baseline->benchmarks.end(),
                              [](const BenchmarkResult& benchmark) { return benchmark.failure; });
  return failed_baseline ? 1 : 0;
}

namespace {

// --save-baseline: the run, then the executable beside it. A binary that cannot be kept is a
// warning, not an error: comparisons against the baseline then use its saved samples.
void save(Outcome& outcome, const Steps& steps, Keeper& keeper) {
  auto path = keeper.save_baseline(steps.save_baseline, outcome.run);
  if (!path) {
    outcome.errors.push_back(path.error());
    return;
  }
  SavedBaseline saved{steps.save_baseline, std::move(*path), std::nullopt, {}};
  if (!steps.keep_executable.empty()) {
    auto kept = keeper.keep_executable(steps.save_baseline, steps.keep_executable);
    if (kept) {
      saved.executable = std::move(*kept);
    } else {
      saved.executable_problem = kept.error().message;
    }
  }
  outcome.saved = std::move(saved);
}

// --record: the baseline first when the steps ask for it (both measured now), then the run. A
// record that fails ends the recording: the run is not recorded without its baseline.
void record(Outcome& outcome, const Steps& steps, Keeper& keeper) {
  outcome.record_store = steps.record_store;
  if (steps.record_baseline && outcome.baseline) {
    auto recorded = keeper.record(steps.record_store, *outcome.baseline, steps.group);
    if (!recorded) {
      outcome.errors.push_back(recorded.error());
      return;
    }
    outcome.recorded_baseline = std::move(*recorded);
  }
  auto recorded = keeper.record(steps.record_store, outcome.run, steps.group);
  if (recorded) {
    outcome.recorded = std::move(*recorded);
  } else {
    outcome.errors.push_back(recorded.error());
  }
}

}  // namespace

Outcome finish(Measured measured, const Steps& steps, Keeper& keeper) {
  Outcome outcome;
  outcome.measured = true;
  outcome.interrupted = measured.interrupted;
  outcome.fail_on_regression = steps.fail_on_regression;
  outcome.fail_on_failed_benchmark = steps.fail_on_failed_benchmark;
  outcome.both_sides_measured = steps.both_sides_measured;
  outcome.run = std::move(measured.run);
  outcome.baseline = std::move(measured.baseline);
  outcome.rounds = std::move(measured.rounds);
  outcome.errors = std::move(measured.errors);
  if (measured.comparison) {
    outcome.comparison = std::move(measured.comparison);
  } else if (outcome.baseline) {
    outcome.comparison = judge(*outcome.baseline, outcome.run, steps.compare, measured.method_note,
                               measured.measured_together);
    if (measured.round_cost_ns) {
      analysis::note_settle_estimates(*outcome.comparison, measured.round_cost_ns,
                                      measured.interrupted);
    }
  }
  if (!steps.save_baseline.empty()) save(outcome, steps, keeper);
  // An interrupted run is reported and may be saved as a baseline the user asked for, but the
  // history keeps only whole runs: a trend must not dip because a run stopped half-way.
  if (steps.record && !outcome.interrupted) record(outcome, steps, keeper);
  return outcome;
}

Outcome run_pipeline(Measurer& measurer, const Steps& steps, Observer& observer, Keeper& keeper) {
  auto measured = [&] {
    const clock::TracedPhase traced("measure");
    return measurer.measure(observer);
  }();
  observer.measuring_ended();
  if (!measured) {
    Outcome failed;
    failed.errors.push_back(measured.error());
    failed.interrupted = measured.error().kind == model::ErrorKind::interrupted;
    return failed;
  }
  const clock::TracedPhase traced("finish");
  return finish(std::move(*measured), steps, keeper);
}

}  // namespace benchkit::session
