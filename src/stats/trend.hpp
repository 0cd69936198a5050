// Trend over the order of the samples (state growing between iterations, a machine warming up)
// and the straight-line fit of time against iteration count.
//
// NaN/inf anywhere: std::invalid_argument.
#pragma once

#include <cstddef>
#include <span>

namespace benchkit::stats {

// Mann–Kendall test of a monotonic trend in `values` taken in order (Mann 1945, Kendall 1975):
// S = Σ_{i<j} sign(v_j - v_i), Var S = [n(n-1)(2n+5) - Σ t(t-1)(2t+5)]/18 over groups of t
// tied values, z = (S - sign S)/√Var S (continuity), p = 2(1 - Φ(|z|)). tau is Kendall's τ_b of
// the values against their index. S is counted by merge sort in O(n log n).
// Fewer than 3 values or all values equal: S as counted, z = 0, p = 1 (no trend can be shown).
// Empty: all zero, p = 1.
struct TrendResult {
  double s = 0.0;
  double tau = 0.0;
  double z = 0.0;
  double p_value = 1.0;
};
TrendResult mann_kendall(std::span<const double> values);

// Sen's slope (Sen 1968): the median of (v_j - v_i)/(j - i) over all i < j, the size of the trend
// per sample, robust to outliers. O(n²) time and memory (12.5 M slopes for n = 5,000): for the
// tens to thousands of samples of one benchmark. Fewer than 2 values: 0.
double sen_slope(std::span<const double> values);

// Spearman's rank correlation of paired x and y (mid-ranks for ties) with the p-value of
// t = ρ√((n-2)/(1-ρ²)) on n - 2 degrees of freedom, as scipy.stats.spearmanr.
// Sizes differ: throws. Fewer than 3 pairs, or x or y constant (ρ undefined): ρ = 0, p = 1.
// |ρ| = 1: p = 0.
struct CorrelationResult {
  double coefficient = 0.0;
  double p_value = 1.0;
};
CorrelationResult spearman(std::span<const double> x, std::span<const double> y);

// Ordinary least squares y = intercept + slope·x (e.g. total time against iteration count: the
// slope is the time per iteration, the intercept the fixed overhead per sample), computed on
// centred values. r_squared = 1 - SS_res/SS_tot (1 when y is constant and fitted exactly).
// slope_standard_error = √(SS_res/(n-2) / Σ(x - x̄)²).
// Fewer than 3 points (no residual degree of freedom) or x constant: throws.
struct LinearFit {
  double slope = 0.0;
  double intercept = 0.0;
  double slope_standard_error = 0.0;
  double r_squared = 0.0;
};
LinearFit least_squares(std::span<const double> x, std::span<const double> y);

// Wald–Wolfowitz runs test of `labels` taken in order (k categories, Mood 1940): a run is a
// maximal stretch of equal labels. Under "the order is random", with n_i labels of category i
// and n = Σ n_i: E[R] = 1 + (n² - Σ n_i²)/n and
// Var R = [Σn_i² (Σn_i² + n(n+1)) - 2n Σn_i³ - n³] / (n²(n-1)); z = (R - E[R])/√Var R (no
// continuity correction). Too few runs (z far below 0) means the categories come in long
// stretches: a state that persists in time. clustered_p_value is the one-sided
// Φ(z). Fewer than 2 labels or a single category: z = 0, p = 1.
struct RunsResult {
  std::size_t runs = 0;
  double expected = 0.0;
  double z = 0.0;
  double clustered_p_value = 1.0;
};
RunsResult runs_test(std::span<const std::size_t> labels);

}  // namespace benchkit::stats
