#include "report/baseline_lines.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(BaselineLines, ASavedBaselineNamesItsBinaryWhenKept) {
  EXPECT_EQ(baseline_saved("main", ".benchkit/baselines/main.json", std::nullopt),
            "baseline main saved to .benchkit/baselines/main.json\n");
  EXPECT_EQ(baseline_saved("main", "b/main.json", "b/main.bin"),
            "baseline main saved to b/main.json (with its bench binary, b/main.bin)\n");
}

TEST(BaselineLines, ABinaryNotKeptSaysWhatComparisonsUseInstead) {
  EXPECT_EQ(baseline_binary_not_kept("main", "disk full"),
            "warning: the bench binary was not kept with baseline main (disk full): comparisons "
            "against it will use its saved samples\n");
}

}  // namespace
}  // namespace benchkit::report
