#include "session/suite.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/complexity.hpp"
#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "measure/memory.hpp"
#include "model/exact_counts.hpp"
#include "model/merge.hpp"
#include "process/interrupt.hpp"
#include "session/isolated.hpp"
#include "session/launchers.hpp"

namespace benchkit::session {
namespace {

std::vector<std::string> names_of(const std::vector<measure::Instance>& chosen) {
  std::vector<std::string> names;
  names.reserve(chosen.size());
  for (const measure::Instance& instance : chosen) names.push_back(instance.name);
  return names;
}

// Passes the supervisor's events on, and keeps the run so far for the checkpoints. With several
// processes the checkpoint is the merge of them all; only the benchmark that changed has its
// estimates computed again (the others keep theirs), so a checkpoint costs one benchmark's
// statistics, not the whole run's.
class Tracker final : public IsolationObserver {
 public:
  Tracker(SuiteObserver& observer, const Context& context, std::size_t processes, std::size_t total)
      : observer_(observer), context_(context), processes_(processes), total_(total) {
    runs_.resize(processes);
  }

  void begin_process(std::size_t process) {
    process_ = process;
    position_ = 0;
  }
  void started(std::size_t /*index*/, const std::string& name) override {
    observer_.started(process_, processes_, position_++, total_, name);
  }
  // The isolation layer keeps no results of its own here (keep_results is false): the result
  // is moved into the run, not copied.
  void finished(std::size_t index, BenchmarkResult& result) override {
    // A benchmark that threw in its worker comes back as a failed result: one path for every
    // failure, so each is said and counted once.
    if (result.failure) {
      failed(index, result);
      return;
    }
    const std::string name = result.name;
    runs_[process_].benchmarks.push_back(std::move(result));
    changed(name);
  }
  void failed(std::size_t /*index*/, const BenchmarkResult& failed) override {
    // Ctrl-C in a later process of a benchmark: the processes of it that finished are its
    // result, in a run reported as interrupted, not a failure that would throw them away.
    if (failed.failure && failed.failure->cause == Failure::Cause::interrupted &&
        measured_before(failed.name)) {
      return;
    }
    observer_.failed(failed);
    runs_[process_].benchmarks.push_back(failed);
    failed_names_.insert(failed.name);
    changed(failed.name);
  }

  bool has_failed(const std::string& name) const { return failed_names_.count(name) > 0; }
  // Whether a process before the current one measured `name`.
  bool measured_before(const std::string& name) const {
    for (std::size_t process = 0; process < process_; ++process) {
      for (const BenchmarkResult& result : runs_[process].benchmarks) {
        if (result.name == name && !result.failure) return true;
      }
    }
    return false;
  }
  std::size_t failed_count() const { return failed_names_.size(); }
  // The run of every process merged; with one process its results are moved out, not copied.
  RunResult take_merged() {
    if (processes_ > 1) return model::merge_processes(runs_);
    RunResult run;
    run.benchmarks = std::move(runs_.front().benchmarks);
    for (BenchmarkResult& benchmark : run.benchmarks) {
      for (Sample& sample : benchmark.samples) sample.process = 0;  // as merge_processes does
    }
    return run;
  }

 private:
  void changed(const std::string& name) {
    RunResult so_far;
    if (processes_ == 1) {
      // The one process's results are lent to the checkpoint, not copied: their samples are most
      // of the supervisor's heap, and every page of it is in each worker forked after.
      so_far.benchmarks = std::move(runs_.front().benchmarks);
      so_far.context = context_;
      observer_.checkpoint(so_far);
      runs_.front().benchmarks = std::move(so_far.benchmarks);
      return;
    }
    so_far = model::merge_processes(runs_);
    for (BenchmarkResult& benchmark : so_far.benchmarks) {
      if (benchmark.name == name) {
        analysis::compute_estimates(benchmark);
        estimates_[name] = benchmark.estimates;
      } else if (auto known = estimates_.find(benchmark.name); known != estimates_.end()) {
        benchmark.estimates = known->second;
      }
    }
    so_far.context = context_;
    observer_.checkpoint(so_far);
  }

  SuiteObserver& observer_;
  const Context& context_;
  std::size_t processes_;
  std::size_t total_;
  std::size_t process_ = 0;
  std::size_t position_ = 0;
  std::vector<RunResult> runs_;
  std::map<std::string, Estimates> estimates_;
  std::set<std::string> failed_names_;
};

SuiteOutcome run_here(const SuiteRequest& request, SuiteObserver& observer) {
  SuiteOutcome outcome;
  Progress progress;
  progress.started = [&](std::size_t index, std::size_t total, const std::string& name) {
    observer.started(0, 1, index, total, name);
  };
  progress.failed = [&](const std::string& name, const std::string& message) {
    observer.failed(failed_benchmark(name, Failure{Failure::Cause::threw, {}, {}, {}}, message));
  };
  progress.measured = [&](const RunResult& so_far) { observer.checkpoint(so_far); };
  outcome.run = run_instances(request.settings, request.chosen, progress, outcome.failed);
  model::check_exact_counts(outcome.run.benchmarks);
  analysis::fit_complexity(outcome.run);
  return outcome;
}

}  // namespace

std::vector<std::size_t> rotated_order(std::size_t count, std::size_t process,
                                       std::size_t processes) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  if (count == 0) return order;
  const std::size_t shift = process * count / std::max<std::size_t>(1, processes) % count;
  std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shift), order.end());
  return order;
}

SuiteOutcome run_suite(const SuiteRequest& request, const LauncherFactory& launchers,
                       SuiteObserver& observer) {
  if (request.in_process) return run_here(request, observer);
  // Ctrl-C reaches the workers (they end at once) and this process, which records it, keeps
  // what finished and stops.
  process::install_interrupt_handler();
  struct RestoreInterrupts {
    ~RestoreInterrupts() { process::restore_default_interrupt_action(); }
  } restore_interrupts;

  const std::size_t processes = std::max<std::size_t>(1, request.processes);
  const Context context = run_context(request.settings, request.chosen);
  const std::vector<std::string> names = names_of(request.chosen);
  Tracker tracker(observer, context, processes, names.size());
  Isolation isolation;
  isolation.keep_results = false;  // the tracker keeps them
  if (request.settings.timeout_ns > 0) {
    isolation.timeout = std::chrono::nanoseconds(request.settings.timeout_ns);
  }
  // One forked worker per benchmark; a fresh process of the suite runs its whole share, and a
  // new one is started only after a failure.
  isolation.per_worker =
      request.one_worker ? 0 : (processes == 1 || request.fresh_process_each ? 1 : 0);
  SuiteOutcome outcome;
  std::optional<std::int64_t> worker_peak;
  for (std::size_t process = 0; process < processes && !outcome.interrupted; ++process) {
    std::vector<std::size_t> order =
        request.order.empty() ? rotated_order(names.size(), process, processes) : request.order;
    std::erase_if(order, [&](std::size_t index) { return tracker.has_failed(names[index]); });
    if (order.empty()) break;
    tracker.begin_process(process);
    const std::unique_ptr<Launcher> launcher = launchers(process);
    const Supervised supervised =
        supervise(*launcher, names, order, isolation, decode_served, tracker);
    outcome.interrupted = supervised.interrupted;
    if (supervised.worker_peak_rss_bytes) {
      worker_peak = std::max(worker_peak.value_or(0), *supervised.worker_peak_rss_bytes);
    }
  }
  // The last worker's result, read and checkpointed, left freed pages behind: handed back
  // before the run is merged, analysed and reported, they are not part of the final peak.
  measure::release_free_heap();
  outcome.failed = tracker.failed_count();
  outcome.run = tracker.take_merged();
  if (processes > 1) {
    analysis::compute_estimates(outcome.run);
    analysis::diagnose_processes(outcome.run);
  }
  outcome.run.context = context;
  const auto own_peak = measure::process_memory().lifetime_peak_rss_bytes();
  if (worker_peak || own_peak) {
    outcome.run.context.process_peak_rss_bytes =
        std::max(worker_peak.value_or(0), own_peak.value_or(0));
  }
  analysis::note_machine_speed(outcome.run);
  analysis::fit_complexity(outcome.run);
  gather_inputs(outcome.run);
  return outcome;
}

SuiteOutcome run_suite(const SuiteRequest& request, SuiteObserver& observer) {
  const LauncherFactory launchers = [&](std::size_t) -> std::unique_ptr<Launcher> {
    if (request.processes > 1 || request.fresh_process_each || request.one_worker) {
      return std::make_unique<ExecLauncher>(request.worker_command, request.worker, request.exec);
    }
    return std::make_unique<ForkLauncher>(
        [&](const std::vector<std::size_t>& indices, int stream_fd) {
          serve(request.settings, request.chosen, indices, stream_fd);
        });
  };
  return run_suite(request, launchers, observer);
}

}  // namespace benchkit::session
