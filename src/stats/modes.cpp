#include "stats/modes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// The kernel is cut at 4 bandwidths, where exp(-8) ≈ 3·10⁻⁴ of its peak remains: far below the
// 10% height rule above.
constexpr double kernel_cutoff = 4.0;

}  // namespace

ModeResult kde_modes(std::span<const double> values, const ModeOptions& options) {
  require_finite(values, "kde_modes");
  if (options.grid_points < 3)
    throw std::invalid_argument("kde_modes: needs at least 3 grid points");
  if (!(options.bandwidth >= 0.0) || !std::isfinite(options.bandwidth)) {
    throw std::invalid_argument("kde_modes: bandwidth must be finite and >= 0");
  }
  std::vector<double> points(values.begin(), values.end());
  if (options.log_scale) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (!(points[i] > 0.0)) {
        throw std::invalid_argument("kde_modes: log_scale needs positive values; value at index " +
                                    std::to_string(i) + " is " + std::to_string(points[i]));
      }
      points[i] = std::log(points[i]);
    }
  }
  auto to_units = [&](double x) { return options.log_scale ? std::exp(x) : x; };
  std::sort(points.begin(), points.end());
  const std::size_t n = points.size();
  ModeResult result;
  if (points.front() == points.back()) {
    result.count = 1;
    result.locations = {values[0]};  // the value itself, not exp(log(value))
    result.heights = {1.0};
    return result;
  }
  double bandwidth = options.bandwidth;
  if (bandwidth == 0.0) {
    const double spread_sd = stddev(points);
    const double spread_iqr =
        (quantile_sorted(points, 0.75) - quantile_sorted(points, 0.25)) / 1.34;
    // With heavy ties the IQR can be 0 while the values still vary: fall back to s.
    const double spread = spread_iqr > 0.0 ? std::min(spread_sd, spread_iqr) : spread_sd;
    bandwidth = 0.9 * spread * std::pow(static_cast<double>(n), -0.2);
  }
  result.bandwidth = bandwidth;

  const std::size_t grid = options.grid_points;
  const double low = points.front() - 3.0 * bandwidth;
  const double high = points.back() + 3.0 * bandwidth;
  const double step = (high - low) / static_cast<double>(grid - 1);
  // Linear binning: each point splits its unit weight between its two neighbouring grid nodes.
  std::vector<double> weights(grid, 0.0);
  for (double x : points) {
    const double position = (x - low) / step;
    const auto left = std::min(static_cast<std::size_t>(position), grid - 2);
    const double fraction = position - static_cast<double>(left);
    weights[left] += 1.0 - fraction;
    weights[left + 1] += fraction;
  }
  const auto reach =
      std::min(grid - 1, static_cast<std::size_t>(std::ceil(kernel_cutoff * bandwidth / step)));
  std::vector<double> kernel(reach + 1);
  for (std::size_t offset = 0; offset <= reach; ++offset) {
    const double u = static_cast<double>(offset) * step / bandwidth;
    kernel[offset] = std::exp(-0.5 * u * u);
  }
  std::vector<double> density(grid, 0.0);
  for (std::size_t node = 0; node < grid; ++node) {
    if (weights[node] == 0.0) continue;
    const std::size_t first = node >= reach ? node - reach : 0;
    const std::size_t last = std::min(grid - 1, node + reach);
    for (std::size_t i = first; i <= last; ++i) {
      density[i] += weights[node] * kernel[i > node ? i - node : node - i];
    }
  }

  const double highest = *std::max_element(density.begin(), density.end());
  std::vector<std::size_t> peaks;
  for (std::size_t i = 1; i + 1 < grid; ++i) {
    // A plateau counts once, at its left end.
    if (density[i] > density[i - 1] && density[i] >= density[i + 1] &&
        density[i] >= options.min_relative_height * highest) {
      peaks.push_back(i);
    }
  }
  // Merge neighbours without a deep enough valley, dropping the lower peak, until none is left.
  bool merged = true;
  while (merged && peaks.size() > 1) {
    merged = false;
    for (std::size_t k = 0; k + 1 < peaks.size(); ++k) {
      const std::size_t a = peaks[k];
      const std::size_t b = peaks[k + 1];
      const double valley = *std::min_element(density.begin() + static_cast<std::ptrdiff_t>(a),
                                              density.begin() + static_cast<std::ptrdiff_t>(b) + 1);
      if (valley > (1.0 - options.min_dip) * std::min(density[a], density[b])) {
        peaks.erase(peaks.begin() +
                    static_cast<std::ptrdiff_t>(density[a] >= density[b] ? k + 1 : k));
        merged = true;
        break;
      }
    }
  }
  result.count = peaks.size();
  for (std::size_t peak : peaks) {
    result.locations.push_back(to_units(low + static_cast<double>(peak) * step));
    result.heights.push_back(density[peak] / highest);
  }
  return result;
}

double bimodality_coefficient(std::span<const double> values) {
  require_finite(values, "bimodality_coefficient", 0);
  const std::size_t size = values.size();
  if (size < 4) return 0.0;
  const double centre = mean(values);
  double m2 = 0.0;
  double m3 = 0.0;
  double m4 = 0.0;
  for (double value : values) {
    const double d = value - centre;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  const auto n = static_cast<double>(size);
  m2 /= n;
  m3 /= n;
  m4 /= n;
  if (m2 == 0.0) return 0.0;
  // Bias-corrected sample skewness G1 and excess kurtosis G2 (Joanes & Gill 1998, as SAS).
  const double g1 = m3 / std::pow(m2, 1.5);
  const double skewness = g1 * std::sqrt(n * (n - 1.0)) / (n - 2.0);
  const double g2 = m4 / (m2 * m2) - 3.0;
  const double kurtosis = ((n + 1.0) * g2 + 6.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0));
  return (skewness * skewness + 1.0) /
         (kurtosis + 3.0 * (n - 1.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0)));
}

}  // namespace benchkit::stats

namespace benchkit::stats {
namespace {

// Critical values of d (process_states) for n standard normal values: the 99th percentile for
// two groups, the 99.5th for three and four (so that one state passes for several in about 2%
// of sets at most, whatever the count tried), over the best partition whose groups keep
// max(1, ceil(n / 10)) values each; 40,000 seeded sets per n (10,000 from n = 50).
struct CriticalPoint {
  double n;
  double two;
  double three;
  double four;
};
constexpr double kNever = 1e9;
constexpr CriticalPoint kCritical[] = {
    {5, 14.39, 33.33, kNever}, {6, 10.22, 15.97, 32.50}, {7, 8.61, 11.27, 14.65},
    {8, 7.51, 8.82, 10.21},    {10, 6.32, 6.83, 7.16},   {12, 5.47, 5.56, 5.14},
    {15, 4.98, 5.14, 4.80},    {20, 4.48, 4.63, 4.47},   {30, 3.99, 4.17, 4.03},
    {50, 3.54, 3.75, 3.71},    {90, 3.26, 3.48, 3.50},   {150, 3.09, 3.31, 3.33}};

double critical_at(const CriticalPoint& point, std::size_t states) {
  return states == 2 ? point.two : states == 3 ? point.three : point.four;
}

// Prefix sums of sorted values, for the within-group sum of squares of any range.
struct Prefix {
  std::vector<double> sum{0.0};
  std::vector<double> squares{0.0};
  explicit Prefix(const std::vector<double>& x) {
    for (const double v : x) {
      sum.push_back(sum.back() + v);
      squares.push_back(squares.back() + v * v);
    }
  }
  double mean(std::size_t first, std::size_t last) const {
    return (sum[last] - sum[first]) / static_cast<double>(last - first);
  }
  double within(std::size_t first, std::size_t last) const {
    const double m = mean(first, last);
    return squares[last] - squares[first] - static_cast<double>(last - first) * m * m;
  }
};

// The partition of sorted x into k contiguous groups of at least min_group values with the
// smallest within-group sum of squares (one-dimensional k-means, exact by dynamic programming,
// O(k n^2)): the group boundaries, 0 first and n last.
std::vector<std::size_t> best_partition(const Prefix& prefix, std::size_t n, std::size_t k,
                                        std::size_t min_group) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(k + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<std::size_t>> from(k + 1, std::vector<std::size_t>(n + 1, 0));
  cost[0][0] = 0.0;
  for (std::size_t g = 1; g <= k; ++g) {
    for (std::size_t end = g * min_group; end <= n; ++end) {
      for (std::size_t start = (g - 1) * min_group; start + min_group <= end; ++start) {
        if (cost[g - 1][start] == inf) continue;
        const double c = cost[g - 1][start] + prefix.within(start, end);
        if (c < cost[g][end]) {
          cost[g][end] = c;
          from[g][end] = start;
        }
      }
    }
  }
  std::vector<std::size_t> cuts{n};
  for (std::size_t g = k, end = n; g >= 1; --g) {
    end = from[g][end];
    cuts.push_back(end);
  }
  std::reverse(cuts.begin(), cuts.end());
  return cuts;
}

// The smallest distance between the means of neighbouring groups, in pooled within-group
// standard deviations (n - k degrees of freedom).
double smallest_separation(const Prefix& prefix, const std::vector<std::size_t>& cuts) {
  const std::size_t k = cuts.size() - 1;
  const std::size_t n = cuts.back();
  double within = 0.0;
  for (std::size_t g = 0; g < k; ++g) within += prefix.within(cuts[g], cuts[g + 1]);
  const double s = std::sqrt(std::max(within, 0.0) / static_cast<double>(n - k));
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; g + 1 < k; ++g) {
    const double gap = prefix.mean(cuts[g + 1], cuts[g + 2]) - prefix.mean(cuts[g], cuts[g + 1]);
    smallest = std::min(smallest, s > 0 ? gap / s : std::numeric_limits<double>::infinity());
  }
  return smallest;
}

double median_of_range(const std::vector<double>& sorted, std::size_t first, std::size_t last) {
  const std::size_t n = last - first;
  const std::size_t mid = first + n / 2;
  return n % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

// Neighbouring groups whose medians differ by less than min_separation: too close to matter.
bool separated(const std::vector<double>& sorted, const std::vector<std::size_t>& cuts,
               double min_separation) {
  for (std::size_t g = 0; g + 2 < cuts.size(); ++g) {
    const double lower = median_of_range(sorted, cuts[g], cuts[g + 1]);
    const double upper = median_of_range(sorted, cuts[g + 1], cuts[g + 2]);
    if (upper / lower - 1.0 < min_separation) return false;
  }
  return true;
}

}  // namespace

double process_split_critical_value(std::size_t n, std::size_t states) {
  if (n < 5) throw std::invalid_argument("process_split_critical_value: needs n >= 5");
  if (states < 2 || states > 4) {
    throw std::invalid_argument("process_split_critical_value: states must be 2, 3 or 4");
  }
  const double x = static_cast<double>(n);
  const std::size_t points = std::size(kCritical);
  if (x >= kCritical[points - 1].n) return critical_at(kCritical[points - 1], states);
  std::size_t i = 0;
  while (x > kCritical[i + 1].n) ++i;
  const double low = critical_at(kCritical[i], states);
  const double high = critical_at(kCritical[i + 1], states);
  if (low >= kNever) return kNever;
  const double t = (std::log(x) - std::log(kCritical[i].n)) /
                   (std::log(kCritical[i + 1].n) - std::log(kCritical[i].n));
  return low + t * (high - low);
}

std::vector<ProcessState> process_states(std::span<const double> values,
                                         const ProcessStateOptions& options) {
  std::vector<double> sorted(values.begin(), values.end());
  for (const double v : sorted) {
    if (!std::isfinite(v) || v <= 0) {
      throw std::invalid_argument("process_states: values must be finite and > 0");
    }
  }
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  std::vector<std::size_t> cuts{0, n};
  if (n >= std::max<std::size_t>(options.min_processes, 5)) {
    std::vector<double> logs;
    for (const double v : sorted) logs.push_back(std::log(v));
    const Prefix prefix(logs);
    const auto min_group = std::max<std::size_t>(
        std::max<std::size_t>(1, options.min_state_processes),
        static_cast<std::size_t>(std::ceil(options.min_share * static_cast<double>(n) - 1e-9)));
    for (std::size_t k = std::min<std::size_t>(options.max_states, 4); k >= 2; --k) {
      // Three or four states need two processes in each: a lone process has no spread of its
      // own, so a state with a wide spread would otherwise break into single processes, each
      // "apart" by the tight spread of the other states (critical values from the partitions
      // with singletons are then conservative).
      const std::size_t smallest = k == 2 ? min_group : std::max<std::size_t>(min_group, 2);
      if (k * smallest > n || n < k + 2) continue;
      std::vector<std::size_t> partition = best_partition(prefix, n, k, smallest);
      if (smallest_separation(prefix, partition) < process_split_critical_value(n, k)) continue;
      if (!separated(sorted, partition, options.min_separation)) continue;
      cuts = std::move(partition);
      break;
    }
  }
  std::vector<ProcessState> states;
  for (std::size_t g = 0; g + 1 < cuts.size(); ++g) {
    const std::size_t first = cuts[g];
    const std::size_t last = cuts[g + 1];
    if (first == last) continue;
    states.push_back(ProcessState{sorted[first], sorted[last - 1],
                                  median_of_range(sorted, first, last), last - first});
  }
  return states;
}

}  // namespace benchkit::stats
