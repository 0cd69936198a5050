// User counters and labels (Bencher::counter, Bencher::label, imported Google Benchmark
// counters) as every reporter shows them: the counter's kind applied (model/counters.hpp), then
// written with the prefixes of its base and "/s" for a rate.
#pragma once

#include <string>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::report {

// `value` with 3 significant digits and the prefix of its size: "64", "4.1 k", "2.5 M", "12 m"
// (below 1, base 1000 only); with counter::base_1024, "4 Ki", "1.5 Mi"; with counter::rate,
// "/s" after it: "1.23 G/s", "512 Mi/s", "3.5 /s". Infinity and NaN as "inf", "nan".
std::string format_counter(double value, counter::Kind kind);

// Counter `name` of `b` as shown: its kind applied, formatted; "n/a" when the kind cannot be
// applied (a rate of a benchmark without a time).
std::string counter_cell(const BenchmarkResult& b, const std::string& name);

// The benchmarks of `run` that have a user counter or a label, in order: micro benchmarks and
// imported ones, not scenario phases (their block shows the scenario's counters) nor commands
// (whose counters are benchkit's own: shell_startup_ns).
std::vector<const BenchmarkResult*> with_counters(const RunResult& run);

// The names of the user counters of `results`, each once, sorted.
std::vector<std::string> counter_names(const std::vector<const BenchmarkResult*>& results);

// Whether any of `results` has a label.
bool any_label(const std::vector<const BenchmarkResult*>& results);

// One table row for `b`: its name, a cell per name of `names` (empty when it has no such
// counter), then its label when `with_label`.
std::vector<std::string> counter_row(const BenchmarkResult& b,
                                     const std::vector<std::string>& names, bool with_label);

}  // namespace benchkit::report
