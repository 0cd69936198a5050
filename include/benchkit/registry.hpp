// Registering benchmarks (BENCHKIT, BENCHKIT_TEMPLATE, BENCHKIT_SCENARIO). Running them from code
// (Bench, run_main) is benchkit/bench.hpp: a file that only registers includes less.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "benchkit/bencher.hpp"
#include "benchkit/duration.hpp"

namespace benchkit {

class Scenario;  // benchkit/scenario.hpp

// One value of a benchmark parameter: an integer, a floating-point number or a string.
class ParamValue {
 public:
  template <class T>
  requires std::is_integral_v<T> ParamValue(T value)
      : value_(static_cast<std::int64_t>(value)) {}  // NOLINT: implicit on purpose
  template <class T>
  requires std::is_floating_point_v<T> ParamValue(T value)
      : value_(static_cast<double>(value)) {}                    // NOLINT
  ParamValue(const char* value) : value_(std::string(value)) {}  // NOLINT
  ParamValue(std::string value) : value_(std::move(value)) {}    // NOLINT

  // Converts to the parameter type of the benchmark function; throws std::invalid_argument
  // when the value does not fit the type (a string given for an integer parameter).
  template <class T>
  T as() const {
    using U = std::remove_cvref_t<T>;
    if constexpr (std::is_integral_v<U>) {
      return static_cast<U>(as_int());
    } else if constexpr (std::is_floating_point_v<U>) {
      return static_cast<U>(as_double());
    } else if constexpr (std::is_enum_v<U>) {
      return static_cast<U>(as_int());
    } else {
      return U(as_string());
    }
  }

  std::int64_t as_int() const;
  double as_double() const;
  const std::string& as_string() const;
  // How the value appears in a benchmark name: 64, 0.5, text.
  std::string to_string() const;

 private:
  std::variant<std::int64_t, double, std::string> value_;
};

// A reason to leave a benchmark out of runs given --skip-tag TAG (Registration::skip_when).
struct SkipRule {
  std::string tag;
  std::string reason;
};

// The class a complexity sweep reports (Registration::complexity); `automatic` chooses the one the
// data support best. The names follow Google Benchmark's oAuto, o1, oLogN, oN, oNLogN,
// oNSquared, oNCubed.
enum class Complexity { automatic, constant, log_n, n, n_log_n, n_squared, n_cubed };

// What Registration::complexity recorded: the class (or the user's function) and the size
// parameter, empty for the registration's only parameter.
struct ComplexitySetting {
  Complexity fit = Complexity::automatic;
  double (*function)(double) = nullptr;  // set: fit t(n) ≈ c · function(n) instead
  std::string param;
};

// Per-benchmark settings; unset values fall back to the run's (command-line) settings. The
// durations are in nanoseconds (Registration::time_budget and warm_up take std::chrono
// durations; this header does without <chrono>).
struct BenchSettings {
  std::optional<std::size_t> sample_size;
  std::optional<std::int64_t> time_budget_ns;
  std::optional<std::int64_t> warm_up_ns;
};

namespace detail {

using ErasedFunction = void (*)();
using Invoker = void (*)(ErasedFunction function, Bencher& bencher,
                         const std::vector<ParamValue>& values);
using ScenarioInvoker = void (*)(ErasedFunction function, Scenario& scenario,
                                 const std::vector<ParamValue>& values);

// Build facts of the translation unit that registered a benchmark (the user's code).
struct BuildFacts {
  const char* compiler;
  const char* build_type;
  const char* flags;
  bool optimized;
  bool assertions;
};

#ifndef BENCHKIT_CONSUMER_BUILD_TYPE
#define BENCHKIT_CONSUMER_BUILD_TYPE ""
#endif
#ifndef BENCHKIT_CONSUMER_FLAGS
#define BENCHKIT_CONSUMER_FLAGS ""
#endif

inline constexpr BuildFacts this_build_facts() {
  return BuildFacts{
#ifdef __VERSION__
      __VERSION__,
#else
      "unknown",
#endif
      BENCHKIT_CONSUMER_BUILD_TYPE,
      BENCHKIT_CONSUMER_FLAGS,
#ifdef __OPTIMIZE__
      true,
#else
      false,
#endif
#ifdef NDEBUG
      false,
#else
      true,
#endif
  };
}

// Calls a function taking `Handle&` (Bencher or Scenario) and its parameters, converted from
// the parameter values.
template <class Handle, class... Args>
struct InvokerFor {
  template <std::size_t... I>
  static void call(void (*function)(Handle&, Args...), Handle& handle,
                   const std::vector<ParamValue>& values, std::index_sequence<I...>) {
    function(handle, values[I].template as<Args>()...);
  }
  static void invoke(ErasedFunction erased, Handle& handle, const std::vector<ParamValue>& values) {
    auto function = reinterpret_cast<void (*)(Handle&, Args...)>(erased);
    call(function, handle, values, std::index_sequence_for<Args...>{});
  }
};

// "int", "std::vector<int>": the type's name as the compiler spells it.
template <class T>
std::string_view type_name() {
  std::string_view pretty = __PRETTY_FUNCTION__;
  const auto start = pretty.find("T = ") + 4;
  const auto end = pretty.find_first_of(";]", start);
  return pretty.substr(start, end - start);
}

}  // namespace detail

// A registered benchmark or scenario (or family of them): parameters combine as a cartesian
// product and each combination is a benchmark of its own named "fn/key=value/...".
class Registration {
 public:
  Registration(std::string name, std::string file, int line, detail::BuildFacts facts);

  // Adds a parameter; the function receives the values in the order params were added.
  Registration& param(std::string name, std::initializer_list<ParamValue> values);
  Registration& param(std::string name, std::vector<ParamValue> values);

  // The next three are for micro benchmarks; a scenario that sets them is refused when the
  // binary starts (a scenario runs once per repetition: --repetitions).
  // Minimum number of samples before the precision rule may stop sampling. Default 30 (the
  // run's --sample-size); lower it only for benchmarks whose iterations take seconds.
  Registration& sample_size(std::size_t samples);
  // Sampling time after which the benchmark stops even if the precision target was not met,
  // a std::chrono duration: .time_budget(std::chrono::seconds(5)). Default 1 s (the run's
  // --time-budget). Raise it for noisy benchmarks that matter.
  template <detail::ChronoDuration Duration>
  Registration& time_budget(const Duration& budget) {
    return set_time_budget_ns(detail::to_nanoseconds(budget));
  }
  // Time spent running the code before any sample is kept, a std::chrono duration. Default
  // 50 ms (--warm-up).
  template <detail::ChronoDuration Duration>
  Registration& warm_up(const Duration& duration) {
    return set_warm_up_ns(detail::to_nanoseconds(duration));
  }
  // Leaves the benchmark (every parameter combination of it) out of runs given --skip-tag
  // `tag`, e.g. a CI job's --skip-tag ci, printing `reason` and keeping it in the result as a
  // skipped entry, which comparisons neither flag nor count as failed. Default: never skipped.
  // For a case too noisy to give useful automatic results: say why and where the evidence is
  // ("walltime varies 8% between runners; measurements in PR 214"). Repeatable, one per tag.
  // The tag is a word (letters, digits, '-', '_', '.'); the reason may not be empty.
  Registration& skip_when(std::string tag, std::string reason);
  const std::vector<SkipRule>& skip_rules() const { return skips_; }

  // Runs the routine in N threads at once, for each N given (Google Benchmark's ->Threads(N)):
  // each N is a benchmark of its own named "fn/…/threads=N", the thread count varying after
  // every parameter. The threads start each timed batch together and each runs the whole batch;
  // a sample is the wall time from their common start to the last thread's end, so the time per
  // iteration is one thread's while N run (docs/micro-benchmarks.md, "Threads"). Throughput is
  // reported for all the threads together. Use b.thread_index() and b.threads() to give each
  // thread its share. Default: no threads (the routine runs in the benchmark's own thread).
  // A count below 1, or the same count twice, is refused here; a scenario is refused when the
  // binary starts.
  Registration& threads(std::initializer_list<std::size_t> counts);
  Registration& threads(std::vector<std::size_t> counts);
  const std::vector<std::size_t>& thread_counts() const { return threads_; }

  // Fits how the time per iteration grows with a size parameter over the registration's values
  // of it (docs/micro-benchmarks.md, "Complexity"): O(1), O(log n), O(n), O(n log n), O(n²),
  // O(n³), chosen by the data unless `fit` names one; the coefficient with its 95% interval is
  // shown in the console, the result JSON, `--format gbench` (BigO and RMS rows) and the HTML
  // sweep chart. `param` names the size parameter; empty: the registration's only parameter. A
  // parameter that does not exist or whose values are not positive numbers is refused when the
  // binary starts. Default: no fit. Give sizes spread over a factor of 16 or more: over a short
  // range O(n) and O(n log n) cannot be told apart, and the report says so.
  Registration& complexity(Complexity fit = Complexity::automatic, std::string param = {});
  // The same with the user's own growth function (Google Benchmark's Complexity(lambda)):
  // `.complexity([](double n) { return n * std::sqrt(n); })`. It is fitted beside the built-in
  // classes and reported as O(f(n)).
  Registration& complexity(double (*function)(double), std::string param = {});
  const std::optional<ComplexitySetting>& complexity_setting() const { return complexity_; }

  const std::string& name() const { return name_; }
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const detail::BuildFacts& build_facts() const { return facts_; }
  const BenchSettings& settings() const { return settings_; }
  // The registration's first mistake, or "" (measure::expand refuses a registration that has one).
  const std::string& problem() const { return problem_; }
  const std::vector<std::pair<std::string, std::vector<ParamValue>>>& params() const {
    return params_;
  }
  // One function of the registration. Exactly one of `invoker` (a micro benchmark, taking
  // Bencher&) and `scenario_invoker` (a scenario, taking Scenario&) is set.
  struct Variant {
    std::string suffix;  // "<int>" for a type parameter, empty otherwise
    detail::ErasedFunction function;
    detail::Invoker invoker;
    std::size_t arity;  // parameters the function takes after Bencher& or Scenario&
    detail::ScenarioInvoker scenario_invoker;
  };
  const std::vector<Variant>& variants() const { return variants_; }
  // True when the registration holds scenarios (BENCHKIT_SCENARIO), false for micro benchmarks.
  bool is_scenario() const { return !variants_.empty() && variants_.front().scenario_invoker; }

  template <class... Args>
  Registration& add_function(void (*function)(Bencher&, Args...), std::string suffix = {}) {
    variants_.push_back(
        Variant{std::move(suffix), reinterpret_cast<detail::ErasedFunction>(function),
                &detail::InvokerFor<Bencher, Args...>::invoke, sizeof...(Args), nullptr});
    return *this;
  }
  template <class... Args>
  Registration& add_scenario(void (*function)(Scenario&, Args...)) {
    variants_.push_back(Variant{{},
                                reinterpret_cast<detail::ErasedFunction>(function),
                                nullptr,
                                sizeof...(Args),
                                &detail::InvokerFor<Scenario, Args...>::invoke});
    return *this;
  }

 private:
  // time_budget and warm_up in nanoseconds: compiled once, in the library.
  Registration& set_time_budget_ns(std::int64_t budget);
  Registration& set_warm_up_ns(std::int64_t duration);

  std::string name_;
  std::string file_;
  int line_;
  detail::BuildFacts facts_;
  BenchSettings settings_;
  std::vector<std::pair<std::string, std::vector<ParamValue>>> params_;
  std::vector<Variant> variants_;
  std::vector<SkipRule> skips_;
  std::optional<ComplexitySetting> complexity_;
  std::vector<std::size_t> threads_;
  // The first mistake of the registration (an empty parameter name, no thread count, ...):
  // registrations run before main(), where a throw ends the program before it can say anything
  // (--help included, exit 134), so it is kept and reported when the benchmarks are expanded.
  std::string problem_;
  void keep_problem(std::string problem);
};

// A function template registered once per type with .types<A, B, ...>().
template <class Instantiate>
class TemplateRegistration {
 public:
  explicit TemplateRegistration(Registration& registration) : registration_(registration) {}
  template <class... Types>
  Registration& types() {
    (registration_.add_function(Instantiate::template get<Types>(),
                                "<" + std::string(detail::type_name<Types>()) + ">"),
     ...);
    return registration_;
  }

 private:
  Registration& registration_;
};

// The process-wide list of registered benchmarks, in registration order. The list owns the
// registrations, which live until the program ends.
Registration& register_benchmark(std::string name, std::string file, int line,
                                 detail::BuildFacts facts);
const std::vector<Registration*>& registered_benchmarks();

}  // namespace benchkit

#define BENCHKIT_CONCAT_INNER(a, b) a##b
#define BENCHKIT_CONCAT(a, b) BENCHKIT_CONCAT_INNER(a, b)

// BENCHKIT(fn): fn is `void fn(benchkit::Bencher&, P1, P2, ...)`, one P per .param(...).
#define BENCHKIT(fn)                                                                           \
  [[maybe_unused]] static ::benchkit::Registration& BENCHKIT_CONCAT(benchkit_reg_, __LINE__) = \
      ::benchkit::register_benchmark(#fn, __FILE__, __LINE__,                                  \
                                     ::benchkit::detail::this_build_facts())                   \
          .add_function(&fn)

// BENCHKIT_TEMPLATE(fn).types<A, B>(): fn is a function template whose first template
// parameter is a type; each type is a benchmark named "fn<A>".
#define BENCHKIT_TEMPLATE(fn)                                                                  \
  namespace {                                                                                  \
  struct BENCHKIT_CONCAT(benchkit_inst_, __LINE__) {                                           \
    template <class T>                                                                         \
    static auto get() {                                                                        \
      return &fn<T>;                                                                           \
    }                                                                                          \
  };                                                                                           \
  }                                                                                            \
  [[maybe_unused]] static ::benchkit::Registration& BENCHKIT_CONCAT(benchkit_reg_, __LINE__) = \
      ::benchkit::TemplateRegistration<BENCHKIT_CONCAT(benchkit_inst_, __LINE__)>(             \
          ::benchkit::register_benchmark(#fn, __FILE__, __LINE__,                              \
                                         ::benchkit::detail::this_build_facts()))
