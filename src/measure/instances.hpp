// Expanding registrations into runnable benchmark instances (cartesian product of parameters).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "benchkit/registry.hpp"

namespace benchkit::measure {

struct Instance {
  std::string name;  // "fn<T>/key=value/..."
  std::map<std::string, std::string> params;
  const Registration* registration = nullptr;
  const Registration::Variant* variant = nullptr;
  std::vector<ParamValue> values;  // one per parameter, in registration order
};

// Every instance of every registration, in registration order; within one registration,
// variants (types) first, then the parameter product with the last parameter varying fastest.
// Throws std::invalid_argument when a function's parameter count does not match its
// .param(...) calls, or when two instances would get the same name.
std::vector<Instance> expand(const std::vector<const Registration*>& registrations);

// The whole process registry.
std::vector<Instance> expand_registered();

}  // namespace benchkit::measure
