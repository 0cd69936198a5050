#include "stats/pairwise.hpp"

#include <bit>
#include <cstdint>
#include <functional>

namespace benchkit::stats {
namespace {

// A bijection from doubles to unsigned integers that preserves order (for finite values):
// positives get the top bit set, negatives are bit-flipped so that larger magnitudes sort lower.
std::uint64_t order_key(double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  constexpr std::uint64_t sign = std::uint64_t{1} << 63;
  return (bits & sign) != 0 ? ~bits : bits | sign;
}

double from_order_key(std::uint64_t key) {
  constexpr std::uint64_t sign = std::uint64_t{1} << 63;
  return std::bit_cast<double>((key & sign) != 0 ? key & ~sign : ~key);
}

// The smallest double d in [low, high] with count_at_most(d) >= k, given that count_at_most is
// non-decreasing, steps only at candidate values and reaches k at `high`.
double smallest_with_count(double low, double high, std::size_t k,
                           const std::function<std::size_t(double)>& count_at_most) {
  std::uint64_t low_key = order_key(low);
  std::uint64_t high_key = order_key(high);
  if (count_at_most(low) >= k) return low + 0.0;
  // Invariant: count(low_key) < k <= count(high_key).
  while (high_key - low_key > 1) {
    const std::uint64_t middle = low_key + (high_key - low_key) / 2;
    if (count_at_most(from_order_key(middle)) >= k) {
      high_key = middle;
    } else {
      low_key = middle;
    }
  }
  return from_order_key(high_key) + 0.0;  // + 0.0 turns a -0 into +0
}

}  // namespace

double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k) {
  const std::size_t m = sorted_x.size();
  auto count_at_most = [&](double d) {
    // For a fixed y_j, y_j - x_i falls as i grows; the first i with y_j - x_i <= d moves right
    // as y_j grows, so one forward pointer serves all j.
    std::size_t count = 0;
    std::size_t first = 0;
    for (double y : sorted_y) {
      while (first < m && y - sorted_x[first] > d) ++first;
      count += m - first;
    }
    return count;
  };
  const double low = sorted_y.front() - sorted_x.back();
  const double high = sorted_y.back() - sorted_x.front();
  return smallest_with_count(low, high, k, count_at_most);
}

double kth_walsh_average(std::span<const double> sorted, std::size_t k) {
  const std::size_t n = sorted.size();
  auto count_at_most = [&](double d) {
    // For each i, the pairs (i, j >= i) with (x_i + x_j)/2 <= d are j in [i, last(i)]; last(i)
    // only moves left as i grows.
    std::size_t count = 0;
    std::size_t last = n;  // one past the last admissible j
    for (std::size_t i = 0; i < n; ++i) {
      while (last > i && (sorted[i] + sorted[last - 1]) * 0.5 > d) --last;
      if (last <= i) break;
      count += last - i;
    }
    return count;
  };
  const double low = sorted.front();
  const double high = sorted.back();
  return smallest_with_count(low, high, k, count_at_most);
}

}  // namespace benchkit::stats
