#include "process/rounds.hpp"

#include <fmt/format.h>

#include <algorithm>
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
        if (const auto record = measured(Step{b, w, true}, order, i))
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
        if (const auto record = measured(Step{b, round, false}, order, i)) {
          result_.benchmarks[b].runs.push_back(MeasuredRun{round, *record});
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
  };

  std::vector<std::size_t> order_of(std::size_t round, bool warmup) const {
    return round_order(benchmarks_.size(), round, settings_.order,
                       warmup ? settings_.seed : settings_.seed + 1);
  }

  // The run after `step` (at `position` in its round's `order`) when it follows for certain
  // unless this one fails or is interrupted: the next running benchmark of the round, else the
  // first of the next round when that round is certain (a warm-up round or the first measured
  // one after them, or a round below --runs). None when the stopping rule decides.
  std::optional<Step> following(const Step& step, const std::vector<std::size_t>& order,
                                std::size_t position) const {
    for (std::size_t i = position + 1; i < order.size(); ++i) {
      if (active(order[i])) return Step{order[i], step.round, step.warmup};
    }
    Step next{0, step.round + 1, step.warmup};
    if (step.warmup && next.round == settings_.warmup) next = Step{0, 0, false};
    if (!step.warmup && (settings_.runs == 0 || next.round >= settings_.runs)) return std::nullopt;
    for (std::size_t b : order_of(next.round, next.warmup)) {
      if (active(b)) return Step{b, next.round, next.warmup};
    }
    return std::nullopt;
  }

  RunRequest run_request(std::size_t b) const {
    RunRequest request = settings_.run_template;
    request.argv = benchmarks_[b].command.argv;
    request.env = benchmarks_[b].command.env;
    request.timeout_seconds = settings_.timeout_seconds;
    return request;
  }

  // Runs `step`, hinting the executor at the run after it when nothing runs between the two
  // (no --conclude after this one, no --prepare before the next).
  RunRecord execute(const Step& step, const std::vector<std::size_t>& order, std::size_t position) {
    const RunRequest request = run_request(step.benchmark);
    if (benchmarks_[step.benchmark].hooks.conclude.empty()) {
      const std::optional<Step> next = following(step, order, position);
      if (next && benchmarks_[next->benchmark].hooks.prepare.empty()) {
        return executor_.run_then(request, run_request(next->benchmark));
      }
    }
    return executor_.run(request);
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
  std::optional<RunRecord> measured(const Step& step, const std::vector<std::size_t>& order,
                                    std::size_t position) {
    const std::size_t b = step.benchmark;
    const std::size_t round = step.round;
    const bool warmup = step.warmup;
    const RoundBenchmark& benchmark = benchmarks_[b];
    if (!hook(b, "--prepare", benchmark.hooks.prepare)) return std::nullopt;
    observer_.run_started(b, round, warmup);
    RunRecord record = execute(step, order, position);
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
};

}  // namespace

RoundsResult run_rounds(const std::vector<RoundBenchmark>& benchmarks,
                        const RoundSettings& settings, Executor& executor, clock::Clock& clock,
                        const PrecisionCheck& precise, RoundObserver& observer) {
  return Runner(benchmarks, settings, executor, clock, precise, observer).run();
}

}  // namespace benchkit::process
