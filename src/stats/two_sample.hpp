// Comparison of two independent samples: a baseline and a candidate.
//
// Conventions shared by every function here: arguments are (baseline, candidate); effects are
// oriented so that a positive shift, a ratio above 1 or a statistic above its null centre means
// "the candidate is larger" (for times: slower). p-values are two-sided. NaN/inf anywhere:
// std::invalid_argument. Intervals carry the coverage they actually achieve where it is known
// exactly (order statistics), else the nominal level.
#pragma once

#include <cstddef>
#include <span>

#include "stats/intervals.hpp"

namespace benchkit::stats {

// How a rank test computes its p-value.
enum class TestMethod {
  automatic,   // exact when both samples (or the non-zero differences) number < 50 and there
               // are no ties (R's rule, same cut-off for both tests), else asymptotic
  exact,       // the permutation distribution; data with ties fall back to asymptotic
  asymptotic,  // normal approximation with tie and continuity corrections
};

// Ratio of medians, median(candidate) / median(baseline), with a distribution-free CI in the
// style of Price & Bonett (2002): on the log scale each median's standard error is read off its
// order-statistic interval, se = (ln x_(n-k+1) - ln x_(k)) / (2 Φ⁻¹((1+γ)/2)) with k and its
// exact coverage γ from median_ci_rank(n, confidence), and the interval is
// ln ratio ± Φ⁻¹((1+c)/2) √(se_b² + se_c²). No resampling, so no seed.
// Values must be > 0 (times); otherwise throws. Empty side: throws. One value on a side, or no
// spread on either side's order-statistic interval: [ratio, ratio] with confidence 0 (no
// information) or the nominal level respectively. Fewer than 6 values a side: the order
// statistics are the extremes and the interval is rough (conservative in our calibration).
struct RatioEstimate {
  double ratio = 1.0;
  Interval interval;
};
RatioEstimate ratio_of_medians(std::span<const double> baseline, std::span<const double> candidate,
                               double confidence = 0.95);

// Hodges–Lehmann shift: the median of the m·n differences candidate_j - baseline_i, with the
// distribution-free interval [D_(k), D_(mn-k+1)] obtained by inverting the Mann–Whitney test
// (Hollander & Wolfe 1999, §4.3): k - 1 is the largest u with P(U <= u) <= (1 - c)/2, exact
// when both sizes are < 50, else k = ⌊mn/2 + 1/2 - z σ_U⌋ (normal, continuity-corrected).
// interval.confidence is the achieved coverage 1 - 2P(U <= k - 1) (exact or approximate).
// Valid for continuous data; ties make it slightly conservative. O((m+n) log(m+n)), no pair
// is materialised. Empty side: throws. Both sides of size 1: [shift, shift], confidence 0. Too
// few values to reach `confidence`: [min D, max D] with the coverage it has.
struct ShiftEstimate {
  double shift = 0.0;
  Interval interval;
};
ShiftEstimate hodges_lehmann_shift(std::span<const double> baseline,
                                   std::span<const double> candidate, double confidence = 0.95);

// Mann–Whitney U (Wilcoxon rank-sum) test.
// u is the candidate's U: #{(i, j): candidate_j > baseline_i} + ½ #{ties}, so that
// u/(m·n) estimates P(candidate > baseline) + ½ P(=) (the "probability of superiority").
// Exact: the permutation distribution of U (ranks.hpp). Asymptotic: z = (|u - mn/2| - ½)/σ_U,
// σ_U² = mn/12 · ((N + 1) - Σ(t³ - t)/(N(N - 1))), p = 2(1 - Φ(z)), at most 1 (scipy's
// mannwhitneyu with use_continuity=True). Explicit exact is refused (throws) when its work,
// (m·n)² cells, exceeds 4·10⁷ (about 20 × 300 values). Empty side: throws. Every value tied (σ_U =
// 0): p = 1, z = 0.
struct MannWhitneyResult {
  double u = 0.0;
  double probability_of_superiority = 0.5;  // u / (m·n)
  double z = 0.0;                           // 0 when exact
  double p_value = 1.0;
  bool exact = false;
};
MannWhitneyResult mann_whitney(std::span<const double> baseline, std::span<const double> candidate,
                               TestMethod method = TestMethod::automatic);

// Welch's unequal-variance t-test on the difference of means, candidate - baseline, with the
// Welch–Satterthwaite degrees of freedom and the matching t interval of the difference.
// Fewer than 2 values on a side: throws. Both variances 0: t = 0 and p = 1 when the means are
// equal; otherwise t = ±inf, p = 0, the interval collapses to the difference and
// degrees_of_freedom = m + n - 2.
struct WelchResult {
  double difference = 0.0;  // mean(candidate) - mean(baseline)
  Interval interval;        // of the difference, nominal level
  double t = 0.0;
  double degrees_of_freedom = 0.0;
  double p_value = 1.0;
};
WelchResult welch_t_test(std::span<const double> baseline, std::span<const double> candidate,
                         double confidence = 0.95);

// Brunner–Munzel test (Brunner & Munzel 2000) of H0: p = P(baseline < candidate) +
// ½ P(=) = ½, which unlike Mann–Whitney stays valid when the spreads differ (a noisier candidate
// with the same median is not flagged). Statistic W = (p̂ - ½)/se from placements, compared with a
// t distribution with Satterthwaite degrees of freedom (as scipy.stats.brunnermunzel).
// Fewer than 2 values on a side: throws. The variance estimate is 0 when every value ties
// (then W = 0, p = 1) or the samples separate completely; there the statistic is unbounded and
// we return W = ±inf, degrees_of_freedom = 0 and the smallest p-value any rank test can give,
// 2/C(m+n, m), so tiny samples are not declared different with certainty.
struct BrunnerMunzelResult {
  double probability_of_superiority = 0.5;  // p̂ = P(baseline < candidate) + ½ P(=)
  double statistic = 0.0;
  double degrees_of_freedom = 0.0;
  double p_value = 1.0;
};
BrunnerMunzelResult brunner_munzel(std::span<const double> baseline,
                                   std::span<const double> candidate);

}  // namespace benchkit::stats
