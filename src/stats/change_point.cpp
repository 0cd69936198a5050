#include "stats/change_point.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

struct Split {
  std::size_t index = 0;  // absolute index of the first point of the right part
  double statistic = 0.0;
  bool found = false;
};

// The best split of values[begin, end) with both parts at least `min_segment` long. O(κ²): the
// three distance sums are updated as one point at a time moves from the right part to the left.
Split best_split(std::span<const double> values, std::size_t begin, std::size_t end,
                 std::size_t min_segment) {
  Split best;
  const std::size_t length = end - begin;
  if (length < 2 * min_segment) return best;
  const auto segment = values.subspan(begin, length);
  // left_sum: Σ|x_i - x_j| over pairs inside the left part; right_sum inside the right part;
  // cross_sum between the parts. Start with an empty left part.
  double left_sum = 0.0;
  double right_sum = 0.0;
  double cross_sum = 0.0;
  for (std::size_t i = 0; i < length; ++i) {
    for (std::size_t j = i + 1; j < length; ++j) right_sum += std::fabs(segment[i] - segment[j]);
  }
  const auto kappa = static_cast<double>(length);
  for (std::size_t tau = 1; tau + min_segment <= length; ++tau) {
    // Move point tau - 1 from the right part to the left.
    const std::size_t moving = tau - 1;
    double to_left = 0.0;
    double to_right = 0.0;
    for (std::size_t i = 0; i < moving; ++i) to_left += std::fabs(segment[i] - segment[moving]);
    for (std::size_t j = moving + 1; j < length; ++j) {
      to_right += std::fabs(segment[j] - segment[moving]);
    }
    left_sum += to_left;
    right_sum -= to_right;
    cross_sum += to_right - to_left;
    if (tau < min_segment) continue;
    const auto left_count = static_cast<double>(tau);
    const auto right_count = kappa - left_count;
    const double between = 2.0 * cross_sum / (left_count * right_count);
    const double within_left =
        left_count > 1 ? 2.0 * left_sum / (left_count * (left_count - 1)) : 0;
    const double within_right =
        right_count > 1 ? 2.0 * right_sum / (right_count * (right_count - 1)) : 0;
    const double statistic =
        left_count * right_count / kappa * (between - within_left - within_right);
    if (!best.found || statistic > best.statistic) {
      best = Split{begin + tau, statistic, true};
    }
  }
  return best;
}

// The best split over all segments delimited by `bounds` (sorted, first 0, last n).
Split best_over_segments(std::span<const double> values, const std::vector<std::size_t>& bounds,
                         std::size_t min_segment) {
  Split best;
  for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
    const Split split = best_split(values, bounds[s], bounds[s + 1], min_segment);
    if (split.found && (!best.found || split.statistic > best.statistic)) best = split;
  }
  return best;
}

}  // namespace

std::vector<ChangePoint> e_divisive(std::span<const double> values,
                                    const ChangePointOptions& options) {
  require_finite(values, "e_divisive", 0);
  if (options.min_segment == 0) throw std::invalid_argument("e_divisive: min_segment must be >= 1");
  if (!(options.alpha > 0.0 && options.alpha < 1.0)) {
    throw std::invalid_argument("e_divisive: alpha must lie in (0, 1)");
  }
  const std::size_t n = values.size();
  std::vector<ChangePoint> found;
  if (n < 2 * options.min_segment) return found;
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  if (*lowest == *highest) return found;

  Xoshiro256 generator(options.seed);
  std::vector<std::size_t> bounds = {0, n};
  std::vector<double> shuffled(values.begin(), values.end());
  while (found.size() < options.max_change_points) {
    const Split candidate = best_over_segments(values, bounds, options.min_segment);
    if (!candidate.found) break;
    std::size_t at_least_as_large = 0;
    for (std::size_t p = 0; p < options.permutations; ++p) {
      std::copy(values.begin(), values.end(), shuffled.begin());
      // Fisher–Yates within each current segment: the null is "no further change inside any".
      for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
        for (std::size_t i = bounds[s + 1] - 1; i > bounds[s]; --i) {
          const std::size_t j = bounds[s] + generator.below(i - bounds[s] + 1);
          std::swap(shuffled[i], shuffled[j]);
        }
      }
      const Split permuted = best_over_segments(shuffled, bounds, options.min_segment);
      if (permuted.found && permuted.statistic >= candidate.statistic) ++at_least_as_large;
    }
    const double p_value = (1.0 + static_cast<double>(at_least_as_large)) /
                           (1.0 + static_cast<double>(options.permutations));
    if (p_value > options.alpha) break;
    ChangePoint point;
    point.index = candidate.index;
    point.statistic = candidate.statistic;
    point.p_value = p_value;
    found.push_back(point);
    bounds.insert(std::upper_bound(bounds.begin(), bounds.end(), candidate.index), candidate.index);
  }
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  // Magnitudes between neighbouring changes (bounds is sorted and holds them all).
  for (auto& point : found) {
    const auto at = std::lower_bound(bounds.begin(), bounds.end(), point.index);
    const std::size_t begin = *(at - 1);
    const std::size_t end = *(at + 1);
    point.mean_before = mean(values.subspan(begin, point.index - begin));
    point.mean_after = mean(values.subspan(point.index, end - point.index));
    point.relative_change =
        point.mean_before != 0.0 ? point.mean_after / point.mean_before - 1.0 : 0.0;
  }
  return found;
}

}  // namespace benchkit::stats
