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

}  // namespace
}  // namespace benchkit::stats
