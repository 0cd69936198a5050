// Running benchmarks from code (Bench) and the bench binary's main (run_main): for a custom main,
// a test or a notebook-style driver. Registering benchmarks is benchkit/registry.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "benchkit/bencher.hpp"
#include "benchkit/duration.hpp"
#include "benchkit/function_ref.hpp"
#include "benchkit/registry.hpp"
#include "benchkit/result.hpp"

namespace benchkit {

class Scenario;  // benchkit/scenario.hpp

// Runs benchmarks from code: a custom main, a test, a notebook-style driver.
class Bench {
 public:
  Bench();
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;
  // A moved-from Bench may only be destroyed or assigned to.
  Bench(Bench&& other) noexcept;
  Bench& operator=(Bench&& other) noexcept;

  // Minimum samples before the precision rule may stop. Default 30: enough for the
  // order-statistic CI of the median to be meaningful and for rank tests to have power.
  Bench& sample_size(std::size_t samples);
  std::size_t sample_size() const;
  // Sampling budget per benchmark, a std::chrono duration: time_budget(std::chrono::seconds(2)).
  // Default 1 s: suites stay fast; raise for precision. The getter gives it in nanoseconds
  // (this header does without <chrono>: std::chrono::nanoseconds(bench.time_budget())).
  template <detail::ChronoDuration Duration>
  Bench& time_budget(const Duration& budget) {
    return set_time_budget_ns(detail::to_nanoseconds(budget));
  }
  std::int64_t time_budget() const;
  // Warm-up per benchmark, a std::chrono duration. Default 50 ms, enough for caches, branch
  // predictors and lazy initialisation; raise it for code that JITs, fills large caches or ramps
  // frequency. The getter gives it in nanoseconds.
  template <detail::ChronoDuration Duration>
  Bench& warm_up(const Duration& duration) {
    return set_warm_up_ns(detail::to_nanoseconds(duration));
  }
  std::int64_t warm_up() const;
  // Target half-width of the median's 95% CI, relative to the median. Default 0.01 (±1%).
  Bench& precision(double relative_half_width);
  double precision() const;
  // Seed recorded in the result and handed to random choices benchkit makes. Default 0.
  Bench& seed(std::uint64_t value);
  std::uint64_t seed() const;
  // Smoke mode: every benchmark runs one iteration, every scenario once, no statistics.
  // Default off.
  Bench& test_mode(bool enabled);
  bool test_mode() const;
  // Times each scenario runs in this process, set-up included; each run is one sample of each
  // phase. Default 1 (a scenario is often long); raise it, or run several processes, for an
  // interval. Micro benchmarks ignore it.
  Bench& repetitions(std::size_t count);
  std::size_t repetitions() const;
  // Tags whose benchmarks are left out, as a bench binary's --skip-tag: a benchmark with a
  // skip_when rule of one of these tags (Registration::skip_when for registered ones, the
  // `skip_when` argument of run and run_scenario) does not run, and its result is a skipped
  // entry (`skipped` holds the rule's tag and reason, no samples). Default none: a CI driver
  // sets {"ci"}, so that local runs still measure every benchmark.
  Bench& skip_tags(std::vector<std::string> tags);
  const std::vector<std::string>& skip_tags() const;

  // Measures one benchmark given as a callable taking Bencher& (a lambda, a function, a
  // std::function), called before run returns and not kept.
  BenchmarkResult run(std::string name, detail::FunctionRef<void(Bencher&)> body);
  // The same, kept out of runs whose skip_tags() hold one of the rules' tags (as
  // Registration::skip_when: each rule a tag, a word, and a reason that is not empty, else
  // std::invalid_argument): then `body` is not called and the result is the skipped entry.
  BenchmarkResult run(std::string name, detail::FunctionRef<void(Bencher&)> body,
                      const std::vector<SkipRule>& skip_when);
  // Runs one scenario given as a callable taking Scenario&, `repetitions()` times: one result
  // per phase (named "name/phase"), in the order the phases ran. A failed verify puts its
  // message in every phase's `failures`; an exception propagates, naming the scenario.
  std::vector<BenchmarkResult> run_scenario(std::string name,
                                            detail::FunctionRef<void(Scenario&)> body);
  // The same with skip rules, as run's: when skipped, one skipped entry named `name`.
  std::vector<BenchmarkResult> run_scenario(std::string name,
                                            detail::FunctionRef<void(Scenario&)> body,
                                            const std::vector<SkipRule>& skip_when);
  // Measures the registered benchmarks and scenarios whose full name matches `filter`
  // (ECMAScript regex, searched anywhere in the name; empty matches all), with the run's context
  // filled in. Those skipped by skip_tags() come last, as skipped entries.
  RunResult run_registered(const std::string& filter = {});

  struct Impl;

 private:
  // time_budget and warm_up in nanoseconds: compiled once, in the library.
  Bench& set_time_budget_ns(std::int64_t budget);
  Bench& set_warm_up_ns(std::int64_t duration);

  Impl* impl_;  // owned: made by the constructors, deleted by the destructor
};

// The bench binary's main: parses the standard flags (see --help) and runs the registered
// benchmarks. benchkit::main calls it; a custom main may too.
int run_main(int argc, char** argv);

}  // namespace benchkit
