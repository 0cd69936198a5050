// The smallest change a comparison could have detected: what a run can and cannot tell.
#pragma once

#include <cstddef>
#include <span>

namespace benchkit::stats {

struct DetectableChange {
  double log_change = 0.0;          // δ on the log scale: the detectable shift of ln(time)
  double relative_change = 0.0;     // exp(δ) - 1: the detectable slow-down (a speed-up of
                                    // 1 - exp(-δ) is detected with the same power)
  double standard_error = 0.0;      // √(s_b²/n_b + s_c²/n_c), log scale
  double degrees_of_freedom = 0.0;  // Welch–Satterthwaite
};

// Minimum detectable change of a two-sided Welch t-test on log times at level `alpha` with
// probability `power`: the δ for which P(|T| > t_(1-α/2, df)) = power when T follows a
// noncentral t with df degrees of freedom and noncentrality δ/se (exact for normal log times,
// not the z shortcut (z_(1-α/2) + z_power)·se, which is optimistic for small counts).
// Spreads are standard deviations of ln(time) (≈ the coefficient of variation when it is
// small). Throws when a count is < 2, a spread is negative or non-finite, alpha is outside
// (0, 1) or power outside (alpha, 1). Both spreads 0: every change is detectable, δ = 0.
DetectableChange minimum_detectable_change(double baseline_log_spread, std::size_t baseline_count,
                                           double candidate_log_spread, std::size_t candidate_count,
                                           double alpha = 0.05, double power = 0.8);

// Same from the samples themselves: spreads are 1.4826 · MAD of ln(values) (robust, so a few
// outliers do not inflate the figure), and counts act as if multiplied by `efficiency` (the spreads
// are divided by √efficiency), the asymptotic relative efficiency of the test actually used against
// the t-test: 3/π ≈ 0.955 for Mann–Whitney at the normal (Hodges & Lehmann 1956), the default; 2/π
// ≈ 0.637 for a comparison of medians. Values must be > 0; fewer than 2 a side throws.
DetectableChange minimum_detectable_change(std::span<const double> baseline,
                                           std::span<const double> candidate, double alpha = 0.05,
                                           double power = 0.8,
                                           double efficiency = 3.0 / 3.141592653589793);

}  // namespace benchkit::stats
