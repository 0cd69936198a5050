#include "stats/power.hpp"

#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// Power of the two-sided t-test with `degrees_of_freedom` at noncentrality `lambda`.
double t_test_power(double lambda, double degrees_of_freedom, double critical) {
  const boost::math::non_central_t shifted(degrees_of_freedom, lambda);
  return boost::math::cdf(boost::math::complement(shifted, critical)) +
         boost::math::cdf(shifted, -critical);
}

}  // namespace

DetectableChange minimum_detectable_change(double baseline_log_spread, std::size_t baseline_count,
                                           double candidate_log_spread, std::size_t candidate_count,
                                           double alpha, double power) {
  if (baseline_count < 2 || candidate_count < 2) {
    throw std::invalid_argument("minimum_detectable_change: needs at least 2 values a side, got " +
                                std::to_string(baseline_count) + " and " +
                                std::to_string(candidate_count));
  }
  if (!(std::isfinite(baseline_log_spread) && std::isfinite(candidate_log_spread) &&
        baseline_log_spread >= 0.0 && candidate_log_spread >= 0.0)) {
    throw std::invalid_argument("minimum_detectable_change: spreads must be finite and >= 0");
  }
  if (!(alpha > 0.0 && alpha < 1.0) || !(power > alpha && power < 1.0)) {
    throw std::invalid_argument(
        "minimum_detectable_change: alpha must lie in (0, 1) and power in (alpha, 1), got " +
        std::to_string(alpha) + " and " + std::to_string(power));
  }
  const auto base_n = static_cast<double>(baseline_count);
  const auto candidate_n = static_cast<double>(candidate_count);
  const double base_share = baseline_log_spread * baseline_log_spread / base_n;
  const double candidate_share = candidate_log_spread * candidate_log_spread / candidate_n;
  DetectableChange result;
  const double squared_error = base_share + candidate_share;
  if (squared_error == 0.0) return result;
  result.standard_error = std::sqrt(squared_error);
  result.degrees_of_freedom = squared_error * squared_error /
                              (base_share * base_share / (base_n - 1.0) +
                               candidate_share * candidate_share / (candidate_n - 1.0));
  const double critical =
      boost::math::quantile(boost::math::students_t(result.degrees_of_freedom), 1.0 - alpha / 2.0);
  // Power rises with λ from alpha at 0: bisect. 60 halvings of [0, 64] leave an error below
  // 10⁻¹⁶·se, and λ = 64 has power 1 for any df >= 1 at any alpha we accept.
  double low = 0.0;
  double high = 64.0;
  for (int step = 0; step < 60; ++step) {
    const double middle = (low + high) / 2.0;
    if (t_test_power(middle, result.degrees_of_freedom, critical) < power) {
      low = middle;
    } else {
      high = middle;
    }
  }
  result.log_change = high * result.standard_error;
  result.relative_change = std::expm1(result.log_change);
  return result;
}

DetectableChange minimum_detectable_change(std::span<const double> baseline,
                                           std::span<const double> candidate, double alpha,
                                           double power, double efficiency) {
  require_finite(baseline, "minimum_detectable_change (baseline)", 2);
  require_finite(candidate, "minimum_detectable_change (candidate)", 2);
  if (!(efficiency > 0.0 && efficiency <= 1.0)) {
    throw std::invalid_argument("minimum_detectable_change: efficiency must lie in (0, 1]");
  }
  auto log_spread = [](std::span<const double> values) {
    std::vector<double> logs(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!(values[i] > 0.0)) {
        throw std::invalid_argument("minimum_detectable_change: values must be positive");
      }
      logs[i] = std::log(values[i]);
    }
    return mad(logs);
  };
  // A test of efficiency e needs n/e values to match the t-test on n: the same as inflating
  // the spread by 1/√e at the real counts (which keep their degrees of freedom).
  const double inflation = 1.0 / std::sqrt(efficiency);
  return minimum_detectable_change(log_spread(baseline) * inflation, baseline.size(),
                                   log_spread(candidate) * inflation, candidate.size(), alpha,
                                   power);
}

}  // namespace benchkit::stats
