// An interval's confidence as reports name it: tables head their intervals "95% CI", and an
// interval below that (the median's order-statistic interval of fewer than 6 samples: 75% for
// 3, 93.75% for 5) must say its own.
#pragma once

#include <optional>

#include "benchkit/result.hpp"

namespace benchkit::model {

// The confidence of `estimate` when it is below the 95% a report names (94.95% and above read as
// 95% at the precision shown); nothing when it reaches it, or when there is no interval (a
// single sample: 0).
inline std::optional<double> confidence_below_nominal(const Estimate& estimate) {
  if (estimate.confidence >= 0.9495 || estimate.confidence <= 0.0) return std::nullopt;
  return estimate.confidence;
}

}  // namespace benchkit::model
