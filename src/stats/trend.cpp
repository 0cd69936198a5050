#include "stats/trend.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/ranks.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// Sorts values[begin, end) and returns the number of pairs i < j with values[i] > values[j]
// (strict inversions), by merge sort.
double count_inversions(std::vector<double>& values, std::vector<double>& buffer, std::size_t begin,
                        std::size_t end) {
  if (end - begin < 2) return 0.0;
  const std::size_t middle = begin + (end - begin) / 2;
  double inversions = count_inversions(values, buffer, begin, middle) +
                      count_inversions(values, buffer, middle, end);
  std::size_t left = begin;
  std::size_t right = middle;
  std::size_t out = begin;
  while (left < middle && right < end) {
    if (values[left] <= values[right]) {
      buffer[out++] = values[left++];
    } else {
      // Every value still waiting on the left is strictly greater than values[right].
      inversions += static_cast<double>(middle - left);
      buffer[out++] = values[right++];
    }
  }
  while (left < middle) buffer[out++] = values[left++];
  while (right < end) buffer[out++] = values[right++];
  std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(begin),
            buffer.begin() + static_cast<std::ptrdiff_t>(end),
            values.begin() + static_cast<std::ptrdiff_t>(begin));
  return inversions;
}

}  // namespace

TrendResult mann_kendall(std::span<const double> values) {
  require_finite(values, "mann_kendall", 0);
  TrendResult result;
  const std::size_t n = values.size();
  if (n < 2) return result;
  std::vector<double> sorted(values.begin(), values.end());
  std::vector<double> buffer(n);
  const double discordant = count_inversions(sorted, buffer, 0, n);
  // Tie groups, read off the now sorted values.
  double tied_pairs = 0.0;
  double tie_variance = 0.0;
  for (std::size_t start = 0; start < n;) {
    std::size_t end = start + 1;
    while (end < n && sorted[end] == sorted[start]) ++end;
    const auto t = static_cast<double>(end - start);
    tied_pairs += t * (t - 1.0) / 2.0;
    tie_variance += t * (t - 1.0) * (2.0 * t + 5.0);
    start = end;
  }
  const auto count = static_cast<double>(n);
  const double pairs = count * (count - 1.0) / 2.0;
  const double concordant = pairs - discordant - tied_pairs;
  result.s = concordant - discordant;
  if (pairs - tied_pairs > 0.0) result.tau = result.s / std::sqrt(pairs * (pairs - tied_pairs));
  const double variance = (count * (count - 1.0) * (2.0 * count + 5.0) - tie_variance) / 18.0;
  if (n < 3 || !(variance > 0.0) || result.s == 0.0) return result;
  result.z = (result.s - std::copysign(1.0, result.s)) / std::sqrt(variance);
  result.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(
                                           boost::math::normal(), std::fabs(result.z))));
  return result;
}

double sen_slope(std::span<const double> values) {
  require_finite(values, "sen_slope", 0);
  const std::size_t n = values.size();
  if (n < 2) return 0.0;
  std::vector<double> slopes;
  slopes.reserve(n * (n - 1) / 2);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      slopes.push_back((values[j] - values[i]) / static_cast<double>(j - i));
    }
  }
  std::sort(slopes.begin(), slopes.end());
  return quantile_sorted(slopes, 0.5);
}

CorrelationResult spearman(std::span<const double> x, std::span<const double> y) {
  require_finite(x, "spearman (x)", 0);
  require_finite(y, "spearman (y)", 0);
  if (x.size() != y.size()) {
    throw std::invalid_argument("spearman: x and y need equal sizes, got " +
                                std::to_string(x.size()) + " and " + std::to_string(y.size()));
  }
  CorrelationResult result;
  const std::size_t n = x.size();
  if (n < 3) return result;
  const auto x_ranks = rank_with_ties(x).ranks;
  const auto y_ranks = rank_with_ties(y).ranks;
  const double centre = (static_cast<double>(n) + 1.0) / 2.0;  // mean of any set of mid-ranks
  double xy = 0.0;
  double xx = 0.0;
  double yy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x_ranks[i] - centre;
    const double dy = y_ranks[i] - centre;
    xy += dx * dy;
    xx += dx * dx;
    yy += dy * dy;
  }
  if (xx == 0.0 || yy == 0.0) return result;
  result.coefficient = std::clamp(xy / std::sqrt(xx * yy), -1.0, 1.0);
  const double remaining = 1.0 - result.coefficient * result.coefficient;
  if (remaining <= 0.0) {
    result.p_value = 0.0;
    return result;
  }
  const double degrees = static_cast<double>(n) - 2.0;
  const double t = result.coefficient * std::sqrt(degrees / remaining);
  result.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(
                                           boost::math::students_t(degrees), std::fabs(t))));
  return result;
}

LinearFit least_squares(std::span<const double> x, std::span<const double> y) {
  require_finite(x, "least_squares (x)", 3);
  require_finite(y, "least_squares (y)", 3);
  if (x.size() != y.size()) {
    throw std::invalid_argument("least_squares: x and y need equal sizes, got " +
                                std::to_string(x.size()) + " and " + std::to_string(y.size()));
  }
  const double x_mean = mean(x);
  const double y_mean = mean(y);
  double sxx = 0.0;
  double sxy = 0.0;
  double syy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double dx = x[i] - x_mean;
    const double dy = y[i] - y_mean;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx == 0.0) {
    throw std::invalid_argument("least_squares: x is constant, so the slope is undefined");
  }
  LinearFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = y_mean - fit.slope * x_mean;
  double residual_squares = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double residual = y[i] - (fit.intercept + fit.slope * x[i]);
    residual_squares += residual * residual;
  }
  fit.r_squared = syy == 0.0 ? 1.0 : std::clamp(1.0 - residual_squares / syy, 0.0, 1.0);
  const double degrees = static_cast<double>(x.size()) - 2.0;
  fit.slope_standard_error = std::sqrt(residual_squares / degrees / sxx);
  return fit;
}

RunsResult runs_test(std::span<const std::size_t> labels) {
  RunsResult result;
  if (labels.empty()) return result;
  result.runs = 1;
  for (std::size_t i = 1; i < labels.size(); ++i) {
    if (labels[i] != labels[i - 1]) ++result.runs;
  }
  std::vector<double> counts;
  for (const std::size_t label : labels) {
    if (label >= counts.size()) counts.resize(label + 1, 0.0);
    counts[label] += 1.0;
  }
  const auto n = static_cast<double>(labels.size());
  double squares = 0.0;
  double cubes = 0.0;
  for (const double c : counts) {
    squares += c * c;
    cubes += c * c * c;
  }
  result.expected = 1.0 + (n * n - squares) / n;
  if (labels.size() < 2) return result;
  const double variance =
      (squares * (squares + n * (n + 1.0)) - 2.0 * n * cubes - n * n * n) / (n * n * (n - 1.0));
  if (!(variance > 0.0)) return result;  // one category: every order is the same
  result.z = (static_cast<double>(result.runs) - result.expected) / std::sqrt(variance);
  result.clustered_p_value = boost::math::cdf(boost::math::normal(), result.z);
  return result;
}

}  // namespace benchkit::stats
