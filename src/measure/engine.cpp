#include "measure/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <coroutine>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "clock/phase_trace.hpp"
#include "stats/intervals.hpp"
#include "stats/summary.hpp"

namespace benchkit::measure {

namespace {
constexpr const char* kThreadedCustomTiming =
    "iter_custom cannot run in a threaded benchmark (.threads): each thread would time itself "
    "and the threads' times cannot be joined into one sample; use b.iter(...) or "
    "b.with_inputs(...), which the engine times from the common start to the last thread's end";
}  // namespace

// The timer a routine drives: accumulates the time (and counters) between start() and stop().
class Engine::SampleTimer final : public detail::Timer {
 public:
  SampleTimer(clock::Clock& clock, const Probes& probes, std::size_t input_batch_bytes)
      : clock_(clock), probes_(probes), input_batch_bytes_(input_batch_bytes) {}

  void reset() {
    elapsed_ns_ = 0.0;
    segments_ = 0;
    custom_ = false;
    running_ = false;
    counter_totals_ = {};
    allocations_ = {};
    switches_ = 0;
    switches_known_ = probes_.thread_usage != nullptr;
  }

  void start() override {
    if (probes_.region) {
      // Counted: nothing but the region's switch, so no clock or counter read is counted.
      if (probes_.allocations) allocation_start_ = probes_.allocations();
      running_ = true;
      probes_.region->start();
      return;
    }
    if (probes_.allocations) allocation_start_ = probes_.allocations();
    if (probes_.counters) counter_start_ = probes_.counters->read();
    if (probes_.thread_usage) switch_start_ = involuntary_switches();
    running_ = true;
    started_at_ = clock_.now_ns();
    // Threaded: the threads start the timed work together, and the sample starts when the last
    // of them is ready (the latest reading), not when this thread wakes up: on a busy machine
    // a woken thread may run long after the others started.
    if (probes_.group) started_at_ = probes_.group->arrive(started_at_);
    if (probes_.profile && probes_.profile->markers) probes_.profile->markers->start();
  }

  void stop() override {
    if (probes_.region) {
      if (!running_) return;
      probes_.region->stop();
      running_ = false;
      ++segments_;
      if (probes_.allocations) {
        const AllocationTotals now = probes_.allocations();
        allocations_.count += now.count - allocation_start_.count;
        allocations_.bytes += now.bytes - allocation_start_.bytes;
      }
      return;
    }
    if (probes_.profile && probes_.profile->markers && running_) {
      probes_.profile->markers->stop();
    }
    std::int64_t stopped_at = clock_.now_ns();
    // Threaded: the sample ends when the last thread's work does.
    if (probes_.group) stopped_at = probes_.group->arrive(stopped_at);
    if (!running_) return;
    running_ = false;
    elapsed_ns_ += static_cast<double>(stopped_at - started_at_);
    ++segments_;
    if (probes_.counters) {
      const clock::CounterValues now = probes_.counters->read();
      for (std::size_t i = 0; i < now.values.size(); ++i) {
        counter_totals_.values[i] += now.values[i] - counter_start_.values[i];
      }
    }
    if (probes_.allocations) {
      const AllocationTotals now = probes_.allocations();
      allocations_.count += now.count - allocation_start_.count;
      allocations_.bytes += now.bytes - allocation_start_.bytes;
    }
    if (probes_.thread_usage) {
      const std::optional<std::int64_t> now = involuntary_switches();
      if (now && switch_start_) {
        switches_ += *now - *switch_start_;
      } else {
        switches_known_ = false;
      }
    }
  }

  void record_elapsed_ns(double ns) override {
    if (probes_.group) throw std::runtime_error(kThreadedCustomTiming);
    elapsed_ns_ += std::max(0.0, ns);
    ++segments_;
    custom_ = true;
    switches_known_ = false;  // the routine timed itself: the switches were not counted around it
  }

  std::size_t input_batch_limit(std::size_t bytes_each) override {
    return std::max<std::size_t>(1, input_batch_bytes_ / std::max<std::size_t>(bytes_each, 1));
  }

  std::int64_t heap_bytes_in_use() override {
    // Threaded: unknown, so that every thread cuts its batch into the same pieces (each piece is
    // a start and a stop, barriers all the threads must reach).
    if (probes_.group) return -1;
    return probes_.memory ? probes_.memory->heap_bytes_in_use() : -1;
  }

  double elapsed_ns() const { return elapsed_ns_; }
  int segments() const { return segments_; }
  bool custom() const { return custom_; }

  // The time of the batch just run; an error when the routine never timed it.
  double batch_elapsed(const std::string& benchmark) const {
    if (segments_ == 0) {
      throw std::runtime_error(
          fmt::format("benchmark {}: the routine never started and stopped the timer", benchmark));
    }
    return elapsed_ns_;
  }

  // The counts of the counted batch just run (ended here, under `label`); an error when the
  // routine times itself, never timed the batch, or the counts cannot be read.
  clock::CountedMetrics counted_metrics(clock::CountedRegion& region, const std::string& benchmark,
                                        const std::string& label) const {
    const std::optional<clock::CountedMetrics> metrics = region.end_sample(label);
    if (custom_) {
      throw std::runtime_error(fmt::format(
          "benchmark {} times itself (iter_custom): --mode instructions cannot count around "
          "it; use b.iter(...) or run it with --mode time",
          benchmark));
    }
    if (segments_ == 0) {
      throw std::runtime_error(
          fmt::format("benchmark {}: the routine never started and stopped the timer", benchmark));
    }
    if (!metrics) {
      throw std::runtime_error(fmt::format("benchmark {}: cannot read the instruction count: {}",
                                           benchmark, region.error()));
    }
    return *metrics;
  }

  // The sample of the batch just run, with its counters.
  Sample sample(std::uint64_t iterations, double elapsed) const {
    Sample sample;
    sample.iters = iterations;
    sample.ns = elapsed;
    fill_counters(sample);
    // The resident set after each sample, outside the timed region: memory that grows with
    // the iterations run shows as a rising series (the memory_growth diagnostic).
    if (probes_.memory) {
      if (const auto rss = probes_.memory->rss_bytes()) {
        sample.counters["rss_bytes"] = static_cast<double>(*rss);
      }
    }
    return sample;
  }

  void fill_counters(Sample& sample) const {
    if (probes_.counters && !probes_.region) {
      const auto names = clock::CounterGroup::names();
      for (std::size_t i = 0; i < names.size(); ++i) {
        sample.counters[names[i]] = counter_totals_.values[i];
      }
    }
    if (probes_.allocations) {
      sample.counters["allocations"] = static_cast<double>(allocations_.count);
      sample.counters["allocated_bytes"] = static_cast<double>(allocations_.bytes);
    }
    if (switches_known_ && !probes_.region) {
      sample.counters["involuntary_switches"] = static_cast<double>(switches_);
    }
  }

 private:
  clock::Clock& clock_;
  const Probes& probes_;
  std::size_t input_batch_bytes_;
  std::int64_t started_at_ = 0;
  double elapsed_ns_ = 0.0;
  int segments_ = 0;
  bool custom_ = false;
  bool running_ = false;
  clock::CounterValues counter_start_{};
  clock::CounterValues counter_totals_{};
  AllocationTotals allocation_start_{};
  AllocationTotals allocations_{};
  std::optional<std::int64_t> switch_start_;
  std::int64_t switches_ = 0;
  bool switches_known_ = false;

  std::optional<std::int64_t> involuntary_switches() const {
    const std::optional<UsageTotals> usage = probes_.thread_usage->read();
    if (!usage) return std::nullopt;
    return usage->involuntary_switches;
  }
};

// The timer of threads 1 … N-1 of a threaded benchmark: it only keeps the group's barriers (the
// leader's SampleTimer measures); its stop brings the thread's own end time.
class Engine::FollowerTimer final : public detail::Timer {
 public:
  FollowerTimer(clock::Clock& clock, ThreadGroup& group, std::size_t input_batch_bytes)
      : clock_(clock), group_(group), input_batch_bytes_(input_batch_bytes) {}

  void start() override { group_.arrive(clock_.now_ns()); }
  void stop() override {
    group_.arrive(clock_.now_ns());
    ++segments_;
  }
  void record_elapsed_ns(double) override { throw std::runtime_error(kThreadedCustomTiming); }
  std::size_t input_batch_limit(std::size_t bytes_each) override {
    return std::max<std::size_t>(1, input_batch_bytes_ / std::max<std::size_t>(bytes_each, 1));
  }
  std::int64_t heap_bytes_in_use() override { return -1; }  // as the leader's (SampleTimer)
  int segments() const { return segments_; }

 private:
  clock::Clock& clock_;
  ThreadGroup& group_;
  std::size_t input_batch_bytes_;
  int segments_ = 0;
};

// The measurement as a coroutine: it runs the engine's logic (warm-up, batch sizes, sampling,
// stopping) and suspends wherever a batch must run, with the batch's iteration count; the
// benchmark's loop (detail::Batches) runs the batch and resumes it. So the loop sits inline in
// the benchmark function (include/benchkit/bencher.hpp says why) while the engine keeps its
// control flow.
struct BatchDriver {
  struct promise_type {
    std::uint64_t requested = 0;  // iterations of the batch to run now
    detail::Timer* timer = nullptr;
    std::exception_ptr error;
    // Set for the leader of a threaded benchmark: each batch is published to the followers.
    ThreadGroup* leader_of = nullptr;
    BatchDriver get_return_object() {
      return BatchDriver{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> handle;
};

// co_await RunBatch{n, &timer}: hands a batch of n iterations to the benchmark's loop. Outside
// the anonymous namespace: the coroutine frames of Engine's members hold one, and GCC warns
// (-Wsubobject-linkage) when such a frame, of a file other than the one compiled (as in the
// unity build, docs/build-time.md), has a field of a type with internal linkage.
struct RunBatch {
  std::uint64_t iterations;
  detail::Timer* timer;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<BatchDriver::promise_type> handle) const noexcept {
    handle.promise().requested = iterations;
    handle.promise().timer = timer;
  }
  void await_resume() const noexcept {}
};

namespace {

constexpr double kLongCountedIteration = 1e7;
// A profiled batch grows until it takes 10 ms: the clock is read a hundred times a second.
constexpr double kProfileBatchNs = 1e7;

// Iterations per counted sample: enough for about counted_sample_instructions each (at most a
// million), one in --test.
std::uint64_t counted_iterations(const Settings& settings, double first_work) {
  if (settings.test_mode) return 1;
  return static_cast<std::uint64_t>(
      std::clamp(std::ceil(settings.counted_sample_instructions / first_work), 1.0, 1e6));
}

// Counted samples to take after the first iteration.
std::size_t counted_sample_count(const Settings& settings, double first_work) {
  // An iteration of over 10 million instructions takes seconds under callgrind: two samples
  // show that the count repeats (or does not) as well as five.
  if (settings.test_mode) return 1;
  if (first_work > kLongCountedIteration) {
    return std::clamp<std::size_t>(settings.counted_samples, 1, 2);
  }
  return std::max<std::size_t>(1, settings.counted_samples);
}

// The cache and system-call figures callgrind counted beside a sample's instructions.
void add_cache_counters(Sample& sample, const clock::CountedMetrics& metrics) {
  sample.counters["l1_hits"] = metrics.l1_hits;
  sample.counters["ll_hits"] = metrics.ll_hits;
  sample.counters["ram_hits"] = metrics.ram_hits;
  sample.counters["estimated_cycles"] = metrics.estimated_cycles;
  sample.counters["system_calls"] = metrics.system_calls;
}

// The last warm-up batch: its iterations, its timed and its wall time.
struct WarmUpBatch {
  std::uint64_t iterations;
  double elapsed_ns;
  double wall_ns;
};

// The size of the next warm-up batch after one that fell short of the target.
std::uint64_t next_warm_up_batch(const WarmUpBatch& last, double target_ns, double trustworthy_ns,
                                 double wall_cap_ns) {
  const std::uint64_t iterations = last.iterations;
  std::uint64_t next;
  if (last.elapsed_ns < trustworthy_ns) {
    next = iterations * 10;
  } else {
    // Straight to the target, with a 10% margin so the next batch lands above it.
    const double predicted = static_cast<double>(iterations) * target_ns * 1.1 / last.elapsed_ns;
    next = static_cast<std::uint64_t>(std::ceil(std::min(predicted, 1e12)));
    next = std::clamp<std::uint64_t>(next, iterations + 1, iterations * 100);
  }
  // Never grow a batch past the wall-time cap either.
  if (last.wall_ns > 0.0) {
    const double wall_limit = static_cast<double>(iterations) * wall_cap_ns / last.wall_ns;
    next = std::min<std::uint64_t>(
        next, std::max<std::uint64_t>(iterations, static_cast<std::uint64_t>(wall_limit)));
  }
  return next;
}

// The warm-up batches of the sample's size whose median time per iteration sizes the samples.
constexpr std::size_t kSizingBatches = 9;

// The median time per iteration of the warm-up's last kSizingBatches batches of the sample's
// size (`full`: their times per iteration, in the order run): one batch that met a slow stretch
// (a cold file, one costly iteration of many cheap ones) does not set the size of every sample.
// 0 when none measured.
double sizing_per_iteration(const std::vector<double>& full) {
  const std::size_t first = full.size() > kSizingBatches ? full.size() - kSizingBatches : 0;
  std::vector<double> last(full.begin() + static_cast<std::ptrdiff_t>(first), full.end());
  std::erase_if(last, [](double value) { return value <= 0.0; });
  return last.empty() ? 0.0 : stats::median_in_place(last);
}

// Whether the last two batches of the sample's size (`full`: their times per iteration) agree
// within `tolerance`: the code is warm (Settings::warm_up_until_steady).
bool steady(const std::vector<double>& full, double tolerance) {
  return full.size() >= 2 && std::abs(full.back() / full[full.size() - 2] - 1.0) <= tolerance;
}

// The one iteration count of every sample (flat sampling), for the faster of two readings of
// the warm-up: its last batch (a code still getting faster is sized as it ends) and the median
// of its last batches of the sample's size, `full` (one batch that met a slow stretch, a cold
// file or a neighbour's burst, does not shrink every sample to a few iterations).
// `iterations` (the warm-up's last count) when nothing was measured.
std::uint64_t sample_iterations(const WarmUpBatch& last, const std::vector<double>& full,
                                bool capped_by_setup, double target_ns, double wall_cap_ns,
                                std::uint64_t iterations) {
  if (capped_by_setup && last.wall_ns > 0.0) {
    return static_cast<std::uint64_t>(std::max(
        1.0, std::floor(static_cast<double>(last.iterations) * wall_cap_ns / last.wall_ns)));
  }
  double per_iteration = sizing_per_iteration(full);
  if (last.elapsed_ns > 0.0) {
    const double last_per_iteration = last.elapsed_ns / static_cast<double>(last.iterations);
    per_iteration =
        per_iteration > 0.0 ? std::min(per_iteration, last_per_iteration) : last_per_iteration;
  }
  if (per_iteration > 0.0) {
    return static_cast<std::uint64_t>(std::max(1.0, std::round(target_ns / per_iteration)));
  }
  return iterations;
}

// The default stopping rule: the 95% interval of the median within ±precision of it.
bool precise_enough(const std::vector<double>& sorted, double precision) {
  const stats::Interval interval = stats::median_ci_sorted(sorted, 0.95);
  const double middle = sorted[sorted.size() / 2];
  const double half_width = std::max(interval.upper - middle, middle - interval.lower);
  return middle > 0.0 && half_width <= precision * middle;
}

// With fewer than the minimum of samples: the few_samples diagnostic that ends sampling when
// the budget cannot hold the minimum because single samples are too slow, or setup outside the
// timed region ate 10 budgets; nothing (go on) otherwise.
std::optional<Diagnostic> too_few_samples(const Settings& settings, std::int64_t spent,
                                          std::size_t count, double per_iteration_ns) {
  const double projected = static_cast<double>(spent) / static_cast<double>(count) *
                           static_cast<double>(settings.min_samples);
  const bool out_of_budget = spent >= settings.time_budget_ns &&
                             (projected > 2.0 * static_cast<double>(settings.time_budget_ns) ||
                              spent >= 10 * settings.time_budget_ns);
  if (!out_of_budget) return std::nullopt;
  return Diagnostic{
      "few_samples", "warning",
      fmt::format("only {} samples of the {} wanted fit in the {:.3g} s budget (one "
                  "iteration takes {:.3g} ms); the interval is wide. Raise the budget "
                  "(--time-budget or .time_budget()) or lower .sample_size() knowingly",
                  count, settings.min_samples, static_cast<double>(settings.time_budget_ns) / 1e9,
                  per_iteration_ns / 1e6)};
}

}  // namespace

Engine::Engine(clock::Clock& clock, clock::Calibration calibration, Overhead overhead,
               Settings settings, Probes probes)
    : clock_(clock),
      calibration_(calibration),
      overhead_(overhead),
      settings_(settings),
      probes_(probes) {
  settings_.min_samples = std::max<std::size_t>(1, settings_.min_samples);
  settings_.max_samples = std::max(settings_.max_samples, settings_.min_samples);
  settings_.fewest_samples =
      std::clamp<std::size_t>(settings_.fewest_samples, 1, settings_.min_samples);
}

std::int64_t Engine::sample_target_ns(std::int64_t time_budget_ns, std::size_t min_samples) const {
  const double by_resolution = calibration_.resolution_ns * settings_.resolution_multiple;
  double target = std::max(by_resolution, static_cast<double>(settings_.min_sample_ns));
  target = std::min(target, static_cast<double>(settings_.max_sample_ns));
  // The budget must hold the minimum number of samples.
  const double share = static_cast<double>(time_budget_ns) / static_cast<double>(min_samples);
  target = std::min(target, std::max(share, by_resolution));
  return static_cast<std::int64_t>(target);
}

BenchmarkResult Engine::measure(const std::string& name, const std::function<void(Bencher&)>& body,
                                std::size_t threads) {
  threads = std::max<std::size_t>(1, threads);
  if (threads > 1 && probes_.region) {
    throw std::runtime_error(fmt::format(
        "benchmark {} runs {} threads: --mode instructions cannot count it, because callgrind "
        "runs one thread at a time (the threads never contend, and the count is the sum of their "
        "work); run it with --mode time, or leave it out with --filter",
        name, threads));
  }
  BenchmarkResult result;
  result.name = name;
  result.overhead_ns_per_sample = overhead_.per_sample_ns;

  std::optional<std::int64_t> rss_before;
  bool peak_was_reset = false;
  if (probes_.memory) {
    peak_was_reset = probes_.memory->reset_peak();
    rss_before = probes_.memory->rss_bytes();
  }
  const clock::TracedPhase traced("benchmark");
  if (threads > 1) {
    run_threads(body, threads, result);
  } else {
    run_body(body, result);
  }
  if (probes_.memory) {
    result.memory.peak_rss_bytes = probes_.memory->peak_rss_bytes();
    result.memory.peak_rss_method = peak_rss_method(peak_was_reset);
    const auto rss_after = probes_.memory->rss_bytes();
    if (rss_before && rss_after) result.memory.rss_growth_bytes = *rss_after - *rss_before;
  }
  return result;
}

namespace {

std::runtime_error measured_nothing(const std::string& name) {
  return std::runtime_error(fmt::format(
      "benchmark {} measured nothing: its function must call b.iter(...), b.iter_custom(...) "
      "or b.with_inputs(...).bench_refs/bench_values(...) exactly once",
      name));
}

}  // namespace

void Engine::run_body(const std::function<void(Bencher&)>& body, BenchmarkResult& result) {
  detail::BencherState state;
  state.engine = this;
  state.result = &result;
  Bencher bencher(state);
  try {
    body(bencher);
  } catch (const std::exception& error) {
    throw std::runtime_error(fmt::format("benchmark {} threw: {}", result.name, error.what()));
  } catch (...) {
    throw std::runtime_error(
        fmt::format("benchmark {} threw an exception that is not a "
                    "std::exception",
                    result.name));
  }
  if (!state.measured) throw measured_nothing(result.name);
}

void Engine::run_threads(const std::function<void(Bencher&)>& body, std::size_t threads,
                         BenchmarkResult& result) {
  ThreadGroup group(threads);
  // Per-thread probes would see thread 0 alone: hardware counters and context switches are left
  // out of threaded samples. Allocations are counted process-wide, so they stay.
  Probes probes = probes_;
  probes.group = &group;
  probes.counters = nullptr;
  probes.thread_usage = nullptr;
  Settings settings = settings_;
  // The inputs every thread holds at once stay within the budget of one benchmark.
  settings.input_batch_bytes = std::max<std::size_t>(1, settings.input_batch_bytes / threads);
  Engine engine(clock_, calibration_, overhead_, settings, probes);
  // Thread 0 writes the result; the others' throughput and counters go to scratch results.
  std::vector<BenchmarkResult> scratch(threads);
  std::vector<detail::BencherState> states(threads);
  for (std::size_t index = 0; index < threads; ++index) {
    scratch[index].name = result.name;
    states[index].engine = &engine;
    states[index].result = index == 0 ? &result : &scratch[index];
    states[index].group = &group;
    states[index].thread_index = index;
  }
  auto run = [&](std::size_t index) {
    Bencher bencher(states[index]);
    const std::string who = fmt::format("thread {} of {}", index, threads);
    try {
      body(bencher);
      if (!states[index].measured) {
        group.abort(
            fmt::format("{} measured nothing: every thread runs the benchmark function and "
                        "must call b.iter(...) or b.with_inputs(...) exactly once",
                        who));
      }
      group.leave(index);
    } catch (const GroupAborted&) {
      // Another thread's failure; the group holds its reason.
    } catch (const std::exception& error) {
      group.abort(fmt::format("{} threw: {}", who, error.what()));
    } catch (...) {
      group.abort(who + " threw an exception that is not a std::exception");
    }
  };
  std::vector<std::thread> followers;
  followers.reserve(threads - 1);
  try {
    for (std::size_t index = 1; index < threads; ++index) followers.emplace_back(run, index);
  } catch (const std::exception& error) {
    group.abort(fmt::format("cannot start {} threads: {}", threads, error.what()));
  }
  if (!group.abort_reason()) run(0);
  for (std::thread& follower : followers) follower.join();
  if (const std::optional<std::string> reason = group.abort_reason()) {
    throw std::runtime_error(fmt::format("benchmark {}: {}", result.name, *reason));
  }
  if (!states[0].measured) throw measured_nothing(result.name);
  result.params["threads"] = std::to_string(threads);  // model::thread_count reads it
  // Throughput per iteration of all the threads (a sample's `iters` are each thread's).
  if (result.bytes_per_iteration) *result.bytes_per_iteration *= threads;
  if (result.items_per_iteration) *result.items_per_iteration *= threads;
}

void Engine::run_routine(detail::Routine routine, detail::BencherState& state) {
  detail::Batches batches(state);
  while (const std::uint64_t iterations = batches.next()) {
    routine.run(routine.object, iterations, batches.timer());
  }
}

BatchDriver Engine::drive(detail::BencherState& state) {
  BenchmarkResult& result = *state.result;
  if (state.measured) {
    throw std::runtime_error(fmt::format(
        "benchmark {} measured twice: call iter, iter_custom or with_inputs once per benchmark "
        "(register a second benchmark for the second routine)",
        result.name));
  }
  state.measured = true;
  if (state.group && state.thread_index > 0) return drive_follower();
  BatchDriver driver = probes_.region        ? drive_counted(result)
                       : probes_.profile     ? drive_profiled(result)
                       : settings_.test_mode ? drive_smoke(result)
                                             : drive_timed(result);
  driver.handle.promise().leader_of = state.group;
  return driver;
}

BatchDriver Engine::drive_follower() {
  // The leader decides every batch (ThreadGroup's protocol); this thread runs them.
  ThreadGroup& group = *probes_.group;
  FollowerTimer timer(clock_, group, settings_.input_batch_bytes);
  std::uint64_t seen = 0;
  for (;;) {
    const std::uint64_t iterations = group.next_batch(seen);
    if (iterations == 0) co_return;
    const int segments = timer.segments();
    co_await RunBatch{iterations, &timer};
    if (timer.segments() == segments) {
      throw std::runtime_error("the routine never started and stopped the timer");
    }
  }
}

BatchDriver Engine::drive_counted(BenchmarkResult& result) {
  // Counted (--mode instructions): one warm-up iteration, whose count is also the first
  // iteration's (lazy initialisation shows there), then flat samples of a fixed count of
  // iterations chosen from it. Nothing here reads a clock: the counts are the measurement.
  SampleTimer timer(clock_, probes_, settings_.input_batch_bytes);
  clock::CountedRegion& region = *probes_.region;
  timer.reset();
  region.begin_sample();
  co_await RunBatch{1, &timer};
  const clock::CountedMetrics first =
      timer.counted_metrics(region, result.name, result.name + " (first iteration)");
  result.first_iteration_ns = first.instructions;
  result.warm_up_iters = 1;
  result.warm_up_ns = first.instructions;
  const double first_work = std::max(1.0, first.instructions - overhead_.per_sample_ns);
  const std::uint64_t iterations = counted_iterations(settings_, first_work);
  const std::size_t samples = counted_sample_count(settings_, first_work);
  for (std::size_t index = 0; index < samples; ++index) {
    timer.reset();
    region.begin_sample();
    co_await RunBatch{iterations, &timer};
    const clock::CountedMetrics metrics = timer.counted_metrics(
        region, result.name, fmt::format("{} (sample {} of {})", result.name, index + 1, samples));
    result.samples.push_back(timer.sample(iterations, metrics.instructions));
    add_cache_counters(result.samples.back(), metrics);
  }
}

BatchDriver Engine::drive_profiled(BenchmarkResult& result) {
  // Profiled (--profile-time): one warm-up iteration, then batches that double while each
  // takes under kProfileBatchNs (so the harness's share stays small and the clock is still
  // read often enough to stop on time), until the duration has passed.
  SampleTimer timer(clock_, probes_, settings_.input_batch_bytes);
  const ProfileRun& profile = *probes_.profile;
  timer.reset();
  co_await RunBatch{1, &timer};
  result.first_iteration_ns = timer.batch_elapsed(result.name);
  result.warm_up_iters = 1;
  clock::ProfileMarkers* markers = profile.markers;
  if (markers) markers->begin_region();
  const std::int64_t began = clock_.now_ns();
  std::uint64_t batch = 1;
  std::uint64_t total = 0;
  double timed = 0.0;
  do {
    timer.reset();
    co_await RunBatch{batch, &timer};
    const double elapsed = timer.batch_elapsed(result.name);
    total += batch;
    timed += elapsed;
    if (elapsed < kProfileBatchNs && batch < (std::uint64_t{1} << 40)) batch *= 2;
  } while (clock_.now_ns() - began < profile.duration_ns);
  if (markers) markers->end_region();
  result.samples.push_back(timer.sample(total, timed));
}

BatchDriver Engine::drive_smoke(BenchmarkResult& result) {
  // --test: one iteration, one sample; the run only shows that the benchmark works.
  SampleTimer timer(clock_, probes_, settings_.input_batch_bytes);
  timer.reset();
  co_await RunBatch{1, &timer};
  const double elapsed = timer.batch_elapsed(result.name);
  result.first_iteration_ns = elapsed;
  result.samples.push_back(timer.sample(1, elapsed));
}

BatchDriver Engine::drive_timed(BenchmarkResult& result) {
  SampleTimer timer(clock_, probes_, settings_.input_batch_bytes);
  const std::int64_t target = sample_target_ns(settings_.time_budget_ns, settings_.min_samples);
  // Below 100 resolutions a reading is too coarse to extrapolate from: grow by 10x instead.
  const double trustworthy_ns = 100.0 * calibration_.resolution_ns;

  // Warm-up: grow the iteration count until one batch reaches the sample target, and keep
  // running at that size until the warm-up time is spent. All of it is discarded.
  std::uint64_t iterations = 1;
  double last_elapsed = 0.0;
  std::uint64_t last_iterations = 1;
  const std::int64_t warm_up_start = clock_.now_ns();
  clock::TracedPhase warming("warm_up");
  // Making inputs outside the timed region can cost far more than the timed work (Divan
  // #80: sample sizes grew without bound). A batch whose wall time is over 10 sample targets
  // stops the growth; the iteration count then follows wall time, and slow_setup says why.
  const double wall_cap = 10.0 * static_cast<double>(target);
  bool capped_by_setup = false;
  double last_wall = 0.0;
  // The times per iteration of the batches that reached the sample's size: the warm-up ends
  // when two agree (warm_up_until_steady), and sample_iterations sizes the samples by them.
  std::vector<double> full_batches;
  for (;;) {
    timer.reset();
    const std::int64_t batch_start = clock_.now_ns();
    co_await RunBatch{iterations, &timer};
    last_elapsed = timer.batch_elapsed(result.name);
    last_wall = static_cast<double>(clock_.now_ns() - batch_start);
    last_iterations = iterations;
    if (!result.first_iteration_ns) result.first_iteration_ns = last_elapsed;
    result.warm_up_iters += iterations;
    result.warm_up_ns += last_elapsed;
    const std::int64_t spent = clock_.now_ns() - warm_up_start;
    capped_by_setup = last_wall > wall_cap && last_wall > 2.0 * last_elapsed;
    const bool long_enough = last_elapsed >= static_cast<double>(target) * 0.9 || capped_by_setup;
    if (!long_enough) {
      const std::uint64_t next =
          next_warm_up_batch({iterations, last_elapsed, last_wall}, static_cast<double>(target),
                             trustworthy_ns, wall_cap);
      if (next == iterations) {
        capped_by_setup = true;
        if (spent >= settings_.warm_up_ns) break;
        continue;
      }
      iterations = next;
      // A benchmark that cannot reach the target within the budget (optimised away, or the
      // clock not moving) stops growing here; the diagnostics flag it.
      if (spent < settings_.time_budget_ns && iterations < 1'000'000'000'000ULL) continue;
      break;
    }
    if (!capped_by_setup) full_batches.push_back(last_elapsed / static_cast<double>(iterations));
    if (spent >= settings_.warm_up_ns) break;
    if (settings_.warm_up_until_steady && !capped_by_setup &&
        steady(full_batches, settings_.steady_warm_up_tolerance)) {
      break;
    }
  }
  // Freeze one iteration count for every sample: flat sampling.
  iterations =
      sample_iterations({last_iterations, last_elapsed, last_wall}, full_batches, capped_by_setup,
                        static_cast<double>(target), wall_cap, iterations);

  // Sampling.
  warming.end();
  const clock::TracedPhase sampling("sampling");
  const std::int64_t sampling_start = clock_.now_ns();
  // Per-iteration times kept sorted as they arrive: the stopping rule reads the median's
  // interval after every sample, and an insertion is linear where a fresh sort is n log n.
  std::vector<double> sorted;
  sorted.reserve(settings_.min_samples * 2);
  const double overhead_per_sample = overhead_.per_sample_ns;
  // The machine's speed just before and just after each sample; the slower reading is the
  // sample's, so a change of speed during the sample marks it slow.
  double probe_before = probes_.speed ? probes_.speed->read_ns() : 0.0;
  for (;;) {
    if (probes_.gate) {
      if (!probes_.gate->next_sample()) break;
      // The other side sampled while this one waited: read the machine's speed afresh.
      if (probes_.speed) probe_before = probes_.speed->read_ns();
    }
    timer.reset();
    const std::int64_t batch_start = clock_.now_ns();
    co_await RunBatch{iterations, &timer};
    const double elapsed = timer.batch_elapsed(result.name);
    result.untimed_ns +=
        std::max(0.0, static_cast<double>(clock_.now_ns() - batch_start) - elapsed);
    result.samples.push_back(timer.sample(iterations, elapsed));
    if (probes_.speed) {
      const double probe_after = probes_.speed->read_ns();
      result.samples.back().probe_ns = std::max(probe_before, probe_after);
      probe_before = probe_after;
    }
    if (probes_.gate) continue;  // the gate decides when sampling ends: no stopping rule
    const double n = static_cast<double>(iterations);
    const double time = std::max(0.0, elapsed - overhead_per_sample) / n;
    sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), time), time);
    const std::size_t count = result.samples.size();
    const std::int64_t spent = clock_.now_ns() - sampling_start;
    if (count >= settings_.max_samples) break;
    if (count >= settings_.min_samples) {
      if (spent >= settings_.time_budget_ns) break;
      if (precise_enough(sorted, settings_.precision)) break;
      continue;
    }
    // Long samples: fewer of them, once they fill min_sampling_ns and the interval is tight.
    if (count >= settings_.fewest_samples && spent >= settings_.min_sampling_ns &&
        precise_enough(sorted, settings_.precision)) {
      break;
    }
    if (std::optional<Diagnostic> few = too_few_samples(settings_, spent, count, elapsed / n)) {
      result.diagnostics.push_back(std::move(*few));
      break;
    }
  }
}

Overhead Engine::calibrate_overhead(clock::Clock& clock) {
  Settings settings;
  Engine engine(clock, clock::Calibration{}, Overhead{}, settings);
  detail::BencherState state;
  BenchmarkResult scratch;
  state.engine = &engine;
  state.result = &scratch;
  SampleTimer timer(clock, engine.probes_, settings.input_batch_bytes);

  auto empty = [] {};
  auto loop = [&empty](std::uint64_t iterations, detail::Timer& t) {
    t.start();
    detail::run_iterations(empty, iterations);
    t.stop();
  };
  auto time_loop = [&](std::uint64_t iterations) {
    timer.reset();
    loop(iterations, timer);
    return timer.elapsed_ns();
  };
  Overhead overhead;
  // Fixed cost of one timed region: the median of 1000 empty regions. The median (not the
  // minimum) because the engine subtracts it from every sample, typical ones included.
  std::vector<double> empty_regions;
  empty_regions.reserve(1000);
  for (int i = 0; i < 1000; ++i) empty_regions.push_back(time_loop(0));
  std::nth_element(empty_regions.begin(), empty_regions.begin() + 500, empty_regions.end());
  overhead.per_sample_ns = empty_regions[500];
  overhead.per_iteration_ns = clock::calibrate_loop_overhead(
      [&](std::uint64_t iterations) { return time_loop(iterations); });
  return overhead;
}

std::optional<double> Engine::calibrate_counted_overhead(clock::Clock& clock,
                                                         clock::CountedRegion& region) {
  Probes probes;
  probes.region = &region;
  SampleTimer timer(clock, probes, Settings{}.input_batch_bytes);
  auto empty = [] {};
  // Three regions, the last one read: the first ones run the code for the first time (which a
  // benchmark's samples never do), and a count does not depend on that, but a lazily bound
  // symbol in the region's path would be.
  std::optional<clock::CountedMetrics> metrics;
  for (int i = 0; i < 3; ++i) {
    timer.reset();
    region.begin_sample();
    timer.start();
    detail::run_iterations(empty, 0);
    timer.stop();
    metrics = region.end_sample("benchkit harness (an empty region)");
    if (!metrics) return std::nullopt;
  }
  return metrics->instructions;
}

}  // namespace benchkit::measure

namespace benchkit {

namespace detail {

namespace {
std::coroutine_handle<measure::BatchDriver::promise_type> driver_handle(void* address) {
  return std::coroutine_handle<measure::BatchDriver::promise_type>::from_address(address);
}
}  // namespace

Batches::Batches(BencherState& state) : driver_(state.engine->drive(state).handle.address()) {}

Batches::~Batches() {
  driver_handle(driver_).destroy();
}

std::uint64_t Batches::next() {
  const auto handle = driver_handle(driver_);
  timer_ = nullptr;
  if (handle.done()) return 0;
  handle.promise().requested = 0;
  handle.resume();
  measure::ThreadGroup* const group = handle.promise().leader_of;
  if (handle.done()) {
    if (std::exception_ptr error = std::exchange(handle.promise().error, nullptr)) {
      std::rethrow_exception(error);  // the leader's thread aborts the group with it
    }
    if (group) group->finish();
    return 0;
  }
  if (group) group->publish(handle.promise().requested);
  timer_ = handle.promise().timer;
  return handle.promise().requested;
}

}  // namespace detail

void Bencher::run(detail::Routine routine) {
  state_->engine->run_routine(routine, *state_);
}

Bencher& Bencher::throughput_bytes(std::uint64_t bytes_per_iteration) {
  state_->result->bytes_per_iteration = bytes_per_iteration;
  return *this;
}

Bencher& Bencher::throughput_items(std::uint64_t items_per_iteration) {
  state_->result->items_per_iteration = items_per_iteration;
  return *this;
}

Bencher& Bencher::counter(std::string_view name, double value) {
  return counter(name, value, counter::plain);
}

Bencher& Bencher::counter(std::string_view name, double value, counter::Kind kind) {
  BenchmarkResult& result = *state_->result;
  const std::string key(name);
  result.counters[key] = value;
  if (kind == counter::plain) {
    result.counter_kinds.erase(key);
  } else {
    result.counter_kinds[key] = kind;
  }
  return *this;
}

Bencher& Bencher::label(std::string_view text) {
  state_->result->label = std::string(text);
  return *this;
}

const std::string& Bencher::name() const {
  return state_->result->name;
}

std::size_t Bencher::thread_index() const {
  return state_->thread_index;
}

std::size_t Bencher::threads() const {
  return state_->group ? state_->group->threads() : 1;
}

}  // namespace benchkit
