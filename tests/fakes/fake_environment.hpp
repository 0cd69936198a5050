// Environment variables from a map: what a CI runner sets, read without touching the process's
// own environment (model::EnvironmentLookup).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace benchkit::testing {

// A lookup of `variables`: a variable's value, or null when it is not in the map.
inline std::function<const char*(const char*)> fake_environment(
    std::map<std::string, std::string> variables) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(variables));
  return [shared](const char* name) -> const char* {
    const auto found = shared->find(name);
    return found == shared->end() ? nullptr : found->second.c_str();
  };
}

}  // namespace benchkit::testing
