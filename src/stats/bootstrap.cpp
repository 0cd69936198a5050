#include "stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/distributions.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// Jackknife groups for the BCa acceleration of a general statistic (see bootstrap.hpp).
constexpr std::size_t max_jackknife_groups = 1000;
// Below this size the studentized interval is unreliable (a resample of identical values, which
// has no spread, has probability n^(1-n): 0.16% at n = 5, 6% at n = 3); automatic uses BCa.
constexpr std::size_t min_studentized_size = 5;

void check_options(const BootstrapOptions& options, const char* what) {
  if (options.resamples < 2) {
    throw std::invalid_argument(std::string(what) + ": needs at least 2 resamples, got " +
                                std::to_string(options.resamples));
  }
  if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
    throw std::invalid_argument(std::string(what) + ": confidence must lie in (0, 1), got " +
                                std::to_string(options.confidence));
  }
}

// Fills standard_error and bias from the replicates.
void describe_replicates(std::span<const double> replicates, BootstrapResult& result) {
  result.standard_error = stddev(replicates);
  result.bias = mean(replicates) - result.estimate;
}

BootstrapResult degenerate(double estimate, double confidence, BootstrapMethod method,
                           const BootstrapOptions& options) {
  BootstrapResult result;
  result.estimate = estimate;
  result.interval = Interval{estimate, estimate, confidence};
  result.method = method;
  result.resamples = 0;
  result.seed = options.seed;
  return result;
}

// BCa endpoints read off the sorted replicates by type-7 interpolation.
Interval bca_interval(std::span<const double> sorted, double estimate, double acceleration,
                      double confidence) {
  const auto count = static_cast<double>(sorted.size());
  const auto below = static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), estimate) -
                                         sorted.begin());
  const auto equal = static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), estimate) -
                                         sorted.begin()) -
                     below;
  // Ties count half, so a statistic with many tied replicates (the median) gets no spurious bias;
  // the clamp keeps z0 finite when every replicate lies on one side.
  const double share = std::clamp((below + 0.5 * equal) / count, 0.5 / count, 1.0 - 0.5 / count);
  const double z0 = normal_quantile(share);
  auto level = [&](double tail) {
    const double w = z0 + normal_quantile(tail);
    const double denominator = 1.0 - acceleration * w;
    // Past the pole of the transformation the endpoint is the extreme replicate on that side.
    if (denominator <= 0.0) return w > 0.0 ? 1.0 : 0.0;
    return normal_cdf(z0 + w / denominator);
  };
  const double lower_tail = (1.0 - confidence) / 2.0;
  return Interval{quantile_sorted(sorted, level(lower_tail)),
                  quantile_sorted(sorted, level(1.0 - lower_tail)), confidence};
}

double skewness_acceleration(std::span<const double> jackknife) {
  const double center = mean(jackknife);
  double squares = 0.0;
  double cubes = 0.0;
  for (double value : jackknife) {
    const double d = center - value;
    squares += d * d;
    cubes += d * d * d;
  }
  if (squares == 0.0) return 0.0;
  return cubes / (6.0 * std::pow(squares, 1.5));
}

}  // namespace

Interval percentile_interval(std::span<const double> replicates, double confidence) {
  require_finite(replicates, "percentile_interval");
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument("percentile_interval: confidence must lie in (0, 1), got " +
                                std::to_string(confidence));
  }
  const auto sorted = sorted_copy(replicates);
  const double lower_tail = (1.0 - confidence) / 2.0;
  return Interval{quantile_sorted(sorted, lower_tail), quantile_sorted(sorted, 1.0 - lower_tail),
                  confidence};
}

BootstrapResult bootstrap_mean(std::span<const double> values, const BootstrapOptions& options) {
  require_finite(values, "bootstrap_mean");
  check_options(options, "bootstrap_mean");
  const std::size_t n = values.size();
  BootstrapMethod method = options.method;
  if (method == BootstrapMethod::automatic) {
    method = n >= min_studentized_size ? BootstrapMethod::studentized : BootstrapMethod::bca;
  }
  const double center = mean(values);
  if (n == 1) return degenerate(center, 0.0, method, options);
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  if (*lowest == *highest) return degenerate(center, options.confidence, method, options);

  // Centred values: the replicate sums of squares then suffer no cancellation even when the
  // mean is large against the spread (nanosecond timings).
  std::vector<double> centred(n);
  for (std::size_t i = 0; i < n; ++i) centred[i] = values[i] - center;
  const auto count = static_cast<double>(n);
  const double root_n = std::sqrt(count);
  const double sample_sd = stddev(values);

  Xoshiro256 generator(options.seed);
  std::vector<double> replicates(options.resamples);
  std::vector<double> t_values;
  if (method == BootstrapMethod::studentized) t_values.reserve(options.resamples);
  for (std::size_t r = 0; r < options.resamples; ++r) {
    double sum = 0.0;
    double squares = 0.0;
    if (method == BootstrapMethod::studentized) {
      for (std::size_t i = 0; i < n; ++i) {
        const double value = centred[generator.below(n)];
        sum += value;
        squares += value * value;
      }
      const double shift = sum / count;
      const double resample_variance = (squares - sum * shift) / (count - 1.0);
      // A resample without spread has no t; it is dropped (see min_studentized_size).
      if (resample_variance > 0.0)
        t_values.push_back(shift / (std::sqrt(resample_variance) / root_n));
    } else {
      for (std::size_t i = 0; i < n; ++i) sum += centred[generator.below(n)];
    }
    replicates[r] = center + sum / count;
  }

  BootstrapResult result;
  result.estimate = center;
  result.method = method;
  result.resamples = options.resamples;
  result.seed = options.seed;
  describe_replicates(replicates, result);
  const double lower_tail = (1.0 - options.confidence) / 2.0;
  if (method == BootstrapMethod::studentized) {
    if (t_values.size() < 2) return degenerate(center, 0.0, method, options);
    std::sort(t_values.begin(), t_values.end());
    const double scale = sample_sd / root_n;
    result.interval =
        Interval{center - quantile_sorted(t_values, 1.0 - lower_tail) * scale,
                 center - quantile_sorted(t_values, lower_tail) * scale, options.confidence};
    return result;
  }
  std::sort(replicates.begin(), replicates.end());
  if (method == BootstrapMethod::percentile) {
    result.interval = Interval{quantile_sorted(replicates, lower_tail),
                               quantile_sorted(replicates, 1.0 - lower_tail), options.confidence};
    return result;
  }
  // Leave-one-out means differ from the mean by (x_i - x̄)/(n - 1): the acceleration is the
  // skewness term of the centred values themselves, in O(n).
  std::vector<double> jackknife(n);
  for (std::size_t i = 0; i < n; ++i) jackknife[i] = center - centred[i] / (count - 1.0);
  result.interval =
      bca_interval(replicates, center, skewness_acceleration(jackknife), options.confidence);
  return result;
}

std::vector<double> bootstrap_replicates(std::span<const double> values, const Statistic& statistic,
                                         std::size_t resamples, std::uint64_t seed) {
  require_finite(values, "bootstrap_replicates");
  const std::size_t n = values.size();
  Xoshiro256 generator(seed);
  std::vector<double> resample(n);
  std::vector<double> replicates(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    for (std::size_t i = 0; i < n; ++i) resample[i] = values[generator.below(n)];
    replicates[r] = statistic(resample);
    if (!std::isfinite(replicates[r])) {
      throw std::invalid_argument(
          "bootstrap: the statistic returned a non-finite value on resample " + std::to_string(r));
    }
  }
  return replicates;
}

BootstrapResult bootstrap(std::span<const double> values, const Statistic& statistic,
                          const BootstrapOptions& options) {
  require_finite(values, "bootstrap");
  check_options(options, "bootstrap");
  BootstrapMethod method = options.method;
  if (method == BootstrapMethod::automatic) method = BootstrapMethod::bca;
  if (method == BootstrapMethod::studentized) {
    throw std::invalid_argument(
        "bootstrap: the studentized method needs a standard error per resample; it is offered "
        "for the mean only (bootstrap_mean); use bca or percentile");
  }
  const std::size_t n = values.size();
  const double estimate = statistic(values);
  if (!std::isfinite(estimate)) {
    throw std::invalid_argument("bootstrap: the statistic of the original values is not finite");
  }
  if (n == 1) return degenerate(estimate, 0.0, method, options);
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  if (*lowest == *highest) return degenerate(estimate, options.confidence, method, options);

  auto replicates = bootstrap_replicates(values, statistic, options.resamples, options.seed);
  BootstrapResult result;
  result.estimate = estimate;
  result.method = method;
  result.resamples = options.resamples;
  result.seed = options.seed;
  describe_replicates(replicates, result);
  std::sort(replicates.begin(), replicates.end());
  const double lower_tail = (1.0 - options.confidence) / 2.0;
  if (method == BootstrapMethod::percentile) {
    result.interval = Interval{quantile_sorted(replicates, lower_tail),
                               quantile_sorted(replicates, 1.0 - lower_tail), options.confidence};
    return result;
  }
  const std::size_t groups = std::min(n, max_jackknife_groups);
  std::vector<double> jackknife(groups);
  std::vector<double> kept;
  kept.reserve(n);
  for (std::size_t group = 0; group < groups; ++group) {
    kept.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (i % groups != group) kept.push_back(values[i]);
    }
    jackknife[group] = statistic(kept);
    if (!std::isfinite(jackknife[group])) {
      throw std::invalid_argument(
          "bootstrap: the statistic returned a non-finite value on a "
          "jackknife subsample");
    }
  }
  result.interval =
      bca_interval(replicates, estimate, skewness_acceleration(jackknife), options.confidence);
  return result;
}

}  // namespace benchkit::stats
