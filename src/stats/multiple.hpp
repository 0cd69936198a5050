// Adjusted p-values for a family of tests (all benchmarks of a suite compared at once).
//
// Both return adjusted p-values in the input order, as R's p.adjust: reject hypothesis i at
// level q when adjusted[i] <= q. Empty input: empty output. A p-value outside [0, 1] or NaN:
// throws std::invalid_argument.
#pragma once

#include <span>
#include <vector>

namespace benchkit::stats {

// Holm (1979) step-down: controls the family-wise error rate (the chance of any false alarm) under
// any dependence. With p sorted ascending, adjusted_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
std::vector<double> holm_adjusted(std::span<const double> p_values);

// Benjamini & Hochberg (1995) step-up: controls the false discovery rate (the expected share of
// false alarms among the flagged) for independent or positively dependent tests.
// adjusted_(i) = min_{j >= i} min(1, m p_(j) / j).
std::vector<double> benjamini_hochberg_adjusted(std::span<const double> p_values);

}  // namespace benchkit::stats
