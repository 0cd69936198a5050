// What a run tells while it measures, as plain data: which benchmark, round or command run
// starts, what failed, the run so far, a revision's build. session/ sends these events (every
// kind of run through the pipeline, session/pipeline.hpp); report::ProgressPrinter turns them
// into the lines a command shows (report/progress_printer.hpp); the command line draws those on
// the terminal. The interfaces live here, below both, so that report/ can implement them without
// knowing the session, and the session can call them without knowing any text.
#pragma once

#include <cstddef>
#include <string>

#include "benchkit/result.hpp"

namespace benchkit::model {

// A bench binary's suite: its benchmarks, in one or several processes.
class SuiteObserver {
 public:
  virtual ~SuiteObserver() = default;
  // Benchmark `index` of `total` starts, in process `process` of `processes`.
  virtual void started(std::size_t /*process*/, std::size_t /*processes*/, std::size_t /*index*/,
                       std::size_t /*total*/, const std::string& /*name*/) {}
  virtual void failed(const BenchmarkResult& /*failed*/) {}
  // After each benchmark: the run so far (estimates of what is measured so far), to be saved.
  virtual void checkpoint(const RunResult& /*so_far*/) {}
};

// Progress while measuring. A suite's events come from SuiteObserver; paired rounds (side by
// side, Google Benchmark binaries) add theirs. Every event has a default that ignores it, so an
// observer overrides only what it shows.
class Observer : public SuiteObserver {
 public:
  // Benchmark `index` of `count` of round `round` (from 0) of `planned` starts; `extra` when
  // the round is one of those added because the benchmark was still inconclusive.
  virtual void round_started(std::size_t /*round*/, std::size_t /*planned*/, std::size_t /*index*/,
                             std::size_t /*count*/, const std::string& /*name*/, bool /*extra*/) {}
  // A benchmark stopped early and the others go on: one of paired rounds failed (crashed, hung,
  // exited, threw) and left the comparison, or a whole command (benchkit run, ab --cmd, noise --
  // CMD) failed or timed out, or its hook failed.
  virtual void benchmark_failed(const std::string& /*name*/, const std::string& /*message*/) {}
  // The measuring step is over, whatever its end: a progress line can be cleared.
  virtual void measuring_ended() {}
  // Whole commands in rounds: a run of benchmark `name` starts (a warm-up run, or one of round
  // `round`), `elapsed_seconds` after the rounds began. A benchmark that stops early (a run that
  // failed or timed out, a hook that failed) is told to benchmark_failed.
  virtual void command_run_started(const std::string& /*name*/, std::size_t /*round*/,
                                   bool /*warmup*/, double /*elapsed_seconds*/) {}
  // A remark on how the runs are made that changes what they mean (no spawner helper: a small
  // command's peak RSS includes benchkit's own memory).
  virtual void note(const std::string& /*text*/) {}
  // What is about to run, in a sentence ("running ./bench in 10 fresh processes, ..."), once
  // the checks before it passed.
  virtual void measuring_started(const std::string& /*what*/) {}

  // Two revisions (ab, bisect). `revision` is a revision's label ("BASE v1.0 (1a2b3c4d5e6f)").
  // It is being checked out, configured or built: `step` says which.
  virtual void revision_step(const std::string& /*revision*/, const std::string& /*step*/) {}
  // It is ready to run: built in `seconds` into `folder`, or its build kept from an earlier run.
  virtual void revision_built(const std::string& /*revision*/, bool /*cached*/, double /*seconds*/,
                              const std::string& /*folder*/) {}
  // As round_started, for the bench binaries of bench target `target` of both builds.
  virtual void pair_round_started(const std::string& /*target*/, std::size_t /*round*/,
                                  std::size_t /*planned*/, std::size_t /*index*/,
                                  std::size_t /*count*/, const std::string& /*name*/) {}
  // Counted (Mode::instructions): `revision`'s binary of `target` counts `benchmarks` benchmarks.
  virtual void counting_started(const std::string& /*revision*/, const std::string& /*target*/,
                                std::size_t /*benchmarks*/) {}
};

}  // namespace benchkit::model
