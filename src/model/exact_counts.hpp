// Exact counts (Scenario::exact_count) must agree in every run: across the processes of one
// benchmark, and across the benchmarks that count the same input (docs/scenarios.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::model {

// What differs between the exact counts of two runs of one benchmark — `first` of run
// `first_run` and `now` of run `run` (from 0), runs being a `unit`: "process" or "repetition" —
// a count missing from one, or another value or input, said as one failure ("exact count rows
// is not the same in every process: 10 in process 1, 9 in process 3"); nothing when they agree.
std::optional<std::string> count_disagreement(std::string_view unit,
                                              const std::vector<ExactCount>& first,
                                              std::size_t first_run,
                                              const std::vector<ExactCount>& now, std::size_t run);

// Appends `failure` to the benchmark's failures unless it holds that message already.
void add_failure(BenchmarkResult& benchmark, std::string failure);

// Checks the counts that name an input across `benchmarks`: counts of one name and one input
// must be equal. The phases of one scenario (names that differ only after the last '/') carry
// the same counts and vote once. When one value is held by more scenarios than any other, the
// benchmarks with another value fail; when none is, every benchmark of the group fails. Each
// failure names the count, its value here and the other values with where they were seen; a
// failure already present is not added again.
void check_exact_counts(std::vector<BenchmarkResult>& benchmarks);

}  // namespace benchkit::model
