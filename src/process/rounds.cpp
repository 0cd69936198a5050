#include "process/rounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

#include "process/interrupt.hpp"

namespace benchkit::process {
namespace {

constexpr std::size_t kStderrLines = 10;

std::string with_stderr(std::string message, const RunRecord& record) {
  const std::string tail = last_lines(record.stderr_tail, kStderrLines);
  if (!tail.empty()) message += "; last lines of its standard error:\n" + tail;
  return message;
}

class Runner {
 public:
  Runner(const std::vector<RoundBenchmark>& benchmarks, const RoundSettings& settings,
         Executor& executor, clock::Clock& clock, const PrecisionCheck& precise,
         RoundObserver& observer)
      : benchmarks_(benchmarks),
        settings_(settings),
        executor_(executor),
        clock_(clock),
        precise_(precise),
        observer_(observer) {
    result_.benchmarks.resize(benchmarks.size());
  }

  RoundsResult run() {
    for (std::size_t b = 0; b < benchmarks_.size(); ++b) {
      if (hook(b, "--setup", benchmarks_[b].hooks.setup)) set_up_.push_back(b);
      if (stopped()) return finish();
    }
    for (std::size_t w = 0; w < settings_.warmup && any_active(); ++w) {
      const std::vector<std::size_t> order = order_of(w, true);
      for (std::size_t i = 0; i < order.size(); ++i) {
        const std::size_t b = order[i];
        if (!active(b)) continue;
        if (const auto record = measured(Place{Step{b, w, true}, i}))
          result_.benchmarks[b].warmups.push_back(*record);
        if (stopped()) return finish();
      }
    }
    const std::int64_t start = clock_.now_ns();
    for (std::size_t round = 0; any_active(); ++round) {
      const std::vector<std::size_t> order = order_of(round, false);
      for (std::size_t i = 0; i < order.size(); ++i) {
        const std::size_t b = order[i];
        if (!active(b)) continue;
        if (const auto record = measured(Place{Step{b, round, false}, i})) {
          result_.benchmarks[b].runs.push_back(MeasuredRun{round, *record, i});
        }
        if (stopped()) return finish();
      }
      result_.rounds = round + 1;
      observer_.round_finished(result_);
      if (const char* reason = stop_after(round + 1, clock_.now_ns() - start)) {
        result_.stop_reason = reason;
        break;
      }
    }
    if (result_.stop_reason.empty()) result_.stop_reason = "every benchmark failed";
    return finish();
  }

 private:
  bool active(std::size_t b) const { return result_.benchmarks[b].failure.empty(); }
  bool any_active() const {
    for (std::size_t b = 0; b < benchmarks_.size(); ++b) {
      if (active(b)) return true;
    }
    return false;
  }
  bool stopped() {
    if (interrupt_requested()) result_.interrupted = true;
    return result_.interrupted;
  }

  void fail(std::size_t b, std::string message) {
    if (!result_.benchmarks[b].failure.empty()) return;
    result_.benchmarks[b].failure = message;
    observer_.benchmark_failed(b, message);
  }

  // One run of a benchmark: which, in which round, and whether it is a warm-up.
  struct Step {
    std::size_t benchmark = 0;
    std::size_t round = 0;
    bool warmup = false;
    bool operator==(const Step&) const = default;
  };
  // A step and its position in its round's order.
  struct Place {
    Step step;
    std::size_t position = 0;
  };

  std::vector<std::size_t> order_of(std::size_t round, bool warmup) const {
    return round_order(benchmarks_.size(), round, settings_.order,
                       warmup ? settings_.seed : settings_.seed + 1);
  }

  // Whether the stopping rule cannot end the measurement before measured round `round` (> 0):
  // a round below --runs, or below --min-runs (and --max-runs).
  bool certain_round(std::size_t round) const {
    if (settings_.runs > 0) return round < settings_.runs;
    return round < settings_.min_runs && (settings_.max_runs == 0 || round < settings_.max_runs);
  }

  // The run after `place` when it follows for certain unless this one fails or is interrupted:
  // the next running benchmark of the round, else the first of the next round when that round
  // is certain (a warm-up round, or a measured one the stopping rule cannot skip); and when no
  // hook runs between the two (no --conclude after this one, no --prepare before the next).
  // Not the first measured run after the warm-ups: the observer hears of it before it starts
  // (`benchkit run` waits there for `git status`, which must not run beside a measured run).
  std::optional<Place> following(const Place& place) const {
    const Step& step = place.step;
    if (!benchmarks_[step.benchmark].hooks.conclude.empty()) return std::nullopt;
    std::optional<Place> next;
    const std::vector<std::size_t> order = order_of(step.round, step.warmup);
    for (std::size_t i = place.position + 1; i < order.size() && !next; ++i) {
      if (active(order[i])) next = Place{Step{order[i], step.round, step.warmup}, i};
    }
    if (!next) {
      const Step first{0, step.round + 1, step.warmup};
      if (step.warmup ? first.round == settings_.warmup : !certain_round(first.round)) {
        return std::nullopt;
      }
      const std::vector<std::size_t> next_order = order_of(first.round, first.warmup);
      for (std::size_t i = 0; i < next_order.size() && !next; ++i) {
        if (active(next_order[i])) next = Place{Step{next_order[i], first.round, first.warmup}, i};
      }
    }
    if (next && !benchmarks_[next->step.benchmark].hooks.prepare.empty()) return std::nullopt;
    return next;
  }

  RunRequest run_request(std::size_t b) const {
    RunRequest request = settings_.run_template;
    request.argv = benchmarks_[b].command.argv;
    request.env = benchmarks_[b].command.env;
    request.timeout_seconds = settings_.timeout_seconds;
    return request;
  }

  // Runs `place`, having announced to the executor the runs that follow it for certain (as many
  // as it takes), so that the spawner starts each as soon as the one before it ends and sends
  // its records in batches. After a failed run (even one --ignore-failure counts) the next run
  // is asked for without announcing: the spawner skips announced runs after a failure.
  RunRecord execute(const Place& place) {
    const RunRequest request = run_request(place.step.benchmark);
    if (!announced_.empty() && !(announced_.front().step == place.step)) announced_.clear();
    if (announced_.empty() && announcing_ && executor_.announce(request)) {
      announced_.push_back(place);
    }
    while (!announced_.empty()) {
      const std::optional<Place> next = following(announced_.back());
      if (!next || !executor_.announce(run_request(next->step.benchmark))) break;
      announced_.push_back(*next);
    }
    if (!announced_.empty()) announced_.pop_front();
    RunRecord record = executor_.run(request);
    announcing_ = record.ok();
    if (!announcing_) announced_.clear();
    return record;
  }

  RunRequest hook_request(std::size_t b, const std::string& text) const {
    RunRequest request;
    request.argv = {settings_.hook_shell, "-c", text};
    request.env = benchmarks_[b].command.env;
    request.timeout_seconds = settings_.timeout_seconds;
    return request;
  }

  // Runs a hook; a failure stops the benchmark. Returns whether it succeeded.
  bool hook(std::size_t b, const char* flag, const std::string& text) {
    if (text.empty()) return true;
    const RunRecord record = executor_.run(hook_request(b, text));
    if (record.interrupted) result_.interrupted = true;
    if (record.ok() || result_.interrupted) return record.ok();
    fail(b, with_stderr(fmt::format("the {} hook \"{}\" {}", flag, text,
                                    record.describe(settings_.timeout_seconds)),
                        record));
    return false;
  }

  bool ignored(const RunRecord& record) const {
    if (!record.started || record.resources.timed_out || record.interrupted) return false;
    if (settings_.ignore_all_failures) return true;
    return record.resources.exit_code &&
           std::find(settings_.ignored_exit_codes.begin(), settings_.ignored_exit_codes.end(),
                     *record.resources.exit_code) != settings_.ignored_exit_codes.end();
  }

  // prepare, the run, conclude. Returns the record when the run counts.
  std::optional<RunRecord> measured(const Place& place) {
    const Step& step = place.step;
    const std::size_t b = step.benchmark;
    const std::size_t round = step.round;
    const bool warmup = step.warmup;
    const RoundBenchmark& benchmark = benchmarks_[b];
    if (!hook(b, "--prepare", benchmark.hooks.prepare)) return std::nullopt;
    observer_.run_started(b, round, warmup);
    RunRecord record = execute(place);
    if (record.interrupted) {
      result_.interrupted = true;
      return std::nullopt;
    }
    if (!record.ok() && !ignored(record)) {
      const std::string which =
          warmup ? fmt::format("warm-up run {}", round + 1) : fmt::format("run {}", round + 1);
      std::string message =
          record.started ? fmt::format("{} {}", which, record.describe(settings_.timeout_seconds))
                         : record.error;
      if (record.started && !record.resources.timed_out) {
        message += " (--ignore-failure counts such runs";
        message += record.resources.exit_code
                       ? fmt::format("; --ignore-failure={} only this status)",
                                     *record.resources.exit_code)
                       : ")";
      }
      fail(b, with_stderr(message, record));
      return std::nullopt;
    }
    if (!hook(b, "--conclude", benchmark.hooks.conclude)) return std::nullopt;
    return record;
  }

  const char* stop_after(std::size_t runs, std::int64_t elapsed_ns) const {
    if (settings_.runs > 0) return runs >= settings_.runs ? "--runs reached" : nullptr;
    if (settings_.max_runs > 0 && runs >= settings_.max_runs) return "--max-runs reached";
    if (runs < settings_.min_runs) return nullptr;
    std::size_t running = 0;
    bool all_precise = true;
    for (std::size_t b = 0; b < benchmarks_.size(); ++b) {
      if (!active(b)) continue;
      ++running;
      std::vector<double> times;
      for (const MeasuredRun& run : result_.benchmarks[b].runs) times.push_back(run.record.wall_ns);
      all_precise = all_precise && precise_ && precise_(times);
    }
    if (all_precise) return "precision reached";
    if (static_cast<double>(elapsed_ns) >= settings_.budget_ns * static_cast<double>(running)) {
      return "time budget spent";
    }
    return nullptr;
  }

  RoundsResult finish() {
    for (std::size_t b : set_up_) {
      const std::string& cleanup = benchmarks_[b].hooks.cleanup;
      if (cleanup.empty() || interrupt_requested()) continue;
      const RunRecord record = executor_.run(hook_request(b, cleanup));
      if (!record.ok()) {
        fail(b, with_stderr(fmt::format("the --cleanup hook \"{}\" {}", cleanup,
                                        record.describe(settings_.timeout_seconds)),
                            record));
      }
    }
    if (result_.interrupted) result_.stop_reason = "interrupted";
    return std::move(result_);
  }

  const std::vector<RoundBenchmark>& benchmarks_;
  const RoundSettings& settings_;
  Executor& executor_;
  clock::Clock& clock_;
  const PrecisionCheck& precise_;
  RoundObserver& observer_;
  RoundsResult result_;
  std::vector<std::size_t> set_up_;  // benchmarks whose setup ran: their cleanup runs
  std::deque<Place> announced_;      // runs announced to the executor, not yet asked for
  bool announcing_ = true;           // false after a failed run: the next one is not announced
};

}  // namespace

RoundsResult run_rounds(const std::vector<RoundBenchmark>& benchmarks,
                        const RoundSettings& settings, Executor& executor, clock::Clock& clock,
                        const PrecisionCheck& precise, RoundObserver& observer) {
  return Runner(benchmarks, settings, executor, clock, precise, observer).run();
}

}  // namespace benchkit::process
