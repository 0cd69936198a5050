// Expanding registrations into runnable benchmark instances (cartesian product of parameters).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/registry.hpp"
#include "benchkit/result.hpp"

namespace benchkit::measure {

struct Instance {
  std::string name;  // "fn<T>/key=value/..."
  std::map<std::string, std::string> params;
  const Registration* registration = nullptr;
  const Registration::Variant* variant = nullptr;
  std::vector<ParamValue> values;  // one per parameter, in registration order
  // Threads running the routine together (Registration::threads); its name then ends in
  // "/threads=N" and params holds "threads".
  std::size_t threads = 1;

  // A scenario (BENCHKIT_SCENARIO) rather than a micro benchmark.
  bool is_scenario() const { return variant && variant->scenario_invoker; }
};

// Values that replace a parameter's registered values, by parameter name (--param).
using ParamOverrides = std::map<std::string, std::vector<ParamValue>>;

// Every instance of every registration, in registration order; within one registration,
// variants (types) first, then the parameter product with the last parameter varying fastest.
// A parameter named in `overrides` takes the values given there instead of its own.
// Throws std::invalid_argument when a function's parameter count does not match its
// .param(...) calls, when two instances would get the same name, when a scenario sets a
// micro-benchmark setting (sample_size, time_budget, warm_up) or threads, when a registration
// with .threads has a parameter named "threads", or when an override names a parameter that no
// registration has.
std::vector<Instance> expand(const std::vector<const Registration*>& registrations,
                             const ParamOverrides& overrides = {});

// The complexity sweep `instance` belongs to (Registration::complexity): its family (the name
// without the size parameter), the size, the class asked for, and the user's function at the
// size. Nullopt when the registration asks for no fit. Throws std::invalid_argument, naming the
// benchmark and the fix, when the size parameter is not one of its parameters (or it has several
// and none is named) or the value is not a positive number.
std::optional<ComplexityPoint> complexity_point(const Instance& instance);

// The whole process registry.
std::vector<Instance> expand_registered(const ParamOverrides& overrides = {});

// Throws std::invalid_argument, naming `benchmark`, unless the rule's tag is a word (letters,
// digits, '-', '_', '.': what --skip-tag is given) and its reason is not empty. Every skip_when
// (Registration::skip_when, Bench::run's rules) goes through it.
SkipRule checked_skip_rule(const std::string& benchmark, std::string tag, std::string reason);

}  // namespace benchkit::measure
