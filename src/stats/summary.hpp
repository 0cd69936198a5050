// Descriptive statistics over a sample. Pure functions: no I/O, no global state.
//
// Common contract: every function throws std::invalid_argument when the input holds a NaN or
// an infinity (naming the function and the index), because a non-finite time is a bug upstream,
// not a value to average. Empty input is rejected the same way unless the comment says
// otherwise.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchkit::stats {

// Throws std::invalid_argument("<what>: ...") if `values` is empty or holds NaN/inf.
void require_finite(std::span<const double> values, const char* what, std::size_t min_size = 1);

// Arithmetic mean. One value: that value.
double mean(std::span<const double> values);

// Sample variance with the n-1 denominator, by Welford's update (stable when the mean is large
// relative to the spread, as with nanosecond timings). Fewer than 2 values: 0.
double variance(std::span<const double> values);
double stddev(std::span<const double> values);

double min(std::span<const double> values);
double max(std::span<const double> values);

// Quantile by linear interpolation between order statistics, Hyndman & Fan type 7 (the default
// of R, NumPy and Criterion.rs): h = (n-1)p, q = x[floor h] + (h - floor h)(x[floor h + 1] -
// x[floor h]). p must lie in [0, 1]. One value: that value. All values equal: that value.
double quantile(std::span<const double> values, double p);
// Same, on values already sorted ascending (no copy, no check of the order).
double quantile_sorted(std::span<const double> sorted, double p);

// Type 7 median: the middle value, or the mean of the two middle values.
double median(std::span<const double> values);
// The same median, to the bit, of `values` (finite, at least one; not checked), found by selection
// rather than by sorting a copy: `values` is reordered. For loops that take many medians
// (bootstrap replicates, change-point segments).
double median_in_place(std::span<double> values);

// Median absolute deviation from the median, times 1.4826 so that it estimates the standard
// deviation of normal data (1/Φ⁻¹(3/4)). One value or all equal: 0.
double mad(std::span<const double> values);

// Interquartile range, Q3 - Q1 with type 7 quartiles. Fewer than 2 values: 0.
double iqr(std::span<const double> values);

// Coefficient of variation: stddev / mean. Mean of 0: 0 when all values are 0, else throws.
double coefficient_of_variation(std::span<const double> values);

// Median absolute percentage error around the median: median_i |x_i - m| / |x_i| (nanobench's
// err%). Values of 0 are skipped; all zero: 0.
double mdape(std::span<const double> values);

// Tukey's fences: mild outliers lie beyond 1.5 IQR from the quartiles, severe ones beyond 3 IQR.
struct TukeyCounts {
  std::size_t low_severe = 0;
  std::size_t low_mild = 0;  // mild only, severe ones are not counted twice
  std::size_t high_mild = 0;
  std::size_t high_severe = 0;
  double low_severe_fence = 0, low_mild_fence = 0, high_mild_fence = 0, high_severe_fence = 0;
  std::size_t total() const { return low_severe + low_mild + high_mild + high_severe; }
};
// Fewer than 4 values: no fences can be placed; all counts 0.
TukeyCounts tukey_outliers(std::span<const double> values);

// Share of the variance (0..1) explained by outliers, as in Haskell's criterion
// (Analysis.outlierVariance) and Catch2: with mean μ, sample standard deviation σ_b (n - 1) and
// n values, the "good" samples are modelled with mean >= μ/(2n) and standard deviation
// σ_g = min(μ/(8n), σ_b/√n); the result is min(var_out(1), var_out(c_max)) / σ_b² with
// var_out(c) = ((n - c)/n)(σ_b² - (n - c)σ_g²) and c_max the largest outlier count the model
// allows (see the .cpp). Catch2 uses the n-denominator σ_b; the difference is O(1/n).
// Criterion labels < 1% unaffected, < 10% slight, < 50% moderate, else severe.
// Fewer than 2 values, zero spread, or a mean <= 0 (the model is about durations): 0.
double outlier_variance(std::span<const double> values);

// A sorted copy.
std::vector<double> sorted_copy(std::span<const double> values);

}  // namespace benchkit::stats
