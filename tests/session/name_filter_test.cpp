#include "session/name_filter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

TEST(NameFilter, SearchesTheNameAndALeadingDashKeepsTheOthers) {
  const NameFilter sort("sort");
  EXPECT_TRUE(sort.keeps("std_sort/n=64"));
  EXPECT_FALSE(sort.keeps("hash/n=64"));
  const NameFilter not_sort("-sort");
  EXPECT_FALSE(not_sort.keeps("std_sort/n=64"));
  EXPECT_TRUE(not_sort.keeps("hash/n=64"));
  // A lone dash is a pattern, not a negation of nothing.
  EXPECT_TRUE(NameFilter("-").keeps("Dump/twitter / -"));
}

TEST(NameFilter, ParsedForAFlagNoneWhenEmptyAndAnErrorNamingTheFlag) {
  const auto none = parse_name_filter("", "--filter");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  const auto some = parse_name_filter("-^BM_Zone", "--bench");
  ASSERT_TRUE(some);
  ASSERT_TRUE(some->has_value());
  EXPECT_FALSE((*some)->keeps("BM_Zone_Load"));
  const auto bad = parse_name_filter("BM_x<int>(", "--bench");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(bad.error().message, HasSubstr("--bench \"BM_x<int>(\" is not a regular expression"));
}

}  // namespace
}  // namespace benchkit::session
