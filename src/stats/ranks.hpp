// Ranks with ties and the exact null distributions of the rank statistics built on them.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchkit::stats {

// Mid-ranks (1-based; tied values share the mean of the ranks they span, as scipy.stats.rankdata
// "average") and the tie term Σ(t³ - t) over groups of t tied values, which the normal
// approximations of rank tests subtract from their variance. Empty input: no ranks, term 0.
// NaN/inf: throws std::invalid_argument.
struct Ranking {
  std::vector<double> ranks;
  double tie_term = 0.0;  // Σ (t³ - t); 0 when all values are distinct
  bool has_ties() const { return tie_term > 0.0; }
};
Ranking rank_with_ties(std::span<const double> values);

// Null distribution of the Mann–Whitney U for sample sizes m and n without ties:
// P(U = u) for u = 0 .. m·n, from the recurrence p(u; a, b) = a/(a+b) p(u-b; a-1, b) +
// b/(a+b) p(u; a, b-1) (the largest value belongs to the first sample, or not), which adds
// positive terms only and so stays accurate where the counting form would overflow.
// Cost O(min(m,n) · max(m,n) · m·n) time, O(max(m,n) · m·n) memory: meant for m, n < 50.
// m or n of 0: the single point u = 0.
std::vector<double> mann_whitney_null_distribution(std::size_t m, std::size_t n);

// Null distribution of the Wilcoxon signed-rank statistic W+ for n non-zero differences without
// ties: P(W+ = w) for w = 0 .. n(n+1)/2, from p_k(w) = (p_{k-1}(w) + p_{k-1}(w - k)) / 2.
// O(n³) time: meant for n < 50. n = 0: the single point w = 0.
std::vector<double> signed_rank_null_distribution(std::size_t n);

// Two-sided p-value of a statistic `observed` under a discrete null distribution over 0, 1, ...,
// (given as probabilities): 2 · min(P(S <= observed), P(S >= observed)), at most 1. A half-integer
// `observed` (mid-ranks) is compared as it is.
double two_sided_discrete_p_value(std::span<const double> distribution, double observed);

}  // namespace benchkit::stats
