// Seeded test data for the statistics tests: the same draws on every platform (the generator and
// the transforms are ours, not std::*_distribution).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

#include "../support/sanitizers.hpp"  // the statistics tests see src/ only
#include "stats/random.hpp"

namespace benchkit::stats::testing {

// Monte Carlo loops are the slow part of the suite; under AddressSanitizer (about 10× slower in a
// Debug build) they run with fewer trials, and say so in their output.
#if BENCHKIT_TEST_ASAN
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : generator_(seed) {}

  // Standard normal by Box–Muller (both values used).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - generator_.uniform();  // (0, 1]: log stays finite
    const double u2 = generator_.uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    spare_ = radius * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return radius * std::cos(2.0 * std::numbers::pi * u2);
  }
  double normal(double mean, double sd) { return mean + sd * normal(); }
  double lognormal(double mu, double sigma) { return std::exp(normal(mu, sigma)); }
  // Pareto with minimum 1 and tail index alpha, by inversion: mean alpha/(alpha-1).
  double pareto(double alpha) { return std::pow(1.0 - generator_.uniform(), -1.0 / alpha); }
  double uniform() { return generator_.uniform(); }

 private:
  Xoshiro256 generator_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

enum class Shape { normal, lognormal, pareto };

inline const char* name(Shape shape) {
  switch (shape) {
    case Shape::normal:
      return "normal(10, 1)";
    case Shape::lognormal:
      return "lognormal(0, 0.5)";
    case Shape::pareto:
      return "Pareto(alpha=3)";
  }
  return "?";
}

// True mean and median of each shape.
inline double true_mean(Shape shape) {
  switch (shape) {
    case Shape::normal:
      return 10.0;
    case Shape::lognormal:
      return std::exp(0.125);
    case Shape::pareto:
      return 1.5;
  }
  return 0.0;
}
inline double true_median(Shape shape) {
  switch (shape) {
    case Shape::normal:
      return 10.0;
    case Shape::lognormal:
      return 1.0;
    case Shape::pareto:
      return std::pow(2.0, 1.0 / 3.0);
  }
  return 0.0;
}

inline std::vector<double> sample(Draw& draw, Shape shape, std::size_t n, double scale = 1.0) {
  std::vector<double> values(n);
  for (double& value : values) {
    switch (shape) {
      case Shape::normal:
        value = draw.normal(10.0, 1.0);
        break;
      case Shape::lognormal:
        value = draw.lognormal(0.0, 0.5);
        break;
      case Shape::pareto:
        value = draw.pareto(3.0);
        break;
    }
    value *= scale;
  }
  return values;
}

}  // namespace benchkit::stats::testing
