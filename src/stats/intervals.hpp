// Confidence intervals that assume nothing about the distribution.
#pragma once

#include <cstddef>
#include <span>

namespace benchkit::stats {

struct Interval {
  double lower = 0.0;
  double upper = 0.0;
  double confidence = 0.0;  // the coverage actually achieved (order statistics are discrete)
};

// Distribution-free CI of the median from order statistics: with B ~ Binomial(n, 1/2), the
// interval [x_(k), x_(n-k+1)] covers the median with probability P(k <= B <= n-k); k is the
// largest index whose coverage is still >= `confidence`. Exact for continuous data, for any n.
// n = 1: [x, x] with confidence 0. n too small to reach `confidence` (n <= 5 at 95%):
// [min, max] with the coverage it has. `confidence` must lie in (0, 1). NaN/inf: throws.
Interval median_ci(std::span<const double> values, double confidence = 0.95);
// Same, for values already sorted ascending.
Interval median_ci_sorted(std::span<const double> sorted, double confidence = 0.95);

// The 1-based rank k used by median_ci for n values and its achieved coverage.
struct OrderStatisticRank {
  std::size_t k = 1;
  double coverage = 0.0;
};
OrderStatisticRank median_ci_rank(std::size_t n, double confidence);

}  // namespace benchkit::stats
