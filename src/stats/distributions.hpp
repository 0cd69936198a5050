// Quantiles and tail probabilities of the distributions other layers need (Boost.Math stays
// inside src/stats).
#pragma once

namespace benchkit::stats {

// Student's t with `degrees_of_freedom` > 0: the quantile at probability p in (0, 1), and the
// two-sided p-value P(|T| >= |t|). Out-of-range arguments throw std::invalid_argument.
double student_t_quantile(double p, double degrees_of_freedom);
double student_t_two_sided_p(double t, double degrees_of_freedom);

// The standard normal distribution (Boost.Math's, no checks of their own: p and tail in (0, 1)):
// the quantile Φ⁻¹(p), the upper quantile Φ⁻¹(1 - tail) computed without the cancellation of
// 1 - tail, the distribution function Φ(z) and the upper tail 1 - Φ(z).
double normal_quantile(double p);
double normal_upper_quantile(double tail);
double normal_cdf(double z);
double normal_upper_tail(double z);

}  // namespace benchkit::stats
