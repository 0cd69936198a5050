// Paired comparison of interleaved rounds (A B B A ...): round i measured the baseline and the
// candidate close together in time, so the slow drift of a machine cancels in their ratio.
//
// Conventions as two_sample.hpp: arguments (baseline, candidate), ratios candidate/baseline,
// two-sided p-values, NaN/inf throws std::invalid_argument.
#pragma once

#include <cstddef>
#include <optional>
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

// Paired rounds as an AB/BA crossover: the two sides of a round ran one after the other, the
// baseline first in some rounds (baseline_first[i]) and the candidate first in the others. When
// the second process of a round runs faster or slower whatever it runs (an order effect π on the
// log scale), round i's log ratio is τ + π + e_i where the baseline ran first and τ - π + e_i
// where the candidate did, and the rounds scatter by π on top of e whatever their number. The
// effect cancels between the two orders (the nonparametric crossover analysis of Koch, 1972):
// with x the log ratios of the baseline-first rounds and y the negated log ratios of the others,
// x - y estimates 2τ, so the Hodges–Lehmann shift of x against y and its Mann–Whitney interval,
// halved, are τ's estimate and interval, and the Mann–Whitney test of x against y is τ's test.
// That estimate is the median of the Walsh averages (r_i + r_j)/2 taken across the two orders
// only; with no order effect it is as efficient, for many rounds, as the centre of all of them
// (hodges_lehmann_center). It assumes what the signed-rank analysis does: e symmetric about 0.
//  - ratio, interval: exp(τ̂) and its interval (confidence: the coverage the sizes achieve).
//  - order_ratio: exp(π̂), π̂ half the Hodges–Lehmann shift between the log ratios of the two
//    orders: a round's second process over its first (below 1: the second ran faster).
// Empty when either order has no round, or when the two orders' sizes m and n cannot reach
// `confidence` at all (1 - 2/C(m+n, m) below it; the signed-rank analysis of the same rounds
// reaches further: 5 and 5 rounds give at most 99.2%, 10 rounds 99.8%). Sizes differ, a value
// <= 0: throws.
// π̂ of the above from the rounds' log ratios: half the Hodges–Lehmann shift between the log
// ratios of the baseline-first rounds and those of the others; 0 when either has none. Sizes
// differ: throws.
double crossover_order_effect(std::span<const double> log_ratios,
                              const std::vector<bool>& baseline_first);
//  - order_p_value: the Mann–Whitney test of the two orders' log ratios against each other, of
//    "no order effect" (π = 0).
struct CrossoverComparison {
  double ratio = 1.0;
  Interval interval;
  double p_value = 1.0;
  double order_ratio = 1.0;
  double order_p_value = 1.0;
};
std::optional<CrossoverComparison> crossover_ratio(std::span<const double> baseline,
                                                   std::span<const double> candidate,
                                                   const std::vector<bool>& baseline_first,
                                                   double confidence = 0.95);

}  // namespace benchkit::stats
