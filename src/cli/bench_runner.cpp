#include "cli/bench_runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <thread>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "benchkit_build_info.hpp"
#include "clock/perf_counters.hpp"
#include "measure/usage.hpp"
#include "system/checks.hpp"
#include "system/context.hpp"
#include "system/fingerprint.hpp"
#include "system/machine_files.hpp"
#include "system/machine_warnings.hpp"
#include "vcs/git.hpp"

namespace benchkit::cli {

const ProcessClock& process_clock() {
  static const ProcessClock instance = [] {
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
  std::regex expression;
  try {
    expression = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw std::invalid_argument(fmt::format(
        "--filter \"{}\" is not a valid regular expression ({}); escape special characters "
        "such as < > ( ) with a backslash, or use --exact NAME",
        pattern, error.what()));
  }
  for (const auto& instance : instances) {
    if (std::regex_search(instance.name, expression)) chosen.push_back(instance);
  }
  return chosen;
}

measure::Settings settings_for(const RunSettings& run, const BenchSettings& own) {
  measure::Settings settings = run.engine;
  if (own.sample_size) settings.min_samples = *own.sample_size;
  if (own.time_budget) settings.time_budget_ns = own.time_budget->count();
  if (own.warm_up) settings.warm_up_ns = own.warm_up->count();
  return settings;
}

measure::Probes process_probes() {
  measure::Probes probes;
  probes.memory = &measure::process_memory();
  probes.allocations = measure::allocation_reader();
  probes.thread_usage = &measure::thread_usage();
  return probes;
}

BenchmarkResult run_one(const RunSettings& settings, const std::string& name,
                        const std::function<void(Bencher&)>& body, measure::Probes probes) {
  const ProcessClock& clock = process_clock();
  measure::Engine engine(*clock.clock, clock.calibration, clock.overhead, settings.engine, probes);
  BenchmarkResult result = engine.measure(name, body);
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
  Context context = system::collect_context();
  vcs::record(vcs::git_facts("."), context);
  context.tool_version = build_info::version;
  context.library_flags = build_info::library_flags;
  context.seed = settings.seed;
  context.clock["name"] = std::string(clock.clock->name());
  context.clock["resolution_ns"] = fmt::format("{}", clock.calibration.resolution_ns);
  context.clock["read_cost_ns"] = fmt::format("{}", clock.calibration.read_cost_ns);
  context.clock["overhead_ns_per_sample"] = fmt::format("{:.2f}", clock.overhead.per_sample_ns);
  context.tags = settings.tags;
  const system::RootedMachineFiles files("/");
  const std::vector<system::Check> checks = system::run_checks(files);
  context.checks = system::check_summary(checks);
  context.machine = system::machine_facts(files);
  // Printed once per run (in the table's footer), never per benchmark.
  if (settings.machine_warnings && !system::machine_warnings_silenced_by_environment()) {
    for (Diagnostic& warning : system::to_diagnostics(system::machine_warnings(checks))) {
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
                     "slow). The run stops here; no result of it is written.\n",
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

RunResult run_instances(const RunSettings& settings, const std::vector<measure::Instance>& chosen,
                        const Progress& progress, std::size_t& failures) {
  const ProcessClock& clock = process_clock();
  RunResult run;
  run.context = base_context(settings, clock);

  std::unique_ptr<clock::CounterGroup> counters;
  if (settings.counters && !settings.engine.test_mode) {
    counters = clock::open_hardware_counters();
    if (!counters->available()) {
      run.context.warnings.push_back(
          Diagnostic{"counters_unavailable", "info", counters->unavailable_reason()});
      counters.reset();
    }
  }
  measure::Probes probes = process_probes();
  probes.counters = counters.get();
  std::unique_ptr<measure::SpeedProbe> speed;
  if (!settings.engine.test_mode) {
    speed = measure::make_reference_probe(*clock.clock);
    probes.speed = speed.get();
  }
  probes.gate = settings.engine.test_mode ? nullptr : settings.gate;

  // Build facts come from the translation units that registered the benchmarks.
  std::set<std::string> unoptimised;
  for (const measure::Instance& instance : chosen) {
    const detail::BuildFacts& facts = instance.registration->build_facts();
    run.context.compiler = facts.compiler;
    run.context.build_type = facts.build_type;
    run.context.compile_flags = facts.flags;
    if (!facts.optimized) {
      run.context.optimized = false;
      unoptimised.insert(instance.registration->file());
    }
    if (facts.assertions) run.context.assertions = true;
  }
  if (!unoptimised.empty()) {
    run.context.warnings.push_back(Diagnostic{
        "debug_build", "warning",
        fmt::format(
            "benchmarks in {} were compiled without optimisation: timings of a debug build say "
            "little about release performance; build with -O2 (CMAKE_BUILD_TYPE=Release)",
            *unoptimised.begin())});
  }

  failures = 0;
  Watchdog watchdog(settings.timeout_ns);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const measure::Instance& instance = chosen[i];
    if (progress.started) progress.started(i, chosen.size(), instance.name);
    watchdog.arm(instance.name);
    struct Disarm {
      Watchdog& watchdog;
      ~Disarm() { watchdog.disarm(); }
    } disarm{watchdog};
    RunSettings own = settings;
    own.engine = settings_for(settings, instance.registration->settings());
    try {
      if (instance.is_scenario()) {
        auto body = [&instance](Scenario& scenario) {
          instance.variant->scenario_invoker(instance.variant->function, scenario, instance.values);
        };
        for (BenchmarkResult& phase : run_scenario(settings, instance.name, body)) {
          phase.params = instance.params;
          run.benchmarks.push_back(std::move(phase));
        }
        continue;
      }
      auto body = [&instance](Bencher& bencher) {
        instance.variant->invoker(instance.variant->function, bencher, instance.values);
      };
      BenchmarkResult result = run_one(own, instance.name, body, probes);
      result.params = instance.params;
      run.benchmarks.push_back(std::move(result));
    } catch (const std::exception& error) {
      ++failures;
      if (progress.failed) progress.failed(instance.name, error.what());
    }
  }
  run.context.process_peak_rss_bytes = measure::process_memory().lifetime_peak_rss_bytes();
  analysis::note_machine_speed(run);
  return run;
}

std::string context_differences(const Context& baseline, const Context& candidate) {
  return system::describe_differences(
      system::compare_contexts(baseline, candidate, baseline.machine, candidate.machine));
}

}  // namespace benchkit::cli
