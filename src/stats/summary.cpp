#include "stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace benchkit::stats {

void require_finite(std::span<const double> values, const char* what, std::size_t min_size) {
  if (values.size() < min_size) {
    throw std::invalid_argument(std::string(what) + ": needs at least " + std::to_string(min_size) +
                                " value(s), got " + std::to_string(values.size()));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument(std::string(what) + ": value at index " + std::to_string(i) +
                                  " is not finite (" + std::to_string(values[i]) + ")");
    }
  }
}

double mean(std::span<const double> values) {
  require_finite(values, "mean");
  // Neumaier's compensated sum: the rounding error stays O(ε) instead of O(nε), which matters
  // when thousands of large nanosecond values are summed.
  double sum = 0.0;
  double compensation = 0.0;
  for (double value : values) {
    const double next = sum + value;
    compensation +=
        std::fabs(sum) >= std::fabs(value) ? (sum - next) + value : (value - next) + sum;
    sum = next;
  }
  return (sum + compensation) / static_cast<double>(values.size());
}

double variance(std::span<const double> values) {
  require_finite(values, "variance");
  if (values.size() < 2) return 0.0;
  double running_mean = 0.0;
  double m2 = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double delta = values[i] - running_mean;
    running_mean += delta / static_cast<double>(i + 1);
    m2 += delta * (values[i] - running_mean);
  }
  return m2 / static_cast<double>(values.size() - 1);
}

double stddev(std::span<const double> values) {
  return std::sqrt(variance(values));
}

double min(std::span<const double> values) {
  require_finite(values, "min");
  return *std::min_element(values.begin(), values.end());
}

double max(std::span<const double> values) {
  require_finite(values, "max");
  return *std::max_element(values.begin(), values.end());
}

std::vector<double> sorted_copy(std::span<const double> values) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

double quantile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) throw std::invalid_argument("quantile: needs at least 1 value, got 0");
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("quantile: p must lie in [0, 1], got " + std::to_string(p));
  }
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[upper] - sorted[lower]);
}

double quantile(std::span<const double> values, double p) {
  require_finite(values, "quantile");
  const auto sorted = sorted_copy(values);
  return quantile_sorted(sorted, p);
}

double median(std::span<const double> values) {
  require_finite(values, "median");
  return quantile(values, 0.5);
}

double median_in_place(std::span<double> values) {
  const std::size_t n = values.size();
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>((n - 1) / 2);
  std::nth_element(values.begin(), middle, values.end());
  const double low = *middle;
  // As quantile_sorted computes it at p = 0.5: low + (h - floor h) * (high - low).
  const double high = n % 2 == 0 ? *std::min_element(middle + 1, values.end()) : low;
  return low + (n % 2 == 0 ? 0.5 : 0.0) * (high - low);
}

double mad(std::span<const double> values) {
  require_finite(values, "mad");
  const double center = median(values);
  std::vector<double> deviations(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) deviations[i] = std::fabs(values[i] - center);
  // 1.4826 = 1 / Φ⁻¹(0.75): makes the MAD a consistent estimator of σ for normal data.
  return 1.4826 * median(deviations);
}

double iqr(std::span<const double> values) {
  require_finite(values, "iqr");
  const auto sorted = sorted_copy(values);
  return quantile_sorted(sorted, 0.75) - quantile_sorted(sorted, 0.25);
}

double coefficient_of_variation(std::span<const double> values) {
  const double m = mean(values);
  const double s = stddev(values);
  if (m == 0.0) {
    if (s == 0.0) return 0.0;
    throw std::invalid_argument("coefficient_of_variation: the mean is 0 and the spread is not");
  }
  return s / std::fabs(m);
}

double mdape(std::span<const double> values) {
  require_finite(values, "mdape");
  const double center = median(values);
  std::vector<double> errors;
  errors.reserve(values.size());
  for (double value : values) {
    if (value != 0.0) errors.push_back(std::fabs(value - center) / std::fabs(value));
  }
  if (errors.empty()) return 0.0;
  return median(errors);
}

TukeyCounts tukey_outliers(std::span<const double> values) {
  require_finite(values, "tukey_outliers", 0);
  TukeyCounts counts;
  if (values.size() < 4) return counts;
  const auto sorted = sorted_copy(values);
  const double q1 = quantile_sorted(sorted, 0.25);
  const double q3 = quantile_sorted(sorted, 0.75);
  const double range = q3 - q1;
  // 1.5 and 3 IQR: Tukey's (1977) inner and outer fences.
  counts.low_severe_fence = q1 - 3.0 * range;
  counts.low_mild_fence = q1 - 1.5 * range;
  counts.high_mild_fence = q3 + 1.5 * range;
  counts.high_severe_fence = q3 + 3.0 * range;
  for (double value : sorted) {
    if (value < counts.low_severe_fence) {
      ++counts.low_severe;
    } else if (value < counts.low_mild_fence) {
      ++counts.low_mild;
    } else if (value > counts.high_severe_fence) {
      ++counts.high_severe;
    } else if (value > counts.high_mild_fence) {
      ++counts.high_mild;
    }
  }
  return counts;
}

double outlier_variance(std::span<const double> values) {
  require_finite(values, "outlier_variance", 0);
  if (values.size() < 2) return 0.0;
  const double n = static_cast<double>(values.size());
  const double mu = mean(values);
  const double sigma_b = stddev(values);
  // The model is about durations: a non-positive mean leaves no scale for the "good" spread.
  if (sigma_b == 0.0 || mu <= 0.0) return 0.0;
  const double variance_b = sigma_b * sigma_b;
  // Haskell criterion's model (Analysis.outlierVariance, kept by Catch2): per-sample mean
  // μ_a = μ/n, the "good" samples have a mean of at least μ_g = μ_a/2, and a standard deviation
  // σ_g = min(μ_g/4, σ_b/√n), i.e. min(μ/(8n), σ_b/√n); c of the n samples are outliers.
  const double mu_a = mu / n;
  const double mu_g_min = mu_a / 2.0;
  const double sigma_g = std::min(mu_g_min / 4.0, sigma_b / std::sqrt(n));
  const double variance_g = sigma_g * sigma_g;
  // Variance left to the outliers when c of them are present: concave in n - c, so its minimum
  // over 1 <= c <= c_max lies at c = 1 or at c = c_max.
  auto var_out = [&](double c) {
    const double good = n - c;
    return (good / n) * (variance_b - good * variance_g);
  };
  // The largest outlier count c compatible with the observed σ_b when the good mean is x: the
  // root of σ_g² c² + k1 c + k0 = 0 (k1 = σ_b² - nσ_g² + n d, k0 = -n² d, d = (μ_a - x)²),
  // taken in the cancellation-free form -2k0 / (k1 + √det) and truncated to an integer.
  auto c_max = [&](double x) {
    const double gap = mu_a - x;
    const double d = gap * gap;
    const double k0 = -n * n * d;
    const double k1 = variance_b - n * variance_g + n * d;
    const double det = k1 * k1 - 4.0 * variance_g * k0;
    return std::trunc(-2.0 * k0 / (k1 + std::sqrt(det)));
  };
  // c_max <= n always holds (the root is at most -k0/k1 <= n); the clamp only guards rounding.
  const double c_limit = std::clamp(std::min(c_max(0.0), c_max(mu_g_min)), 1.0, n);
  const double share = std::min(var_out(1.0), var_out(c_limit)) / variance_b;
  return std::clamp(share, 0.0, 1.0);
}

}  // namespace benchkit::stats
