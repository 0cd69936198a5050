// Paired comparison of interleaved rounds (A B B A ...): round i measured the baseline and the
// candidate close together in time, so the slow drift of a machine cancels in their ratio.
//
// Conventions as two_sample.hpp: arguments (baseline, candidate), ratios candidate/baseline,
// two-sided p-values, NaN/inf throws std::invalid_argument.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "stats/intervals.hpp"
#include "stats/two_sample.hpp"

namespace benchkit::stats {

// ln(candidate_i / baseline_i) per round. Sizes must match and values be > 0; else throws.
// Empty: empty.
std::vector<double> log_ratios(std::span<const double> baseline, std::span<const double> candidate);

// Exact two-sided sign test of "median difference = 0": zeros are dropped, then
// p = min(1, 2 P(B <= min(positive, negative))), B ~ Binomial(positive + negative, ½).
// All zero or empty: p = 1.
struct SignTestResult {
  std::size_t positive = 0;
  std::size_t negative = 0;
  std::size_t zero = 0;
  double p_value = 1.0;
};
SignTestResult sign_test(std::span<const double> differences);

// Wilcoxon signed-rank test of symmetry about 0. Zeros are dropped (Wilcoxon's convention,
// scipy's zero_method="wilcox"); |d| is ranked with mid-ranks. statistic = W+ (sum of the ranks
// of the positive differences). Exact (the 2ⁿ sign flips, ranks.hpp) under TestMethod rules of
// two_sample.hpp (n < 50, no tied |d|); asymptotic: z = (|W+ - n(n+1)/4| - ½)/σ with
// σ² = n(n+1)(2n+1)/24 - Σ(t³ - t)/48 (scipy's wilcoxon with correction=True).
// No non-zero difference: p = 1.
struct WilcoxonResult {
  double statistic = 0.0;  // W+
  std::size_t nonzero = 0;
  double z = 0.0;  // 0 when exact
  double p_value = 1.0;
  bool exact = false;
};
WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    TestMethod method = TestMethod::automatic);

// One-sample Hodges–Lehmann estimate: the median of the n(n+1)/2 Walsh averages (d_i + d_j)/2,
// i <= j (the "pseudo-median"), with the interval [A_(k), A_(N-k+1)] from inverting the
// signed-rank test (exact for n < 50, else normal with continuity correction); confidence is the
// achieved coverage. Empty: throws. One value: [d, d] with confidence 0.
ShiftEstimate hodges_lehmann_center(std::span<const double> differences, double confidence = 0.95);

// The whole paired analysis of per-round times.
//  - ratio: exp(median of the log ratios), with the sign-test interval (the order-statistic CI of
//    the median, median_ci) exponentiated; needs no symmetry, exact coverage.
//  - pseudo_median_ratio: exp(Hodges–Lehmann centre of the log ratios) and its interval; tighter
//    when the log ratios are symmetric.
//  - p_value: Wilcoxon signed-rank on the log ratios; sign_p_value: the sign test.
// Fewer than 6 rounds cannot reach 95% with the sign test (coverage is reported as achieved).
// Sizes differ, a value <= 0, or no rounds: throws.
struct PairedComparison {
  std::size_t rounds = 0;
  double ratio = 1.0;
  Interval interval;
  double pseudo_median_ratio = 1.0;
  Interval pseudo_median_interval;
  double p_value = 1.0;
  double sign_p_value = 1.0;
};
PairedComparison paired_ratio(std::span<const double> baseline, std::span<const double> candidate,
                              double confidence = 0.95);

}  // namespace benchkit::stats
