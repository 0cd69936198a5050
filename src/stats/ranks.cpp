#include "stats/ranks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/summary.hpp"

namespace benchkit::stats {

Ranking rank_with_ties(std::span<const double> values) {
  require_finite(values, "rank_with_ties", 0);
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  Ranking ranking;
  ranking.ranks.resize(n);
  std::size_t start = 0;
  while (start < n) {
    std::size_t end = start + 1;
    while (end < n && values[order[end]] == values[order[start]]) ++end;
    // Ranks start+1 .. end share their mean.
    const double shared = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
    for (std::size_t i = start; i < end; ++i) ranking.ranks[order[i]] = shared;
    const auto tied = static_cast<double>(end - start);
    ranking.tie_term += tied * tied * tied - tied;
    start = end;
  }
  return ranking;
}

std::vector<double> mann_whitney_null_distribution(std::size_t m, std::size_t n) {
  // The distribution is symmetric in the roles of the two samples: keep the outer loop short.
  if (m > n) std::swap(m, n);
  const std::size_t max_u = m * n;
  // previous[b] holds p(.; a - 1, b) and current[b] holds p(.; a, b), each over u = 0 .. max_u.
  std::vector<std::vector<double>> previous(n + 1, std::vector<double>(max_u + 1, 0.0));
  for (auto& row : previous) row[0] = 1.0;  // a = 0: U = 0 for every b
  for (std::size_t a = 1; a <= m; ++a) {
    std::vector<std::vector<double>> current(n + 1, std::vector<double>(max_u + 1, 0.0));
    current[0][0] = 1.0;  // b = 0: U = 0
    for (std::size_t b = 1; b <= n; ++b) {
      const double first_wins = static_cast<double>(a) / static_cast<double>(a + b);
      const double second_wins = 1.0 - first_wins;
      const std::size_t reach = a * b;
      for (std::size_t u = 0; u <= reach; ++u) {
        const double from_first = u >= b ? previous[b][u - b] : 0.0;
        current[b][u] = first_wins * from_first + second_wins * current[b - 1][u];
      }
    }
    previous = std::move(current);
  }
  return previous[n];
}

std::vector<double> signed_rank_null_distribution(std::size_t n) {
  const std::size_t max_w = n * (n + 1) / 2;
  std::vector<double> distribution(max_w + 1, 0.0);
  distribution[0] = 1.0;
  std::size_t reach = 0;
  for (std::size_t k = 1; k <= n; ++k) {
    reach += k;
    // Descending w so that distribution[w - k] still holds p_{k-1}.
    for (std::size_t w = reach + 1; w-- > 0;) {
      const double with_k = w >= k ? distribution[w - k] : 0.0;
      distribution[w] = 0.5 * (distribution[w] + with_k);
    }
  }
  return distribution;
}

double two_sided_discrete_p_value(std::span<const double> distribution, double observed) {
  double lower = 0.0;  // P(S <= observed)
  double upper = 0.0;  // P(S >= observed)
  for (std::size_t s = 0; s < distribution.size(); ++s) {
    const auto value = static_cast<double>(s);
    if (value <= observed) lower += distribution[s];
    if (value >= observed) upper += distribution[s];
  }
  return std::min(1.0, 2.0 * std::min(lower, upper));
}

}  // namespace benchkit::stats
