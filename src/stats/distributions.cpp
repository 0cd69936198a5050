#include "stats/distributions.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <stdexcept>

namespace benchkit::stats {

double student_t_quantile(double p, double degrees_of_freedom) {
  if (!(p > 0.0 && p < 1.0) || !(degrees_of_freedom > 0.0)) {
    throw std::invalid_argument("student_t_quantile: needs p in (0, 1) and degrees of freedom > 0");
  }
  return boost::math::quantile(boost::math::students_t(degrees_of_freedom), p);
}

double student_t_two_sided_p(double t, double degrees_of_freedom) {
  if (!std::isfinite(t) || !(degrees_of_freedom > 0.0)) {
    throw std::invalid_argument(
        "student_t_two_sided_p: needs a finite t and degrees of freedom > 0");
  }
  return 2.0 * boost::math::cdf(boost::math::complement(boost::math::students_t(degrees_of_freedom),
                                                        std::fabs(t)));
}

double normal_quantile(double p) {
  return boost::math::quantile(boost::math::normal(), p);
}

double normal_upper_quantile(double tail) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), tail));
}

double normal_cdf(double z) {
  return boost::math::cdf(boost::math::normal(), z);
}

double normal_upper_tail(double z) {
  return boost::math::cdf(boost::math::complement(boost::math::normal(), z));
}

}  // namespace benchkit::stats
