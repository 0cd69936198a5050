// Group-sequential boundaries: how strict each look at growing data must be so that the chance
// of a false rejection at *any* look stays at alpha.
//
// Looking at a comparison after every round and stopping as soon as it is decided is repeated
// testing: at a fixed 95% at each of many looks, noise crosses the line at some look far more
// often than 5% of the time. Lan and DeMets (1983) spend the error rate over the information
// t in (0, 1] (here: rounds taken / most rounds): a spending function alpha(t) rises from 0 to
// alpha, and look k may reject with probability alpha(t_k) - alpha(t_{k-1}) among the paths that
// did not reject before. The boundary of each look follows from the joint normal law of the
// standardised statistics at the looks (a Brownian motion in t), integrated look after look
// (Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000, chapter 19). Intervals at each
// look's nominal level are repeated confidence intervals (Jennison and Turnbull 1989): they cover
// the truth at every look at once with probability 1 - alpha, whatever rule stopped the data.
//
// Conventions: two-sided, symmetric boundaries; alpha in (0, 1); information times strictly
// increasing in (0, 1]. Bad arguments throw std::invalid_argument.
#pragma once

#include <span>
#include <vector>

namespace benchkit::stats {

enum class Spending {
  // Lan–DeMets O'Brien–Fleming type, applied to each side's alpha/2 as gsDesign and rpact do:
  // 2 (2 - 2 Φ(z_{α/4} / √t)). Spends almost nothing early and keeps the last look's level
  // close to alpha.
  obrien_fleming,
  // Lan–DeMets Pocock type: alpha ln(1 + (e - 1) t). Nearly the same level at every look.
  // Linear in alpha: the same whether applied to alpha or to each side's alpha/2.
  pocock,
  // Kim–DeMets power family: alpha t^rho (`rho` > 0): rho = 1 spends evenly in information,
  // rho = 3 is close to O'Brien–Fleming.
  power,
};

// The error rate spent by information time t in [0, 1]: 0 at t = 0, alpha at t >= 1.
double alpha_spent(Spending spending, double alpha, double t, double rho = 1.0);

struct SequentialBoundary {
  // Per look: the two-sided critical value of the standardised statistic (|Z_k| >= critical[k]
  // rejects), and the nominal level 2 (1 - Φ(critical[k])) at which a fixed-sample test or
  // interval at that look is read.
  std::vector<double> critical;
  std::vector<double> nominal_alpha;
  // Per look: the error rate spent by then, alpha_spent(t_k).
  std::vector<double> cumulative_alpha;
};

// The boundaries at looks at `information` (t_1 < t_2 < ... <= 1) for a two-sided level
// `alpha`. A look whose increment of spending is below 1e-15 gets the critical value 8.5
// (nominal level about 2e-17): in effect it cannot reject. Numerical integration on a grid of
// at most 1001 points per look; the critical values are accurate to about 1e-4 (reference
// values in tests/stats/sequential_test.cpp).
SequentialBoundary group_sequential_boundary(std::span<const double> information, double alpha,
                                             Spending spending, double rho = 1.0);

}  // namespace benchkit::stats
