#include "session/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "benchkit_build_info.hpp"
#include "clock/perf_counters.hpp"
#include "clock/phase_trace.hpp"
#include "formats/result_json.hpp"
#include "measure/usage.hpp"
#include "process/worker_protocol.hpp"
#include "session/name_filter.hpp"
#include "store/input_files.hpp"
#include "system/checks.hpp"
#include "system/context.hpp"
#include "system/fingerprint.hpp"
#include "system/machine_files.hpp"
#include "system/machine_warnings.hpp"
#include "vcs/git.hpp"

namespace benchkit::session {

const ProcessClock& process_clock() {
  static const ProcessClock instance = [] {
    const clock::TracedPhase traced("calibrate");
    ProcessClock result;
    result.clock = &clock::steady_clock();
    result.calibration = clock::calibrate_clock(*result.clock);
    result.overhead = measure::Engine::calibrate_overhead(*result.clock);
    return result;
  }();
  return instance;
}

std::vector<measure::Instance> select(const std::vector<measure::Instance>& instances,
                                      const std::string& pattern, bool exact) {
  std::vector<measure::Instance> chosen;
  if (pattern.empty()) return instances;
  if (exact) {
    for (const auto& instance : instances) {
      if (instance.name == pattern) chosen.push_back(instance);
    }
    return chosen;
  }
  const auto filter = parse_name_filter(pattern, "--filter");
  if (!filter) throw std::invalid_argument(filter.error().message + ", or use --exact NAME");
  for (const auto& instance : instances) {
    if (!*filter || (*filter)->keeps(instance.name)) chosen.push_back(instance);
  }
  return chosen;
}

measure::Settings settings_for(const RunSettings& run, const BenchSettings& own) {
  measure::Settings settings = run.engine;
  if (own.sample_size) settings.choose_sample_size(*own.sample_size);
  if (own.time_budget_ns) settings.time_budget_ns = *own.time_budget_ns;
  if (own.warm_up_ns) settings.choose_warm_up(*own.warm_up_ns);
  return settings;
}

measure::Probes process_probes() {
  measure::Probes probes;
  probes.memory = &measure::process_memory();
  probes.allocations = measure::allocation_reader();
  probes.thread_usage = &measure::thread_usage();
  return probes;
}

namespace {

// The harness's instructions in every counted sample, measured once per process (the region
// is the process's one callgrind region).
double counted_overhead(clock::CountedRegion& region) {
  static const std::optional<double> overhead =
      measure::Engine::calibrate_counted_overhead(clock::steady_clock(), region);
  if (!overhead) {
    throw std::runtime_error("cannot read the harness's instruction count: " + region.error());
  }
  return *overhead;
}

// A micro benchmark counted under callgrind: no clock calibration (the clock is not read, and
// calibrating under valgrind would take seconds), the harness's count as the overhead.
BenchmarkResult count_one(const RunSettings& settings, const std::string& name,
                          const std::function<void(Bencher&)>& body, measure::Probes probes,
                          std::size_t threads) {
  measure::Overhead overhead;
  overhead.per_sample_ns = counted_overhead(*probes.region);
  measure::Engine engine(clock::steady_clock(), clock::Calibration{}, overhead, settings.engine,
                         probes);
  BenchmarkResult result = engine.measure(name, body, threads);  // refuses threads > 1
  result.metric = "instructions";
  analysis::compute_estimates(result);
  if (!settings.engine.test_mode) analysis::diagnose_counted(result);
  return result;
}

}  // namespace

BenchmarkResult run_one(const RunSettings& settings, const std::string& name,
                        const std::function<void(Bencher&)>& body, measure::Probes probes,
                        std::size_t threads) {
  if (probes.region) return count_one(settings, name, body, probes, threads);
  const ProcessClock& clock = process_clock();
  measure::Engine engine(*clock.clock, clock.calibration, clock.overhead, settings.engine, probes);
  BenchmarkResult result = engine.measure(name, body, threads);
  analysis::compute_estimates(result);
  if (!settings.engine.test_mode) {
    analysis::diagnose(result, analysis::ClockFacts{clock.calibration.resolution_ns,
                                                    clock.overhead.per_iteration_ns});
  }
  return result;
}

std::vector<BenchmarkResult> run_scenario(const RunSettings& settings, const std::string& name,
                                          const std::function<void(Scenario&)>& body) {
  measure::ScenarioSettings scenario_settings;
  scenario_settings.repetitions = settings.engine.test_mode ? 1 : settings.repetitions;
  const measure::ScenarioProbes probes{&measure::process_memory(), &measure::process_usage()};
  std::vector<BenchmarkResult> phases =
      measure::run_scenario(*process_clock().clock, scenario_settings, probes, name, body);
  // No diagnostics: they read the shape of many samples, and a phase has one per repetition.
  for (BenchmarkResult& phase : phases) analysis::compute_estimates(phase);
  return phases;
}

namespace {

Context base_context(const RunSettings& settings, const ProcessClock& clock) {
  Context context;
  if (!settings.measuring_only) {
    context = system::collect_context();
    vcs::record(vcs::git_facts("."), context);
  }
  context.tool_version = build_info::version;
  context.library_flags = build_info::library_flags;
  context.seed = settings.seed;
  context.clock["name"] = std::string(clock.clock->name());
  context.clock["resolution_ns"] = fmt::format("{}", clock.calibration.resolution_ns);
  context.clock["read_cost_ns"] = fmt::format("{}", clock.calibration.read_cost_ns);
  context.clock["overhead_ns_per_sample"] = fmt::format("{:.2f}", clock.overhead.per_sample_ns);
  context.tags = settings.tags;
  if (settings.measuring_only) {
    context.clock["loop_overhead_ns_per_iter"] =
        fmt::format("{:.3f}", clock.overhead.per_iteration_ns);
    return context;
  }
  context.command_line = settings.command_line;
  const system::RootedMachineFiles files("/");
  const std::vector<system::Check> checks = system::run_checks(files);
  context.checks = system::check_summary(checks);
  context.machine = system::machine_facts(files);
  // Printed once per run (in the table's footer), never per benchmark.
  if (settings.machine_warnings) {
    for (Diagnostic& warning : system::machine_warnings_unless_silenced(checks)) {
      context.warnings.push_back(std::move(warning));
    }
  }
  context.clock["loop_overhead_ns_per_iter"] =
      fmt::format("{:.3f}", clock.overhead.per_iteration_ns);
  return context;
}

}  // namespace

namespace {

std::string seconds(std::int64_t ns) {
  return fmt::format("{:g} s", static_cast<double>(ns) / 1e9);
}

// Ends the process with a message when one benchmark runs longer than the timeout: a benchmark
// that hangs would otherwise hang the run (and a CI job with it) without a word of which one.
// The thread sleeps until a deadline or a change, so it takes nothing from the measurements.
class Watchdog {
 public:
  explicit Watchdog(std::int64_t timeout_ns) : timeout_ns_(timeout_ns) {
    if (timeout_ns_ > 0) thread_ = std::thread([this] { watch(); });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(const std::string& name) {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      name_ = name;
      deadline_ = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns_);
    }
    changed_.notify_one();
  }
  void disarm() {
    if (!thread_.joinable()) return;
    std::lock_guard lock(mutex_);
    deadline_.reset();
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      if (!deadline_) {
        changed_.wait(lock);
        continue;
      }
      const auto deadline = *deadline_;
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && deadline_ &&
          *deadline_ == deadline && !stop_) {
        std::fprintf(stderr,
                     "\nerror: %s did not finish within %s: it hangs, or its set-up or one of "
                     "its iterations takes longer than that (raise --timeout if it is only "
                     "slow). Running in one process (--in-process), the run stops here; what "
                     "finished before it is kept in --out.\n",
                     name_.c_str(), seconds(timeout_ns_).c_str());
        std::fflush(stderr);
        std::_Exit(1);
      }
    }
  }

  std::int64_t timeout_ns_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::string name_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

Context run_context(const RunSettings& settings, const std::vector<measure::Instance>& chosen) {
  Context context = base_context(settings, process_clock());
  if (settings.counters && !settings.engine.test_mode) {
    const auto counters = clock::open_hardware_counters();
    if (!counters->available()) {
      context.warnings.push_back(
          Diagnostic{"counters_unavailable", "info", counters->unavailable_reason()});
    }
  }
  // Build facts come from the translation units that registered the benchmarks.
  std::set<std::string> unoptimised;
  for (const measure::Instance& instance : chosen) {
    const detail::BuildFacts& facts = instance.registration->build_facts();
    context.compiler = facts.compiler;
    context.build_type = facts.build_type;
    context.compile_flags = facts.flags;
    if (!facts.optimized) {
      context.optimized = false;
      unoptimised.insert(instance.registration->file());
    }
    if (facts.assertions) context.assertions = true;
  }
  if (!unoptimised.empty()) {
    context.warnings.push_back(Diagnostic{
        "debug_build", "warning",
        fmt::format(
            "benchmarks in {} were compiled without optimisation: timings of a debug build say "
            "little about release performance; build with -O2 (CMAKE_BUILD_TYPE=Release)",
            *unoptimised.begin())});
  }
  return context;
}

MeasuringProbes::MeasuringProbes(const RunSettings& settings) : probes(process_probes()) {
  if (!settings.callgrind_dumps.empty()) {
    // Counted: nothing that reads the clock or the kernel around the region.
    region = clock::callgrind_region(settings.callgrind_dumps);
    probes.region = region.get();
    probes.thread_usage = nullptr;
    return;
  }
  if (settings.counters && !settings.engine.test_mode) {
    counters = clock::open_hardware_counters();
    if (!counters->available()) counters.reset();
  }
  probes.counters = counters.get();
  if (!settings.engine.test_mode) {
    const ProcessClock& measuring_clock = process_clock();
    const clock::TracedPhase traced("speed_probe");
    speed = measure::make_reference_probe(*measuring_clock.clock);
    probes.speed = speed.get();
  }
  probes.gate = settings.engine.test_mode ? nullptr : settings.gate;
}

MeasuringProbes::~MeasuringProbes() = default;

std::vector<BenchmarkResult> run_instance(const RunSettings& settings,
                                          const measure::Instance& instance,
                                          const measure::Probes& probes) {
  std::vector<BenchmarkResult> results;
  const std::size_t inputs_before = store::checked_input_count();
  if (instance.is_scenario()) {
    auto body = [&instance](Scenario& scenario) {
      instance.variant->scenario_invoker(instance.variant->function, scenario, instance.values);
    };
    results = run_scenario(settings, instance.name, body);
  } else {
    RunSettings own = settings;
    own.engine = settings_for(settings, instance.registration->settings());
    auto body = [&instance](Bencher& bencher) {
      instance.variant->invoker(instance.variant->function, bencher, instance.values);
    };
    results.push_back(run_one(own, instance.name, body, probes, instance.threads));
  }
  // The data files it checked (benchkit::data::input_file), once each: a scenario checks
  // them in every repetition.
  std::vector<InputFile> inputs;
  for (InputFile& input : store::checked_inputs(inputs_before)) {
    const bool seen = std::any_of(inputs.begin(), inputs.end(),
                                  [&](const InputFile& known) { return known.path == input.path; });
    if (!seen) inputs.push_back(std::move(input));
  }
  for (BenchmarkResult& result : results) {
    result.params = instance.params;
    result.inputs = inputs;
    if (!instance.is_scenario()) result.complexity = measure::complexity_point(instance);
  }
  return results;
}

void gather_inputs(RunResult& run) {
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    for (const InputFile& input : benchmark.inputs) {
      const bool seen =
          std::any_of(run.context.inputs.begin(), run.context.inputs.end(),
                      [&](const InputFile& known) { return known.path == input.path; });
      if (!seen) run.context.inputs.push_back(input);
    }
  }
}

namespace {

BenchmarkResult threw(const measure::Instance& instance, const std::string& what) {
  BenchmarkResult failed;
  failed.name = instance.name;
  failed.kind = instance.is_scenario() ? "scenario" : "micro";
  failed.params = instance.params;
  if (!instance.is_scenario()) failed.complexity = measure::complexity_point(instance);
  failed.failures.push_back(what);
  failed.failure = Failure{Failure::Cause::threw, {}, {}, {}};
  return failed;
}

std::vector<BenchmarkResult> run_or_record(const RunSettings& settings,
                                           const measure::Instance& instance,
                                           const measure::Probes& probes, bool& failed) {
  failed = false;
  try {
    return run_instance(settings, instance, probes);
  } catch (const std::exception& error) {
    failed = true;
    return {threw(instance, error.what())};
  } catch (...) {
    failed = true;
    return {threw(instance, "an exception that is not a std::exception")};
  }
}

}  // namespace

void serve(const RunSettings& settings, const std::vector<measure::Instance>& chosen,
           const std::vector<std::size_t>& indices, int fd) {
  namespace worker = process::worker;
  MeasuringProbes measuring(settings);
  for (const std::size_t index : indices) {
    if (index >= chosen.size()) continue;
    const measure::Instance& instance = chosen[index];
    if (!worker::send(fd, worker::FrameKind::started, instance.name)) return;
    bool failed = false;  // sent as a failed result: the supervisor says so
    RunResult sent;
    sent.benchmarks = run_or_record(settings, instance, measuring.probes, failed);
    // Compact and without a tree of the whole result: the worker holds its samples once and
    // their text once.
    std::ostringstream text;
    formats::write_json(sent, text, formats::Layout::compact);
    if (!worker::send(fd, worker::FrameKind::finished, std::move(text).str())) return;
  }
  worker::send(fd, worker::FrameKind::fact,
               fmt::format("peak_rss_bytes={}",
                           measure::process_memory().lifetime_peak_rss_bytes().value_or(0)));
}

model::Result<std::vector<BenchmarkResult>> decode_served(const std::string& text) {
  auto parsed = formats::from_json(text, "a worker's result");
  if (!parsed) return parsed.error();
  return std::move(parsed->run.benchmarks);
}

RunResult run_instances(const RunSettings& settings, const std::vector<measure::Instance>& chosen,
                        const Progress& progress, std::size_t& failures) {
  RunResult run;
  run.context = run_context(settings, chosen);
  MeasuringProbes measuring(settings);
  failures = 0;
  Watchdog watchdog(settings.timeout_ns);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const measure::Instance& instance = chosen[i];
    if (progress.started) progress.started(i, chosen.size(), instance.name);
    watchdog.arm(instance.name);
    bool failed = false;
    std::vector<BenchmarkResult> results =
        run_or_record(settings, instance, measuring.probes, failed);
    watchdog.disarm();
    if (failed) {
      ++failures;
      if (progress.failed) progress.failed(instance.name, results.front().failures.front());
    }
    for (BenchmarkResult& result : results) run.benchmarks.push_back(std::move(result));
    if (progress.measured) progress.measured(run);
  }
  run.context.process_peak_rss_bytes = measure::process_memory().lifetime_peak_rss_bytes();
  analysis::note_machine_speed(run);
  gather_inputs(run);
  return run;
}

std::string context_differences(const Context& baseline, const Context& candidate) {
  return system::describe_differences(
      system::compare_contexts(baseline, candidate, baseline.machine, candidate.machine));
}

}  // namespace benchkit::session
