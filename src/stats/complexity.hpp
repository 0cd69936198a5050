// Fitting how a benchmark's time grows with a size: t(n) ≈ c · g(n) for g among 1, log n, n,
// n log n, n², n³ and a caller's own function, and choosing among them (docs/micro-benchmarks.md,
// "Complexity", says why this way).
//
// The model has one coefficient and no constant term, as Google Benchmark's has, so that the two
// report the same coefficient for the same class. Logarithms are base 2 (Google Benchmark's).
//
// The fit: weighted least squares on the per-size medians, each weighted by the inverse square of
// its standard error (from the spread of that size's samples, floored at kRelativeErrorFloor of
// the median), so that a noisy size counts less than a steady one, and a large size does not
// outweigh small ones merely by being large (Google Benchmark's unweighted fit on absolute times
// is decided by its two or three largest sizes).
//
// The choice: every candidate has the same one coefficient, so no candidate is more flexible than
// another; they are ranked by the Akaike information criterion of the weighted fit with the
// noise scale estimated from the residuals, AIC = m ln(χ²/m) + 2, and the Akaike weight of each
// is exp(-ΔAIC/2) normalised. Candidates within kIndistinguishableAic of the best are reported as
// indistinguishable from it (Burnham & Anderson 2002, §2.6: ΔAIC < 2 means substantial support
// for both), which is what happens to n and n log n over a short range of sizes.
//
// Pure functions: no I/O. Non-finite or negative input is refused with std::invalid_argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace benchkit::stats {

enum class Growth { constant, log_n, n, n_log_n, n_squared, n_cubed, custom };

// The six built-in classes, simplest first (the order ties are broken in).
inline constexpr Growth kBuiltInGrowths[] = {Growth::constant, Growth::log_n,     Growth::n,
                                             Growth::n_log_n,  Growth::n_squared, Growth::n_cubed};

// A median's standard error is taken as at least 1% of it: the medians of the same benchmark
// in fresh processes on a quiet machine differ by about that much (docs/verdicts.md's A/A
// figures), more than the spread of one process's samples says; it also weights a size measured
// once by its relative error, which is right for multiplicative noise.
inline constexpr double kRelativeErrorFloor = 0.01;

// ΔAIC below which two fits are reported as indistinguishable (Burnham & Anderson 2002).
inline constexpr double kIndistinguishableAic = 2.0;

// g(n) for a built-in class (log₂ as Google Benchmark); `custom` is not computed here.
double growth_term(Growth growth, double n);

// One size of a sweep: its size, the per-iteration times of its samples (at least one), and
// the caller's function at n when a custom growth is fitted.
struct SizeSamples {
  double n = 0.0;
  std::vector<double> values;
  std::optional<double> custom_term;
};

// One fitted candidate.
struct GrowthFit {
  Growth growth = Growth::constant;
  double coefficient = 0.0;     // c of t(n) ≈ c · g(n), in the samples' unit
  double standard_error = 0.0;  // of c, from the weighted regression's residuals
  double chi_square = 0.0;      // Σ ((median - c g) / standard error of median)²
  double aic = 0.0;
  double akaike_weight = 0.0;  // 0..1, the weights of all candidates sum to 1
  // Google Benchmark's RMS of this class (gbench_fit on the medians): sqrt(mean of squared
  // residuals) / mean of the times.
  double rms = 0.0;
};

struct ComplexityFit {
  std::vector<GrowthFit> candidates;  // best (lowest AIC) first
  std::size_t chosen = 0;             // index into candidates: the best, or the requested one
  // The coefficient of the chosen class with its 95% interval: a percentile bootstrap over each
  // size's samples when every size has at least kBootstrapMinimum samples, else the regression's
  // standard error with Student's t on m-1 degrees of freedom.
  double coefficient = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  bool bootstrapped = false;
  // Share of the bootstrap resamples whose best class is the chosen fit's best class (1 without
  // a bootstrap): how stable the choice is under the noise of the samples.
  double stability = 1.0;
  // Built-in classes (and custom) within kIndistinguishableAic of the best, the best excluded.
  std::vector<Growth> indistinguishable;

  const GrowthFit& best() const { return candidates.front(); }
  const GrowthFit& selected() const { return candidates[chosen]; }
};

// Samples each size needs for a bootstrap interval.
inline constexpr std::size_t kBootstrapMinimum = 5;

struct ComplexityRequest {
  // Fit only this class when set (its candidates still hold every built-in class, for the
  // comparison); otherwise choose. Growth::custom requires custom_term on every size.
  std::optional<Growth> fixed;
  std::size_t resamples = 1000;
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;  // stats::default_seed
};

// Fits every built-in class (and the custom one when every size has custom_term) and chooses.
// Throws std::invalid_argument with fewer than 2 distinct positive sizes, a size without
// samples, non-finite or negative values, or a fixed custom growth without custom_term.
ComplexityFit fit_complexity(std::span<const SizeSamples> sizes, const ComplexityRequest& request);

// Google Benchmark's own fit (its src/complexity.cc, as documented there): the coefficient that
// minimises Σ (t - c g(n))² over the points as given, and its RMS, sqrt(Σ (t - c g)² / m) divided
// by the mean of t. `terms` holds g(n) of each point.
struct GbenchFit {
  double coefficient = 0.0;
  double rms = 0.0;
};
GbenchFit gbench_fit(std::span<const double> terms, std::span<const double> times);
// Google Benchmark's automatic choice: the built-in class of lowest RMS, constant first, strict
// improvements only (so a tie keeps the simpler class).
Growth gbench_choice(std::span<const double> sizes, std::span<const double> times);

}  // namespace benchkit::stats
