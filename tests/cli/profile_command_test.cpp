// `benchkit profile`'s command line: the tool is parsed at the boundary. Profiles under the real
// tools: tests/valgrind/profile_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kSampleBench;
using benchkit::testing::kTool;

TEST(ProfileCommand, AnUnknownToolIsAUsageErrorListingTheTools) {
  const auto result = run_command(kTool + " profile " + kSampleBench + " x --tool gdb");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--tool: \"gdb\" is not a profiler benchkit runs; choose "
                                    "callgrind, massif, heaptrack, strace or perf"));
}

TEST(ProfileCommand, TheToolIsRequired) {
  const auto result = run_command(kTool + " profile " + kSampleBench + " x");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--tool"));
}

}  // namespace
}  // namespace benchkit::cli
