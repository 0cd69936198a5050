// Scenarios: one-shot macro benchmarks of a whole pipeline, with timed phases, throughput,
// resources per phase and integrity checks (BENCHKIT_SCENARIO).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "benchkit/bencher.hpp"
#include "benchkit/counter.hpp"
#include "benchkit/registry.hpp"

namespace benchkit {

namespace detail {

struct ScenarioState;

// A phase's code, type-erased: run(object) calls it once.
struct PhaseBody {
  void* object = nullptr;
  void (*run)(void* object) = nullptr;
};

}  // namespace detail

// The handle a scenario function receives. The function's own code is set-up and is not timed
// (generating data, opening files); each phase(...) is timed once, in the order written.
class Scenario {
 public:
  // The work one phase does, for throughput: items/s and MiB/s in the report. Either may be
  // left out; a negative count is refused. (The default member initialisers keep GCC's
  // -Wmissing-field-initializers quiet about {.items = n}.)
  struct Work {
    std::optional<std::int64_t> items{};
    std::optional<std::int64_t> bytes{};
  };

  explicit Scenario(detail::ScenarioState& state) : state_(&state) {}
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  // Times `f()` once as the phase `name` (non-empty, without '/' or '='; unique within the
  // scenario): wall time, user and system CPU time of the whole process (all threads), peak
  // RSS during the phase, RSS change and page faults. What f returns is black-boxed.
  template <class F>
  Scenario& phase(std::string_view name, Work work, F&& f) {
    auto call = [&f] { detail::run_iterations(f, 1); };
    run_phase(name, work, detail::PhaseBody{&call, &call_once<decltype(call)>});
    return *this;
  }
  template <class F>
  Scenario& phase(std::string_view name, F&& f) {
    return phase(name, Work{}, std::forward<F>(f));
  }

  // Checks what must hold (every item read back, in order). When `condition` is false the
  // whole scenario run is invalid: the message, with the phase that preceded the check, is
  // reported on every phase, the run is kept out of comparisons and the binary exits with
  // status 1. The scenario goes on (return early on false when later phases cannot run).
  bool verify(bool condition, std::string_view what);

  // A named value reported with every phase of the scenario (compression ratio, segments).
  // Set in several repetitions, the mean is reported.
  Scenario& counter(std::string_view name, double value);
  // The same with a kind (counter.hpp) that needs no time: counter::base_1024 (sizes shown with
  // Ki, Mi, Gi) or counter::invert. A rate needs the time of one phase: phase_counter below.
  // Other kinds, or a kind that differs from the one this counter was given before, throw
  // std::invalid_argument.
  //   s.counter("index_bytes", double(index.size()), benchkit::counter::base_1024);
  Scenario& counter(std::string_view name, double value, counter::Kind kind);

  // A named value reported with one phase only (set before or after that phase runs; the
  // phase must run in this repetition or another), with a kind: counter::rate
  // divides by that phase's measured time (its median over the runs), as Work does for items
  // and bytes — for a second quantity of the phase's work ("pages/s" beside the rows/s of
  // Work{.items}); counter::base_1024 and counter::invert as above. Set in several
  // repetitions, the mean is reported. A name used by counter() too, per_iteration or
  // per_thread (a phase runs once per repetition, on one thread), or a phase that never ran
  // throws.
  //   s.phase_counter("load", "pages", double(pages_read), benchkit::counter::rate);
  Scenario& phase_counter(std::string_view phase, std::string_view name, double value,
                          counter::Kind kind = counter::plain);

  // An exact count of the work done (rows read, records written, batches) that must be the
  // same in every run: every repetition and every process of this scenario and, when `input`
  // is given (the data file read, or any key), every scenario that reports a count of this name
  // for the same input — several batch sizes or modes reading one corpus must all count its
  // rows alike. A run whose count disagrees is invalid (named with the values seen) and kept out
  // of comparisons. Reported with the phases, never averaged.
  //   s.exact_count("rows", rows_read, path);
  Scenario& exact_count(std::string_view name, std::uint64_t value, std::string_view input = {});

  // The scenario's full name, e.g. "scaling/payload=text/items=1000000".
  const std::string& name() const;
  // Which repetition this is, from 0 (--repetitions runs the whole function again, set-up
  // included).
  std::size_t repetition() const;

 private:
  template <class Call>
  static void call_once(void* object) {
    (*static_cast<Call*>(object))();
  }
  void run_phase(std::string_view name, const Work& work, detail::PhaseBody body);

  detail::ScenarioState* state_;
};

}  // namespace benchkit

// BENCHKIT_SCENARIO(fn): fn is `void fn(benchkit::Scenario&, P1, P2, ...)`, one P per
// .param(...). Each parameter combination is a scenario named "fn/key=value/..." and each of
// its phases a result named "fn/key=value/.../phase".
#define BENCHKIT_SCENARIO(fn)                                                                  \
  [[maybe_unused]] static ::benchkit::Registration& BENCHKIT_CONCAT(benchkit_reg_, __LINE__) = \
      ::benchkit::register_benchmark(#fn, __FILE__, __LINE__,                                  \
                                     ::benchkit::detail::this_build_facts())                   \
          .add_scenario(&fn)
