#include "stats/multiple.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace benchkit::stats {
namespace {

// Indices of `p_values` by ascending p (stable, so equal p-values keep their order), after
// checking that each is a probability.
std::vector<std::size_t> ascending_order(std::span<const double> p_values, const char* what) {
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!(p_values[i] >= 0.0 && p_values[i] <= 1.0)) {
      throw std::invalid_argument(std::string(what) + ": p-value at index " + std::to_string(i) +
                                  " is not in [0, 1] (" + std::to_string(p_values[i]) + ")");
    }
  }
  std::vector<std::size_t> order(p_values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  return order;
}

}  // namespace

std::vector<double> holm_adjusted(std::span<const double> p_values) {
  const auto order = ascending_order(p_values, "holm_adjusted");
  const std::size_t m = p_values.size();
  std::vector<double> adjusted(m);
  double running_max = 0.0;
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double scaled = static_cast<double>(m - rank) * p_values[order[rank]];
    running_max = std::max(running_max, std::min(1.0, scaled));
    adjusted[order[rank]] = running_max;
  }
  return adjusted;
}

std::vector<double> benjamini_hochberg_adjusted(std::span<const double> p_values) {
  const auto order = ascending_order(p_values, "benjamini_hochberg_adjusted");
  const std::size_t m = p_values.size();
  std::vector<double> adjusted(m);
  double running_min = 1.0;
  for (std::size_t rank = m; rank-- > 0;) {
    const double scaled =
        static_cast<double>(m) * p_values[order[rank]] / static_cast<double>(rank + 1);
    running_min = std::min(running_min, std::min(1.0, scaled));
    adjusted[order[rank]] = running_min;
  }
  return adjusted;
}

}  // namespace benchkit::stats
