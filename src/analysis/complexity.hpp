// The complexity fit of each sweep of a run (Registration::complexity): the benchmarks that carry
// a ComplexityPoint, grouped by family, fitted by stats::fit_complexity on their per-iteration
// times (docs/micro-benchmarks.md, "Complexity").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "stats/complexity.hpp"

namespace benchkit::analysis {

// Replaces the computed fits of `run.complexity` with fits of its current samples (fits from
// another tool, ComplexityResult::source set, are kept). A family whose sizes are fewer than 2
// distinct values, or whose benchmarks failed, gets no fit; each such family gets an info
// diagnostic on its first benchmark saying why. Deterministic: the bootstrap's seed is the
// run's (Context::seed).
void fit_complexity(RunResult& run);

// Google Benchmark's spelling of a class ("(1)", "lgN", "N", "NlgN", "N^2", "N^3", "f(N)") and
// back; nullopt for an unknown spelling.
std::string big_o_name(stats::Growth growth);
std::optional<stats::Growth> growth_named(std::string_view name);

// "n log n"-like words for a class, for text: "O(n log n)".
std::string big_o_words(std::string_view big_o);

// The fitted curve's value at n: coefficient × g(n) (`custom` for "f(N)").
double fitted_value(const ComplexityResult& fit, double n, std::optional<double> custom);

}  // namespace benchkit::analysis
