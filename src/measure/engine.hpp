// The in-process measuring engine: warm-up, iteration counts, sampling and stopping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "benchkit/bencher.hpp"
#include "benchkit/result.hpp"
#include "clock/calibration.hpp"
#include "clock/callgrind.hpp"
#include "clock/clock.hpp"
#include "clock/perf_counters.hpp"
#include "clock/profile_markers.hpp"
#include "measure/memory.hpp"
#include "measure/speed_probe.hpp"
#include "measure/thread_group.hpp"
#include "measure/usage.hpp"

namespace benchkit::measure {

struct Settings {
  // At least 30 samples: the smallest n at which the order-statistic CI of the median is
  // reasonably tight (ranks 10 and 21 at 95%) and rank tests have useful power.
  std::size_t min_samples = 30;
  // ... except where single samples are long: once the samples have taken min_sampling_ns and
  // number at least fewest_samples, the precision rule alone decides. A sleep of 10 ms stops at
  // 10 samples (0.1 s) where 30 took 0.3 s; a 1 ms sample still takes 30. Ten is the smallest n
  // whose order-statistic 95% interval of the median leaves out the extremes (ranks 2 and 9,
  // 97.9%), so one outlier cannot widen or narrow it (docs/noise.md, "A plain run: time to a
  // result"). A sample size the user chooses is kept whole: fewest_samples = min_samples then.
  std::size_t fewest_samples = 10;
  std::int64_t min_sampling_ns = 100'000'000;
  // Hard cap on kept samples, so a long budget on a fast benchmark cannot exhaust memory.
  std::size_t max_samples = 10'000;
  // Sampling budget: 1 s keeps a suite of dozens of benchmarks under a minute; google/benchmark
  // maintainers call "run until a CI is satisfied" the ideal (issues #908, #746).
  std::int64_t time_budget_ns = 1'000'000'000;
  // At most 50 ms of warm-up: enough for caches, branch predictors and lazy initialisation of
  // typical code.
  std::int64_t warm_up_ns = 50'000'000;
  // Ends the warm-up before warm_up_ns once the code proves steady: two consecutive batches of
  // the sample's size whose times per iteration agree within steady_warm_up_tolerance. On by
  // default (a plain run's benchmark warmed up 50 ms each, 45% of a three-benchmark run; a
  // side-by-side worker warms up while the other side waits: docs/verdicts.md, "Where a
  // comparison's seconds go"); off when the user chooses a warm-up, which then runs whole.
  bool warm_up_until_steady = true;
  // 2%: the default noise threshold, below which a comparison calls a change `unchanged`; a
  // cold start (first page faults, lazy initialisation, cold caches) is far larger.
  double steady_warm_up_tolerance = 0.02;
  // Stop once the 95% CI of the median is within ±1% of it (METHODS.md, recommendation 6).
  double precision = 0.01;
  // Each sample lasts at least 1000 clock resolutions, so quantisation error stays below 0.1%,
  // and at least 1 ms (nanobench and Catch2 use the same floor); at most 100 ms.
  double resolution_multiple = 1000.0;
  std::int64_t min_sample_ns = 1'000'000;
  std::int64_t max_sample_ns = 100'000'000;
  // Inputs held at once by with_inputs: 64 MiB, far below this machine's memory yet enough
  // for thousands of typical inputs per batch.
  std::size_t input_batch_bytes = 64u << 20;
  // One iteration, one sample, no statistics: the --test smoke mode.
  bool test_mode = false;
  // Counted runs (Probes::region set, --mode instructions): the samples taken after the one
  // warm-up iteration. Counts under simulation repeat exactly, so a few samples show that they
  // do (and a spread where they do not: threads, time-dependent code); 5 keeps a benchmark's
  // simulated time near a second.
  std::size_t counted_samples = 5;
  // ... each of about this many instructions (iterations = this / the first iteration's count,
  // at least 1): enough that the harness's few dozen instructions per sample are under 0.1%,
  // few enough that a sample takes tens of milliseconds under valgrind.
  double counted_sample_instructions = 100'000.0;

  // A sample size or a warm-up the user chose (a flag, a benchmark's own setting, Bench): taken
  // whole, without the shortcuts for long samples and for code that is already steady.
  void choose_sample_size(std::size_t samples) {
    min_samples = samples;
    fewest_samples = samples;
  }
  void choose_warm_up(std::int64_t duration_ns) {
    warm_up_ns = duration_ns;
    warm_up_until_steady = false;
  }
};

// Lockstep sampling: another process measures the same benchmark of another build, and the two
// take turns sample by sample, so that both see the machine in the same state (benchkit's
// side-by-side baseline comparison). The engine asks before every sample whether to take it; the
// answer may block until the other side's sample is done.
class SampleGate {
 public:
  virtual ~SampleGate() = default;
  // True: take one sample now. False: stop sampling (the gate alone decides when to stop, so
  // the time budget, the precision rule and the sample cap do not apply).
  virtual bool next_sample() = 0;
};

// A profiled run (--profile-time, docs/profiling.md): after one warm-up iteration the routine
// runs in growing batches until `duration_ns` of wall time has passed, between the markers'
// begin_region() and end_region() (start() and stop() around every timed stretch), and the
// result holds one sample of all the iterations it ran. Set-up, warm-up and harness stay outside.
struct ProfileRun {
  std::int64_t duration_ns = 0;
  clock::ProfileMarkers* markers = nullptr;  // may be null: no profiler to tell
};

// Things the engine reads besides the clock; each may be null.
struct Probes {
  clock::CounterGroup* counters = nullptr;
  ProcessMemory* memory = nullptr;
  AllocationReader allocations = nullptr;
  // Read before the first sample and after each one: Sample::probe_ns.
  SpeedProbe* speed = nullptr;
  // When set, sampling is driven by the gate (warm-up still runs first, ungated).
  SampleGate* gate = nullptr;
  // The measuring thread's usage, read at every start and stop of the timer: the involuntary
  // context switches inside the timed region, counter "involuntary_switches" of each sample.
  ProcessUsage* thread_usage = nullptr;
  // When set, the engine counts instead of timing (--mode instructions under callgrind): one
  // warm-up iteration, then Settings::counted_samples samples of a fixed iteration count, each
  // a counted region (clock/callgrind.hpp); no clock, counters or speed probe is read inside.
  clock::CountedRegion* region = nullptr;
  // When set, the engine runs the routine for a profiler instead of sampling it (ProfileRun).
  const ProfileRun* profile = nullptr;
  // Set by the engine itself while it measures a threaded benchmark (measure with threads > 1):
  // every timer start and stop is then a barrier of the group (measure/thread_group.hpp).
  ThreadGroup* group = nullptr;
};

// The fixed cost of one timed region (two clock reads and the calls around them), which the
// engine subtracts from every sample, and the cost per iteration of an empty measured loop,
// which it records but does not subtract (see BenchmarkResult::overhead_ns_per_sample); the
// diagnostics compare a benchmark against it to spot work that was optimised away.
struct Overhead {
  double per_sample_ns = 0.0;
  double per_iteration_ns = 0.0;
};

struct BatchDriver;

class Engine {
 public:
  Engine(clock::Clock& clock, clock::Calibration calibration, Overhead overhead, Settings settings,
         Probes probes = {});

  // Runs `body` once; the body calls one of Bencher's iter / iter_custom / with_inputs, which
  // runs the whole measurement. Throws std::runtime_error when the body measures nothing or
  // measures twice, or when it throws (the message names the benchmark).
  //
  // With `threads` > 1 (Registration::threads), `body` runs in that many threads at once, each
  // with its own Bencher (thread_index() 0 … threads-1), the calling thread being thread 0.
  // Every thread runs the same batches, starting together; a sample is the wall time from the
  // common start to the end of the last thread, for `iters` iterations of each thread, so the
  // time per iteration is one thread's. The result has `threads` set and its throughput declared
  // per iteration multiplied by `threads` (the work of all the threads in one such iteration);
  // its params hold "threads" (model/threads.hpp).
  // Refused (std::runtime_error) in counted mode (Probes::region): callgrind runs one thread at a
  // time. iter_custom is refused as well: each thread would time itself.
  BenchmarkResult measure(const std::string& name, const std::function<void(Bencher&)>& body,
                          std::size_t threads = 1);

  const Settings& settings() const { return settings_; }
  const clock::Calibration& calibration() const { return calibration_; }
  const Overhead& overhead() const { return overhead_; }

  // Measures the overhead of timing an empty loop through the same machinery a benchmark uses.
  static Overhead calibrate_overhead(clock::Clock& clock);
  // The instructions an empty counted region reads (the harness's part of every sample), from
  // one region through the same timer a benchmark uses; the error when the region cannot be read.
  static std::optional<double> calibrate_counted_overhead(clock::Clock& clock,
                                                          clock::CountedRegion& region);

  // Target duration of one sample for this engine's settings and clock.
  std::int64_t sample_target_ns(std::int64_t time_budget_ns, std::size_t min_samples) const;

 private:
  friend class benchkit::Bencher;
  friend class benchkit::detail::Batches;
  class SampleTimer;
  class FollowerTimer;
  void run_body(const std::function<void(Bencher&)>& body, BenchmarkResult& result);
  void run_threads(const std::function<void(Bencher&)>& body, std::size_t threads,
                   BenchmarkResult& result);
  void run_routine(detail::Routine routine, detail::BencherState& state);
  // The measurement of one benchmark, suspended wherever a batch must run (engine.cpp): one of
  // the four below, by mode.
  BatchDriver drive(detail::BencherState& state);
  BatchDriver drive_counted(BenchmarkResult& result);   // --mode instructions
  BatchDriver drive_profiled(BenchmarkResult& result);  // --profile-time
  BatchDriver drive_smoke(BenchmarkResult& result);     // --test
  BatchDriver drive_timed(BenchmarkResult& result);     // warm-up, then sampling
  BatchDriver drive_follower();                         // threads 1 … N-1 of a threaded run

  clock::Clock& clock_;
  clock::Calibration calibration_;
  Overhead overhead_;
  Settings settings_;
  Probes probes_;
};

}  // namespace benchkit::measure

namespace benchkit::detail {

// What a Bencher writes to while a benchmark function runs.
struct BencherState {
  measure::Engine* engine = nullptr;
  BenchmarkResult* result = nullptr;
  bool measured = false;
  // A threaded benchmark's group, and which of its threads this is (0: the leader).
  measure::ThreadGroup* group = nullptr;
  std::size_t thread_index = 0;
};

}  // namespace benchkit::detail
