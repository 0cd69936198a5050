#include "stats/complexity.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "stats/distributions.hpp"
#include "stats/random.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {

namespace {

// A median and its standard error, per size.
struct SizePoint {
  double term = 0.0;
  double median = 0.0;
  double error = 0.0;
};

// The asymptotic standard error of a median of k normal values is sqrt(π/2) σ / sqrt(k)
// (1.2533 σ / sqrt(k)); σ is estimated by the MAD, robust to the outliers timings have.
double median_error(std::span<const double> values, double median_value) {
  const double floor = kRelativeErrorFloor * std::max(median_value, 1e-300);
  if (values.size() < 2) return floor;
  const double error =
      1.2533141373155 * mad(values) / std::sqrt(static_cast<double>(values.size()));
  return std::max(error, floor);
}

double term_of(Growth growth, const SizeSamples& size) {
  return growth == Growth::custom ? *size.custom_term : growth_term(growth, size.n);
}

// The medians and their standard errors, once; the terms filled per growth by fit_all.
std::vector<SizePoint> points_of(const std::vector<std::vector<double>>& values) {
  std::vector<SizePoint> points;
  points.reserve(values.size());
  for (const std::vector<double>& size : values) {
    const double m = median(size);
    points.push_back({0.0, m, median_error(size, m)});
  }
  return points;
}

// Weighted least squares through the origin: c = Σ w g t / Σ w g², w = 1 / error².
GrowthFit weighted_fit(Growth growth, const std::vector<SizePoint>& points) {
  double cross = 0.0;
  double squares = 0.0;
  for (const SizePoint& p : points) {
    const double w = 1.0 / (p.error * p.error);
    cross += w * p.term * p.median;
    squares += w * p.term * p.term;
  }
  GrowthFit fit;
  fit.growth = growth;
  fit.coefficient = squares > 0 ? cross / squares : 0.0;
  double chi = 0.0;
  std::vector<double> terms;
  std::vector<double> medians;
  for (const SizePoint& p : points) {
    const double residual = (p.median - fit.coefficient * p.term) / p.error;
    chi += residual * residual;
    terms.push_back(p.term);
    medians.push_back(p.median);
  }
  const double m = static_cast<double>(points.size());
  fit.chi_square = chi;
  // A perfect fit would give ln 0: the χ² is kept above a vanishing share of m.
  fit.aic = m * std::log(std::max(chi / m, 1e-300)) + 2.0;
  fit.standard_error = squares > 0 && m > 1 ? std::sqrt(chi / (m - 1) / squares) : 0.0;
  fit.rms = gbench_fit(terms, medians).rms;
  return fit;
}

void check_sizes(std::span<const SizeSamples> sizes, const ComplexityRequest& request) {
  std::set<double> distinct;
  for (const SizeSamples& size : sizes) {
    if (!std::isfinite(size.n) || size.n <= 0) {
      throw std::invalid_argument("fit_complexity: every size must be a positive number, got " +
                                  std::to_string(size.n));
    }
    require_finite(size.values, "fit_complexity: samples of a size");
    for (double value : size.values) {
      if (value < 0) throw std::invalid_argument("fit_complexity: a negative time");
    }
    if (size.custom_term && !std::isfinite(*size.custom_term)) {
      throw std::invalid_argument("fit_complexity: the custom function gave a non-finite value");
    }
    distinct.insert(size.n);
  }
  if (distinct.size() < 2) {
    throw std::invalid_argument("fit_complexity: needs at least 2 different sizes");
  }
  if (request.fixed == Growth::custom &&
      !std::all_of(sizes.begin(), sizes.end(),
                   [](const SizeSamples& s) { return s.custom_term.has_value(); })) {
    throw std::invalid_argument("fit_complexity: a custom growth needs its value at every size");
  }
}

std::vector<Growth> candidate_growths(std::span<const SizeSamples> sizes) {
  std::vector<Growth> growths(std::begin(kBuiltInGrowths), std::end(kBuiltInGrowths));
  const bool custom = std::all_of(sizes.begin(), sizes.end(),
                                  [](const SizeSamples& s) { return s.custom_term.has_value(); });
  if (custom) growths.push_back(Growth::custom);
  return growths;
}

// Every candidate fitted on `values`, best first (a stable sort: a tie keeps the simpler).
std::vector<GrowthFit> fit_all(std::span<const SizeSamples> sizes,
                               const std::vector<std::vector<double>>& values,
                               const std::vector<Growth>& growths) {
  std::vector<SizePoint> points = points_of(values);
  std::vector<GrowthFit> fits;
  for (Growth growth : growths) {
    for (std::size_t i = 0; i < points.size(); ++i) points[i].term = term_of(growth, sizes[i]);
    fits.push_back(weighted_fit(growth, points));
  }
  std::stable_sort(fits.begin(), fits.end(),
                   [](const GrowthFit& a, const GrowthFit& b) { return a.aic < b.aic; });
  double total = 0.0;
  for (const GrowthFit& fit : fits) total += std::exp(-(fit.aic - fits.front().aic) / 2.0);
  for (GrowthFit& fit : fits) {
    fit.akaike_weight = std::exp(-(fit.aic - fits.front().aic) / 2.0) / total;
  }
  return fits;
}

// Percentile bootstrap of the chosen coefficient, resampling each size's samples on their own;
// also counts how often the best class stays the same.
void bootstrap(std::span<const SizeSamples> sizes, const std::vector<Growth>& growths,
               const ComplexityRequest& request, ComplexityFit& fit) {
  Xoshiro256 random(request.seed);
  const Growth chosen = fit.selected().growth;
  const Growth best = fit.best().growth;
  std::vector<std::vector<double>> values(sizes.size());
  std::vector<double> coefficients;
  coefficients.reserve(request.resamples);
  std::size_t same = 0;
  for (std::size_t r = 0; r < request.resamples; ++r) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::vector<double>& original = sizes[i].values;
      values[i].resize(original.size());
      for (double& value : values[i]) value = original[random.below(original.size())];
    }
    const std::vector<GrowthFit> fits = fit_all(sizes, values, growths);
    same += fits.front().growth == best ? 1 : 0;
    for (const GrowthFit& candidate : fits) {
      if (candidate.growth == chosen) coefficients.push_back(candidate.coefficient);
    }
  }
  fit.lower = quantile(coefficients, 0.025);
  fit.upper = quantile(coefficients, 0.975);
  fit.bootstrapped = true;
  fit.stability = static_cast<double>(same) / static_cast<double>(request.resamples);
}

}  // namespace

double growth_term(Growth growth, double n) {
  switch (growth) {
    case Growth::constant:
      return 1.0;
    case Growth::log_n:
      return std::log2(n);
    case Growth::n:
      return n;
    case Growth::n_log_n:
      return n * std::log2(n);
    case Growth::n_squared:
      return n * n;
    case Growth::n_cubed:
      return n * n * n;
    case Growth::custom:
      break;
  }
  throw std::invalid_argument("growth_term: a custom growth has no built-in term");
}

ComplexityFit fit_complexity(std::span<const SizeSamples> sizes, const ComplexityRequest& request) {
  check_sizes(sizes, request);
  const std::vector<Growth> growths = candidate_growths(sizes);
  std::vector<std::vector<double>> values;
  for (const SizeSamples& size : sizes) values.push_back(size.values);
  ComplexityFit fit;
  fit.candidates = fit_all(sizes, values, growths);
  if (request.fixed) {
    const auto found = std::find_if(
        fit.candidates.begin(), fit.candidates.end(),
        [&](const GrowthFit& candidate) { return candidate.growth == *request.fixed; });
    fit.chosen = static_cast<std::size_t>(found - fit.candidates.begin());
  }
  for (std::size_t i = 1; i < fit.candidates.size(); ++i) {
    if (fit.candidates[i].aic - fit.candidates.front().aic < kIndistinguishableAic) {
      fit.indistinguishable.push_back(fit.candidates[i].growth);
    }
  }
  const GrowthFit& selected = fit.selected();
  fit.coefficient = selected.coefficient;
  const bool enough = std::all_of(sizes.begin(), sizes.end(), [](const SizeSamples& s) {
    return s.values.size() >= kBootstrapMinimum;
  });
  if (enough && request.resamples > 0) {
    bootstrap(sizes, growths, request, fit);
  } else {
    const double freedom = static_cast<double>(sizes.size()) - 1.0;
    const double half = student_t_quantile(0.975, freedom) * selected.standard_error;
    fit.lower = selected.coefficient - half;
    fit.upper = selected.coefficient + half;
  }
  return fit;
}

GbenchFit gbench_fit(std::span<const double> terms, std::span<const double> times) {
  if (terms.size() != times.size() || times.empty()) {
    throw std::invalid_argument("gbench_fit: needs one term per time, at least one");
  }
  double squares = 0.0;
  double cross = 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    squares += terms[i] * terms[i];
    cross += terms[i] * times[i];
    total += times[i];
  }
  GbenchFit fit;
  fit.coefficient = squares > 0 ? cross / squares : 0.0;
  double residuals = 0.0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double residual = times[i] - fit.coefficient * terms[i];
    residuals += residual * residual;
  }
  const double m = static_cast<double>(times.size());
  const double mean_time = total / m;
  fit.rms = mean_time > 0 ? std::sqrt(residuals / m) / mean_time : 0.0;
  return fit;
}

Growth gbench_choice(std::span<const double> sizes, std::span<const double> times) {
  Growth best = Growth::constant;
  double best_rms = 0.0;
  for (Growth growth : kBuiltInGrowths) {
    std::vector<double> terms;
    for (double n : sizes) terms.push_back(growth_term(growth, n));
    const double rms = gbench_fit(terms, times).rms;
    if (growth == Growth::constant || rms < best_rms) {
      best = growth;
      best_rms = rms;
    }
  }
  return best;
}

}  // namespace benchkit::stats
