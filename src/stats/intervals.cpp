#include "stats/intervals.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/summary.hpp"

namespace benchkit::stats {

OrderStatisticRank median_ci_rank(std::size_t n, double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument("median_ci: confidence must lie in (0, 1), got " +
                                std::to_string(confidence));
  }
  OrderStatisticRank rank;
  if (n < 2) return rank;
  // Binomial(n, 1/2) probabilities in log space: n can be large (thousands of samples).
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  auto probability = [&](std::size_t i) {
    return std::exp(std::lgamma(static_cast<double>(n) + 1.0) -
                    std::lgamma(static_cast<double>(i) + 1.0) -
                    std::lgamma(static_cast<double>(n - i) + 1.0) + log_half_n);
  };
  // Coverage of [x_(k), x_(n-k+1)] is 1 - 2 P(B <= k-1): it holds the median unless fewer
  // than k values fall on one side of it. Grow k while the coverage stays at least `confidence`.
  double tail = probability(0);  // P(B <= k-1) for k = 1
  rank.k = 1;
  rank.coverage = 1.0 - 2.0 * tail;
  for (std::size_t k = 1; k < (n + 1) / 2; ++k) {
    const double next_tail = tail + probability(k);  // P(B <= k), for rank k + 1
    const double next_coverage = 1.0 - 2.0 * next_tail;
    if (next_coverage < confidence) break;
    tail = next_tail;
    rank.k = k + 1;
    rank.coverage = next_coverage;
  }
  return rank;
}

Interval median_ci_sorted(std::span<const double> sorted, double confidence) {
  require_finite(sorted, "median_ci");
  const std::size_t n = sorted.size();
  if (n == 1) return Interval{sorted[0], sorted[0], 0.0};
  const OrderStatisticRank rank = median_ci_rank(n, confidence);
  return Interval{sorted[rank.k - 1], sorted[n - rank.k], rank.coverage};
}

Interval median_ci(std::span<const double> values, double confidence) {
  require_finite(values, "median_ci");
  const auto sorted = sorted_copy(values);
  return median_ci_sorted(sorted, confidence);
}

}  // namespace benchkit::stats
