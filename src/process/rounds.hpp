// Running several commands interleaved in rounds: warm-up, hooks, stopping, failures.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "process/plan.hpp"
#include "process/run.hpp"

namespace benchkit::process {

// Shell strings run around the measured runs, never timed. Empty: none.
struct Hooks {
  std::string setup;     // once per benchmark, before its first run
  std::string prepare;   // before every run (warm-up runs too)
  std::string conclude;  // after every run
  std::string cleanup;   // once per benchmark, after its last run (also after a failure)
};

struct RoundBenchmark {
  PlannedCommand command;
  Hooks hooks;  // with the benchmark's parameter values substituted
};

struct RoundSettings {
  std::size_t warmup = 1;     // runs per benchmark before measuring, reported apart
  std::size_t min_runs = 10;  // rounds before the precision or budget rule may stop
  std::size_t max_runs = 0;   // 0: no maximum
  std::size_t runs = 0;       // exactly this many rounds (0: adaptive)
  // Measuring time per benchmark: the rounds stop once min_runs are done and this much time
  // times the number of running benchmarks has passed, unless every benchmark reached the
  // precision target first.
  double budget_ns = 3e9;
  double timeout_seconds = 0.0;  // per run; 0: none
  Order order = Order::alternate;
  std::uint64_t seed = 0;
  bool ignore_all_failures = false;     // non-zero exits and signals count as runs
  std::vector<int> ignored_exit_codes;  // these exit codes count as runs
  std::string hook_shell = "/bin/sh";
  RunRequest run_template;  // input, output and CPU pinning of every measured run
};

struct MeasuredRun {
  std::size_t round = 0;
  RunRecord record;
  // Its place in its round's order (round_order), 0 for the first.
  std::size_t turn = 0;
};

struct BenchmarkOutcome {
  std::vector<RunRecord> warmups;
  std::vector<MeasuredRun> runs;
  std::string failure;  // why the benchmark stopped early; empty when it ran to the end
};

struct RoundsResult {
  std::vector<BenchmarkOutcome> benchmarks;
  std::size_t rounds = 0;
  std::string stop_reason;  // "precision reached", "time budget spent", "--runs", ...
  bool interrupted = false;
};

// What the caller sees while the rounds run (progress, checkpoints). Every method is optional.
class RoundObserver {
 public:
  virtual ~RoundObserver() = default;
  virtual void run_started(std::size_t /*benchmark*/, std::size_t /*round*/, bool /*warmup*/) {}
  virtual void benchmark_failed(std::size_t /*benchmark*/, const std::string& /*message*/) {}
  virtual void round_finished(const RoundsResult& /*so_far*/) {}
};

// Whether the wall times of one benchmark are precise enough to stop (the caller's statistics).
using PrecisionCheck = std::function<bool(const std::vector<double>& wall_ns)>;

RoundsResult run_rounds(const std::vector<RoundBenchmark>& benchmarks,
                        const RoundSettings& settings, Executor& executor, clock::Clock& clock,
                        const PrecisionCheck& precise, RoundObserver& observer);

}  // namespace benchkit::process
