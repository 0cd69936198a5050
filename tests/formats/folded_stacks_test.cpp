#include "formats/folded_stacks.hpp"

#include <gtest/gtest.h>

namespace benchkit::formats {
namespace {

TEST(FoldedStacks, OneStackALineWithItsSeparatorsInNamesReplaced) {
  EXPECT_EQ(folded_text({{{"a", "b;c"}, 3.0}, {{"a"}, 1.0}}), "a;b c 3\na 1\n");
  EXPECT_EQ(folded_text({{{"x\ny"}, 2.4}}), "x y 2\n");
  EXPECT_EQ(folded_text({}), "");
}

}  // namespace
}  // namespace benchkit::formats
