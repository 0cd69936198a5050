#include "stats/distributions.hpp"

#include <gtest/gtest.h>

namespace benchkit::stats {
namespace {

TEST(StudentT, MatchesTableValues) {
  // t_(0.975, 4) = 2.776445 and t_(0.975, 30) = 2.042272 (any t table, or scipy.stats.t.ppf).
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.776445, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.042272, 1e-6);
  EXPECT_NEAR(student_t_two_sided_p(2.776445, 4), 0.05, 1e-6);
  EXPECT_DOUBLE_EQ(student_t_two_sided_p(0.0, 3), 1.0);
  EXPECT_THROW(student_t_quantile(1.0, 3), std::invalid_argument);
  EXPECT_THROW(student_t_two_sided_p(1.0, 0), std::invalid_argument);
}

TEST(StandardNormal, MatchesTableValues) {
  // Φ⁻¹(0.975) = 1.959964 and Φ(1) = 0.841345 (any normal table, or scipy.stats.norm).
  EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(normal_upper_quantile(0.025), 1.959964, 1e-6);
  EXPECT_NEAR(normal_cdf(1.0), 0.841345, 1e-6);
  EXPECT_NEAR(normal_upper_tail(1.0), 1.0 - 0.841345, 1e-6);
  EXPECT_DOUBLE_EQ(normal_cdf(0.0), 0.5);
  // The upper forms keep the digits that 1 - Φ(z) loses far in the tail.
  EXPECT_NEAR(normal_upper_tail(10.0) / 7.619853e-24, 1.0, 1e-6);
  EXPECT_NEAR(normal_upper_quantile(1e-20), 9.262340, 1e-6);
}

}  // namespace
}  // namespace benchkit::stats
