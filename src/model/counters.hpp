// User counters as reports show them: the kind a benchmark gave a counter (benchkit/counter.hpp)
// applied to the value it set, and the kinds' names in files.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::model {

// Every iteration `b`'s routine ran: its warm-up and its samples (what a counter::per_iteration
// total was counted over).
std::uint64_t iterations_run(const BenchmarkResult& b);

// `name`'s kind in `b` (plain when it has none).
counter::Kind counter_kind(const BenchmarkResult& b, const std::string& name);

// The counter `name` of `b` as shown, the kind applied in this order (Google Benchmark's):
//   per_iteration: value / iterations_run(b)
//   per_thread:    value / model::thread_count(b)
//   rate:          value / (ns_per_iteration × 1e-9), per second of measured time
//   invert:        1 / value
// Nothing when `b` has no such counter or the kind cannot be applied: a rate without a positive
// time per iteration (no samples, or samples that count instructions), per_iteration with no
// iteration run, or a division by zero.
std::optional<double> counter_value(const BenchmarkResult& b, const std::string& name,
                                    double ns_per_iteration);
// The same with `b`'s headline time per iteration, the median (what throughput divides by).
std::optional<double> counter_value(const BenchmarkResult& b, const std::string& name);

// The names of the flags of `kind`, in the order of counter.hpp ("rate", "per_iteration",
// "per_thread", "base_1024", "invert"); none for plain.
std::vector<std::string> counter_kind_names(counter::Kind kind);
// The kind of those names; nothing when one of them is not a flag's name.
std::optional<counter::Kind> counter_kind_from_names(std::span<const std::string> names);

}  // namespace benchkit::model
