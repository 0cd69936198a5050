#include "model/failure.hpp"

#include <array>
#include <utility>

namespace benchkit::model {
namespace {

constexpr std::array<std::pair<Failure::Cause, std::string_view>, 5> kNames = {{
    {Failure::Cause::threw, "threw"},
    {Failure::Cause::crashed, "crashed"},
    {Failure::Cause::timed_out, "timed_out"},
    {Failure::Cause::exited, "exited"},
    {Failure::Cause::interrupted, "interrupted"},
}};

}  // namespace

std::string_view failure_cause_name(Failure::Cause cause) {
  for (const auto& [value, name] : kNames) {
    if (value == cause) return name;
  }
  return "threw";
}

std::optional<Failure::Cause> failure_cause_from_name(std::string_view name) {
  for (const auto& [value, known] : kNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

bool failed_unmeasured(const BenchmarkResult& b) {
  return b.failure || (b.samples.empty() && !b.valid());
}

std::string_view unmeasured_cause(const BenchmarkResult& b) {
  return b.failure ? failure_cause_name(b.failure->cause) : "error";
}

}  // namespace benchkit::model
