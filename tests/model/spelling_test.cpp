#include "model/spelling.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace benchkit::model {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("filer", "filter"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("fliter", "filter"), 2u);  // a swap is two substitutions
}

TEST(LikelyMeant, TheNearestWordWithinAThirdOfTheLettersAndTwoEdits) {
  const std::vector<std::string> flags{"--filter",      "--format",    "--out",
                                       "--export-json", "--processes", "--rounds"};
  EXPECT_EQ(likely_meant("--filer", flags), "--filter");
  EXPECT_EQ(likely_meant("--fliter", flags), "--filter");
  EXPECT_EQ(likely_meant("--procesess", flags), "--processes");
  EXPECT_EQ(likely_meant("--formt", flags), "--format");
  // Known words, and words too far from every one, give nothing.
  EXPECT_EQ(likely_meant("--filter", flags), std::nullopt);
  EXPECT_EQ(likely_meant("--output", flags), std::nullopt);  // 3 edits from --out
  EXPECT_EQ(likely_meant("--frobnicate", flags), std::nullopt);
  // A short word may not change much of itself: "ab" is not "run" misspelt, nor "rn" (1 edit of 2
  // letters).
  const std::vector<std::string> commands{"run", "ab", "compare", "noise"};
  EXPECT_EQ(likely_meant("compar", commands), "compare");
  EXPECT_EQ(likely_meant("rn", commands), std::nullopt);
  EXPECT_EQ(likely_meant("", commands), std::nullopt);
  // The first of equally near words.
  EXPECT_EQ(likely_meant("--rond", std::vector<std::string>{"--rand", "--rend"}), "--rand");
}

}  // namespace
}  // namespace benchkit::model
