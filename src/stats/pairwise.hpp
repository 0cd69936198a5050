// Order statistics of pairwise differences and of Walsh averages without materialising the pairs,
// for the Hodges–Lehmann estimates and their intervals (m·n pairs would not fit in memory for
// 100,000 values per side).
#pragma once

#include <cstddef>
#include <span>

namespace benchkit::stats {

// The k-th smallest (1-based, 1 <= k <= m·n) of the m·n differences y_j - x_i, both inputs
// sorted ascending, non-empty and finite (not checked). The differences are compared exactly as
// computed in double precision, so the result is one of them, bit for bit.
// Method: bisection over the ordered bit patterns of doubles (at most 64 rounds), each round
// counting the differences <= d in O(m + n) with two pointers; O((m + n) · 64) in all.
double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k);

// The k-th smallest (1-based, 1 <= k <= n(n+1)/2) of the Walsh averages (x_i + x_j)/2, i <= j,
// of `sorted` (ascending, non-empty, finite; not checked). Same method and cost as above.
double kth_walsh_average(std::span<const double> sorted, std::size_t k);

}  // namespace benchkit::stats
