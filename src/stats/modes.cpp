#include "stats/modes.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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
