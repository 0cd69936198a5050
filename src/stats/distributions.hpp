// Quantiles and tail probabilities of the distributions other layers need (Boost.Math stays
// inside src/stats).
#pragma once

namespace benchkit::stats {

// Student's t with `degrees_of_freedom` > 0: the quantile at probability p in (0, 1), and the
// two-sided p-value P(|T| >= |t|). Out-of-range arguments throw std::invalid_argument.
double student_t_quantile(double p, double degrees_of_freedom);
double student_t_two_sided_p(double t, double degrees_of_freedom);

}  // namespace benchkit::stats
