#include "model/profile.hpp"

#include <gtest/gtest.h>

namespace benchkit::model {
namespace {

TEST(ProfileTool, EveryToolReadsBackFromItsName) {
  for (const ProfileTool tool : kProfileTools) {
    EXPECT_EQ(parse_profile_tool(profile_tool_name(tool)), tool);
  }
  EXPECT_EQ(profile_tool_name(ProfileTool::heaptrack), "heaptrack");
}

TEST(ProfileTool, AnotherNameIsNone) {
  EXPECT_FALSE(parse_profile_tool("gdb"));
  EXPECT_FALSE(parse_profile_tool(""));
  EXPECT_FALSE(parse_profile_tool("Callgrind"));  // names are exact, as --tool spells them
  EXPECT_FALSE(parse_profile_tool("perf "));
}

TEST(ProfileTool, TheChoiceListsThemAll) {
  EXPECT_EQ(profile_tool_choices(), "callgrind, massif, heaptrack, strace or perf");
}

}  // namespace
}  // namespace benchkit::model
