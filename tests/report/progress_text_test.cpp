#include "report/progress_text.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(ProgressText, ABenchmarkShowsItsProcessOnlyWhenThereAreSeveral) {
  EXPECT_EQ(benchmark_progress(0, 1, 3, 10, "sort"), "[4/10] sort");
  EXPECT_EQ(benchmark_progress(1, 3, 0, 2, "hash"), "[process 2/3] [1/2] hash");
}

TEST(ProgressText, ARoundCountsFromOneAndAddsItsNote) {
  EXPECT_EQ(round_progress(2, 10, 1, 5, "sort"), "[round 3/10] [2/5] sort");
  EXPECT_EQ(round_progress(0, 4, 0, 1, "bench sort", "both builds in turns"),
            "[round 1/4] [1/1] bench sort (both builds in turns)");
}

TEST(ProgressText, ACommandsRunSaysWarmUpOrRound) {
  EXPECT_EQ(command_run_progress("nap", 2, false, 1.26), "round 3 · nap · 1.3 s");
  EXPECT_EQ(command_run_progress("nap", 0, true, 0.0), "warm-up 1 · nap · 0.0 s");
}

TEST(ProgressText, ARevisionSaysWhetherItWasBuiltOrKept) {
  EXPECT_EQ(revision_built("HEAD~1", false, 12.34, "/w/b"),
            "benchkit: HEAD~1: built in 12.3 s (/w/b)");
  EXPECT_EQ(revision_built("HEAD~1", true, 0.0, "/w/b"),
            "benchkit: HEAD~1: build kept from an earlier run, nothing rebuilt (/w/b)");
  EXPECT_EQ(counting_started("main", "bench", 1),
            "benchkit: main: counting 1 benchmark of bench under valgrind (a fresh process each)");
  EXPECT_EQ(counting_started("main", "bench", 4),
            "benchkit: main: counting 4 benchmarks of bench under valgrind (a fresh process each)");
}

}  // namespace
}  // namespace benchkit::report
