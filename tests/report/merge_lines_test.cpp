#include "report/merge_lines.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(MergeLines, SayWhatWasMergedIntoWhichFile) {
  EXPECT_EQ(merged_results(3, 47, "all.json"), "merged 3 file(s), 47 benchmarks, into all.json\n");
  EXPECT_EQ(merged_comparisons(2, 10, "c.json"),
            "merged 2 comparison file(s), 10 benchmarks, into c.json\n");
}

}  // namespace
}  // namespace benchkit::report
