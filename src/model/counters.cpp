#include "model/counters.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "model/threads.hpp"

namespace benchkit::model {
namespace {

// Each flag with its name in result files, in counter.hpp's order.
constexpr std::array<std::pair<counter::Kind, std::string_view>, 5> kFlagNames = {{
    {counter::rate, "rate"},
    {counter::per_iteration, "per_iteration"},
    {counter::per_thread, "per_thread"},
    {counter::base_1024, "base_1024"},
    {counter::invert, "invert"},
}};

std::optional<double> divided(std::optional<double> value, double by) {
  if (!value || by == 0.0 || !std::isfinite(by)) return std::nullopt;
  return *value / by;
}

}  // namespace

std::uint64_t iterations_run(const BenchmarkResult& b) {
  std::uint64_t total = b.warm_up_iters;
  for (const Sample& sample : b.samples) total += sample.iters;
  return total;
}

counter::Kind counter_kind(const BenchmarkResult& b, const std::string& name) {
  const auto found = b.counter_kinds.find(name);
  return found == b.counter_kinds.end() ? counter::plain : found->second;
}

std::optional<double> counter_value(const BenchmarkResult& b, const std::string& name,
                                    double ns_per_iteration) {
  const auto found = b.counters.find(name);
  if (found == b.counters.end()) return std::nullopt;
  const counter::Kind kind = counter_kind(b, name);
  std::optional<double> value = found->second;
  if (counter::has(kind, counter::per_iteration)) {
    value = divided(value, static_cast<double>(iterations_run(b)));
  }
  if (counter::has(kind, counter::per_thread)) value = divided(value, model::thread_count(b));
  if (counter::has(kind, counter::rate)) {
    // A count (--mode instructions) is no time: a rate of it would be per instruction.
    if (!b.metric.empty() || !(ns_per_iteration > 0.0)) return std::nullopt;
    value = divided(value, ns_per_iteration * 1e-9);
  }
  if (counter::has(kind, counter::invert)) value = divided(1.0, value.value_or(0.0));
  return value;
}

std::optional<double> counter_value(const BenchmarkResult& b, const std::string& name) {
  return counter_value(b, name, b.estimates.median.value);
}

std::vector<std::string> counter_kind_names(counter::Kind kind) {
  std::vector<std::string> names;
  for (const auto& [flag, name] : kFlagNames) {
    if (counter::has(kind, flag)) names.emplace_back(name);
  }
  return names;
}

std::optional<counter::Kind> counter_kind_from_names(std::span<const std::string> names) {
  counter::Kind kind = counter::plain;
  for (const std::string& name : names) {
    bool known = false;
    for (const auto& [flag, flag_name] : kFlagNames) {
      if (name == flag_name) {
        kind = kind | flag;
        known = true;
      }
    }
    if (!known) return std::nullopt;
  }
  return kind;
}

}  // namespace benchkit::model
