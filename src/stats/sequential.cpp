#include "stats/sequential.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "stats/distributions.hpp"

namespace benchkit::stats {
namespace {

// A look that may spend (nearly) nothing: |Z| >= 8.5 has probability about 2e-17.
constexpr double kNoRejection = 8.5;
// Below this increment of spending a look is given kNoRejection instead of a search.
constexpr double kNegligibleSpending = 1e-15;
// Simpson's rule on a Gaussian kernel of standard deviation σ: a step of σ/5 leaves a relative
// error far below 1e-6; the cap bounds the work (N² per look) when looks come very close.
constexpr double kStepsPerSigma = 5.0;
constexpr std::size_t kMostPoints = 1001;
// Increments (standard deviations) beyond which a Gaussian kernel is taken as 0: 9σ leaves
// below 1e-19 of its mass.
constexpr double kTail = 9.0;

// Φ(z) by std::erfc, as the boundaries were computed and tested with (stats::normal_cdf is
// Boost.Math's, whose rounding can differ in the last bits).
double normal_cdf_by_erfc(double z) {
  return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// A density of the Brownian motion B(t) on the continuation region (-bound, bound), sampled at
// an odd number of equally spaced points with Simpson weights folded in: Σ mass[i] g(x[i])
// approximates ∫ density(x) g(x) dx.
struct Grid {
  std::vector<double> x;
  std::vector<double> mass;
};

Grid make_grid(double bound, double step_hint) {
  std::size_t intervals = static_cast<std::size_t>(std::ceil(2.0 * bound / step_hint));
  intervals = std::clamp<std::size_t>(intervals + intervals % 2, 2, kMostPoints - 1);
  const double step = 2.0 * bound / static_cast<double>(intervals);
  Grid grid;
  grid.x.resize(intervals + 1);
  grid.mass.resize(intervals + 1);
  for (std::size_t i = 0; i <= intervals; ++i) {
    grid.x[i] = -bound + step * static_cast<double>(i);
    const double simpson = (i == 0 || i == intervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    grid.mass[i] = simpson * step / 3.0;
  }
  return grid;
}

// P(|B(t_k)| >= bound, no earlier crossing), from the continuation density `grid` at t_{k-1}
// and the increment's standard deviation `sigma`.
// Points further than kTail increments from the bound contribute below 1e-19 of their mass.
double exit_probability(const Grid& grid, double bound, double sigma) {
  const double inner = bound - kTail * sigma;
  double total = 0.0;
  // The grid is sorted and symmetric: only its two ends can reach the bound.
  for (std::size_t i = 0; i < grid.x.size() && grid.x[i] <= -inner; ++i) {
    const double x = grid.x[i];
    total += grid.mass[i] *
             (normal_cdf_by_erfc((-bound - x) / sigma) + normal_cdf_by_erfc((x - bound) / sigma));
  }
  for (std::size_t i = grid.x.size(); i-- > 0 && grid.x[i] >= inner;) {
    if (grid.x[i] <= -inner) break;  // counted above
    const double x = grid.x[i];
    total += grid.mass[i] *
             (normal_cdf_by_erfc((-bound - x) / sigma) + normal_cdf_by_erfc((x - bound) / sigma));
  }
  return total;
}

// The bound b with exit_probability(b) = target, by bisection (the probability falls as b grows).
double bound_for(const Grid& grid, double target, double sigma, double scale) {
  double low = 0.0;
  double high = kNoRejection * scale;
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double middle = 0.5 * (low + high);
    if (exit_probability(grid, middle, sigma) > target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return 0.5 * (low + high);
}

// The continuation density at the next look on (-bound, bound): the previous one convolved with
// the increment N(0, sigma²), each weighted by its Simpson mass.
Grid propagate(const Grid& previous, double bound, double sigma, double next_step_hint) {
  Grid next = make_grid(bound, next_step_hint);
  const double norm = 1.0 / (sigma * std::sqrt(2.0 * std::numbers::pi));
  // Only the previous points within kTail increments of y matter (the rest: below 1e-19 of
  // the peak); the previous grid is uniform, so they are a window of indices.
  const double start = previous.x.front();
  const double step = previous.x[1] - previous.x[0];
  const auto last = static_cast<double>(previous.x.size() - 1);
  for (std::size_t j = 0; j < next.x.size(); ++j) {
    const double y = next.x[j];
    const double from = std::clamp(std::floor((y - kTail * sigma - start) / step), 0.0, last);
    const double to = std::clamp(std::ceil((y + kTail * sigma - start) / step), 0.0, last);
    double density = 0.0;
    for (auto i = static_cast<std::size_t>(from); i <= static_cast<std::size_t>(to); ++i) {
      const double u = (y - previous.x[i]) / sigma;
      density += previous.mass[i] * std::exp(-0.5 * u * u);
    }
    next.mass[j] *= density * norm;
  }
  return next;
}

void check_arguments(std::span<const double> information, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument("group_sequential_boundary: alpha must lie in (0, 1), got " +
                                std::to_string(alpha));
  }
  if (information.empty()) {
    throw std::invalid_argument("group_sequential_boundary: needs at least one look");
  }
  double previous = 0.0;
  for (double t : information) {
    if (!(t > previous && t <= 1.0)) {
      throw std::invalid_argument(
          "group_sequential_boundary: information times must increase strictly within (0, 1], "
          "got " +
          std::to_string(t) + " after " + std::to_string(previous));
    }
    previous = t;
  }
}

}  // namespace

double alpha_spent(Spending spending, double alpha, double t, double rho) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument("alpha_spent: alpha must lie in (0, 1), got " +
                                std::to_string(alpha));
  }
  if (spending == Spending::power && !(rho > 0.0)) {
    throw std::invalid_argument("alpha_spent: the power family needs rho > 0, got " +
                                std::to_string(rho));
  }
  if (!(t > 0.0)) return 0.0;
  if (t >= 1.0) return alpha;
  switch (spending) {
    case Spending::obrien_fleming:
      // Applied to each side's alpha/2 (as gsDesign and rpact do): 2 (2 - 2 Φ(z_{α/4} / √t)).
      return 4.0 * (1.0 - normal_cdf_by_erfc(normal_upper_quantile(alpha / 4.0) / std::sqrt(t)));
    case Spending::pocock:
      return alpha * std::log(1.0 + (std::numbers::e - 1.0) * t);
    case Spending::power:
      return alpha * std::pow(t, rho);
  }
  return alpha;
}

SequentialBoundary group_sequential_boundary(std::span<const double> information, double alpha,
                                             Spending spending, double rho) {
  check_arguments(information, alpha);
  SequentialBoundary result;
  const std::size_t looks = information.size();
  double spent_before = 0.0;
  Grid continuation;
  for (std::size_t k = 0; k < looks; ++k) {
    const double t = information[k];
    const double spent = alpha_spent(spending, alpha, t, rho);
    const double target = spent - spent_before;
    const double scale = std::sqrt(t);  // B(t) = Z √t
    double critical = kNoRejection;
    if (k == 0) {
      if (target > kNegligibleSpending) critical = normal_upper_quantile(target / 2.0);
    } else if (target > kNegligibleSpending) {
      const double sigma = std::sqrt(t - information[k - 1]);
      critical = bound_for(continuation, target, sigma, scale) / scale;
    }
    result.critical.push_back(critical);
    result.nominal_alpha.push_back(2.0 * (1.0 - normal_cdf_by_erfc(critical)));
    result.cumulative_alpha.push_back(spent);
    spent_before = spent;
    if (k + 1 == looks) break;
    const double bound = critical * scale;
    const double next_sigma = std::sqrt(information[k + 1] - t);
    const double step_hint = next_sigma / kStepsPerSigma;
    if (k == 0) {
      continuation = make_grid(bound, step_hint);
      const double norm = 1.0 / (scale * std::sqrt(2.0 * std::numbers::pi));
      for (std::size_t i = 0; i < continuation.x.size(); ++i) {
        const double u = continuation.x[i] / scale;
        continuation.mass[i] *= norm * std::exp(-0.5 * u * u);
      }
    } else {
      continuation = propagate(continuation, bound, std::sqrt(t - information[k - 1]), step_hint);
    }
  }
  return result;
}

}  // namespace benchkit::stats
