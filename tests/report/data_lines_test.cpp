#include "report/data_lines.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(DataLines, TheManifestSaysWhetherItKnowsTheGenerator) {
  EXPECT_EQ(manifest_written("data/MANIFEST.json", 3, false),
            "data/MANIFEST.json: 3 file(s) with size and SHA-256\n");
  EXPECT_EQ(manifest_written("m.json", 1, true),
            "m.json: 1 file(s) with size and SHA-256, and how to regenerate them\n");
}

TEST(DataLines, EachFileSaysWhetherItsDigestCameFromTheCache) {
  const InputFile file{.path = "rows.csv", .bytes = 1234, .sha256 = "ab12"};
  EXPECT_EQ(file_verified(file, true), "ok  ab12  1234 bytes  rows.csv\n");
  EXPECT_EQ(file_verified(file, false), "ok  ab12  1234 bytes  rows.csv  (digest cached)\n");
  EXPECT_EQ(manifest_verified("m.json", 5, 2),
            "m.json: all 5 file(s) match (2 hashed, 3 unchanged since cached)\n");
}

}  // namespace
}  // namespace benchkit::report
