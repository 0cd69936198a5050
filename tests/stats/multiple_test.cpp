#include "stats/multiple.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace benchkit::stats {
namespace {

TEST(Multiple, HandWorkedExample) {
  // p = 0.01, 0.04, 0.03, 0.005 (m = 4). Holm, ascending: 4·0.005 = 0.02, 3·0.01 = 0.03,
  // 2·0.03 = 0.06, 1·0.04 = 0.04 → running max 0.06. BH: 0.04·4/4 = 0.04, 0.03·4/3 = 0.04,
  // 0.01·4/2 = 0.02, 0.005·4/1 = 0.02.
  const std::vector<double> p = {0.01, 0.04, 0.03, 0.005};
  const auto holm = holm_adjusted(p);
  const auto bh = benjamini_hochberg_adjusted(p);
  const std::vector<double> expected_holm = {0.03, 0.06, 0.06, 0.02};
  const std::vector<double> expected_bh = {0.02, 0.04, 0.04, 0.02};
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_NEAR(holm[i], expected_holm[i], 1e-15);
    EXPECT_NEAR(bh[i], expected_bh[i], 1e-15);
  }
}

TEST(Multiple, EdgeCases) {
  EXPECT_TRUE(holm_adjusted(std::vector<double>{}).empty());
  EXPECT_EQ(benjamini_hochberg_adjusted(std::vector<double>{0.3}), std::vector<double>{0.3});
  EXPECT_THROW(holm_adjusted(std::vector<double>{0.1, 1.5}), std::invalid_argument);
  EXPECT_THROW(benjamini_hochberg_adjusted(std::vector<double>{NAN}), std::invalid_argument);
  // Adjusted values never exceed 1.
  const auto capped = holm_adjusted(std::vector<double>{0.6, 0.7, 0.9});
  for (double value : capped) EXPECT_LE(value, 1.0);
}

}  // namespace
}  // namespace benchkit::stats
