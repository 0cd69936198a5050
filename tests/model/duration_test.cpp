#include "model/duration.hpp"

#include <gtest/gtest.h>

namespace benchkit::model {
namespace {

TEST(Duration, ReadsUnits) {
  EXPECT_EQ(parse_duration_ns("500ms"), 500'000'000);
  EXPECT_EQ(parse_duration_ns("2s"), 2'000'000'000);
  EXPECT_EQ(parse_duration_ns("1.5"), 1'500'000'000);
  EXPECT_EQ(parse_duration_ns("100us"), 100'000);
  EXPECT_EQ(parse_duration_ns("250ns"), 250);
  EXPECT_EQ(parse_duration_ns("1m"), 60'000'000'000);
}

TEST(Duration, RefusesWhatIsNotADuration) {
  EXPECT_FALSE(parse_duration_ns(""));
  EXPECT_FALSE(parse_duration_ns("5x"));
  EXPECT_FALSE(parse_duration_ns("-1s"));
  EXPECT_FALSE(parse_duration_ns("ms"));
  EXPECT_FALSE(parse_duration_ns("1.2.3s"));
}

}  // namespace
}  // namespace benchkit::model
