#include "session/profile.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "session/profiled.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(NearNames, ContainingFirstThenFewEditsAway) {
  const std::vector<std::string> names = {"sort_ints/size=1000", "sort_ints/size=10000",
                                          "build_map", "lookup"};
  EXPECT_THAT(near_names("sort_ints", names),
              ElementsAre("sort_ints/size=1000", "sort_ints/size=10000"));
  EXPECT_THAT(near_names("build_mpa", names), ElementsAre("build_map"));
  EXPECT_TRUE(near_names("zzzzzzzzzzzz", names).empty());
}

TEST(Profile, PackagesOfTheTools) {
  EXPECT_EQ(debian_package_of("perf"), "linux-perf");
  EXPECT_EQ(debian_package_of("heaptrack_print"), "heaptrack");
  EXPECT_EQ(debian_package_of("valgrind"), "valgrind");
}

TEST(Profile, AnUnknownToolIsRefused) {
  ProfileRequest request;
  request.binary = "/bin/true";
  request.benchmark = "x";
  request.tool = "gdb";
  const auto profile = run_profile(request);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(profile.error().message, HasSubstr("callgrind, massif"));
}

TEST(Profiled, TheSummaryReadsBackAsWritten) {
  ProfiledRoutine routine;
  routine.benchmark = "a/b=1";
  routine.iterations = 1234;
  routine.timed_ns = 5e9;
  routine.allocations_per_iteration = 2.0;
  const auto back = parse_profiled_json(profiled_json(routine));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->benchmark, "a/b=1");
  EXPECT_EQ(back->iterations, 1234u);
  EXPECT_EQ(back->allocations_per_iteration, 2.0);
  EXPECT_FALSE(back->bytes_per_iteration);
  EXPECT_FALSE(parse_profiled_json("{}"));
}

}  // namespace
}  // namespace benchkit::session
