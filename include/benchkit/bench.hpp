// Running benchmarks from code (Bench) and the bench binary's main (run_main): for a custom main,
// a test or a notebook-style driver. Registering benchmarks is benchkit/registry.hpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "benchkit/bencher.hpp"
#include "benchkit/result.hpp"

namespace benchkit {

class Scenario;  // benchkit/scenario.hpp

// Runs benchmarks from code: a custom main, a test, a notebook-style driver.
class Bench {
 public:
  Bench();
  ~Bench();
  Bench(Bench&&) noexcept;
  Bench& operator=(Bench&&) noexcept;

  // Minimum samples before the precision rule may stop. Default 30: enough for the
  // order-statistic CI of the median to be meaningful and for rank tests to have power.
  Bench& sample_size(std::size_t samples);
  std::size_t sample_size() const;
  // Sampling budget per benchmark. Default 1 s: suites stay fast; raise for precision.
  Bench& time_budget(std::chrono::nanoseconds budget);
  std::chrono::nanoseconds time_budget() const;
  // Warm-up per benchmark. Default 50 ms, enough for caches, branch predictors and lazy
  // initialisation; raise it for code that JITs, fills large caches or ramps frequency.
  Bench& warm_up(std::chrono::nanoseconds duration);
  std::chrono::nanoseconds warm_up() const;
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

  // Measures one benchmark given as a callable taking Bencher&.
  BenchmarkResult run(std::string name, const std::function<void(Bencher&)>& body);
  // Runs one scenario given as a callable taking Scenario&, `repetitions()` times: one result
  // per phase (named "name/phase"), in the order the phases ran. A failed verify puts its
  // message in every phase's `failures`; an exception propagates, naming the scenario.
  std::vector<BenchmarkResult> run_scenario(std::string name,
                                            const std::function<void(Scenario&)>& body);
  // Measures the registered benchmarks and scenarios whose full name matches `filter`
  // (ECMAScript regex, searched anywhere in the name; empty matches all), with the run's context
  // filled in.
  RunResult run_registered(const std::string& filter = {});

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The bench binary's main: parses the standard flags (see --help) and runs the registered
// benchmarks. benchkit::main calls it; a custom main may too.
int run_main(int argc, char** argv);

}  // namespace benchkit
