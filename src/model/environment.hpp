// The process environment as the code that reads CI variables sees it: a lookup that tests
// replace with a map (tests/fakes/fake_environment.hpp), read by system/ci_run (the CI run's id)
// and vcs/ci_checkout (the branch a CI service built).
#pragma once

#include <functional>
#include <string_view>

namespace benchkit::model {

// A variable's value, or null when unset: std::getenv, or a map in tests.
using EnvironmentLookup = std::function<const char*(const char*)>;

// The value of `name` (none when null), empty when unset.
inline std::string_view environment_value(const EnvironmentLookup& lookup, const char* name) {
  const char* value = name ? lookup(name) : nullptr;
  return value ? std::string_view(value) : std::string_view();
}

}  // namespace benchkit::model
