// `benchkit data manifest` and `benchkit data verify` as a user runs them, on real files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "formats/data_manifest.hpp"
#include "store/atomic_file.hpp"
#include "support/digests.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;
namespace fs = std::filesystem;

using benchkit::testing::kHelloWorldSha256;
using benchkit::testing::kTool;

class DataCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-data-command-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
    fs::create_directories(folder_ + "/corpus");
    write("corpus/hello.txt", "hello world\n");
    write("corpus/rows.csv", "a,b\n1,2\n");
  }
  void TearDown() override { fs::remove_all(folder_); }
  void write(const std::string& name, const std::string& content) {
    std::ofstream(folder_ + "/" + name, std::ios::binary | std::ios::trunc) << content;
  }
  // Runs `benchkit ARGS` in the test's folder (its .benchkit/ holds the digest cache).
  testing::CommandResult tool(const std::string& args) {
    return run_command("cd '" + folder_ + "' && " + kTool + " " + args);
  }
  std::string folder_;
};

TEST_F(DataCommand, WritesAManifestWithSizesDigestsAndTheGenerator) {
  const auto result = tool(
      "data manifest corpus/hello.txt corpus/rows.csv --generator 'python3 gen.py --seed 7' "
      "--generator-version v3 --out corpus/manifest.json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("corpus/manifest.json: 2 file(s) with size and SHA-256"));
  const auto text = store::read_file(folder_ + "/corpus/manifest.json");
  ASSERT_TRUE(text);
  const auto manifest = formats::manifest_from_json(*text, "manifest.json");
  ASSERT_TRUE(manifest) << manifest.error().message;
  EXPECT_EQ(manifest->generator, "python3 gen.py --seed 7");
  EXPECT_EQ(manifest->generator_version, "v3");
  ASSERT_EQ(manifest->files.size(), 2u);
  // Relative to the manifest's folder.
  EXPECT_EQ(manifest->files[0].path, "hello.txt");
  EXPECT_EQ(manifest->files[0].bytes, 12u);
  EXPECT_EQ(manifest->files[0].sha256, kHelloWorldSha256);
  EXPECT_EQ(manifest->files[1].path, "rows.csv");
  EXPECT_EQ(manifest->files[1].bytes, 8u);
}

TEST_F(DataCommand, VerifiesUsingTheCacheUnlessToldNot) {
  ASSERT_EQ(tool("data manifest corpus/hello.txt corpus/rows.csv --out m.json").exit_code, 0);
  auto verified = tool("data verify m.json");
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr("ok  " + kHelloWorldSha256 + "  12 bytes  corpus/hello.txt"));
  EXPECT_THAT(verified.out,
              HasSubstr("m.json: all 2 file(s) match (0 hashed, 2 unchanged since cached)"));
  verified = tool("data verify m.json --no-cache");
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr("all 2 file(s) match (2 hashed, 0 unchanged since cached)"));
}

TEST_F(DataCommand, AChangedFileFailsWithBothDigestsAndTheGenerator) {
  ASSERT_EQ(tool("data manifest corpus/hello.txt --generator ./make-corpus --out corpus/m.json")
                .exit_code,
            0);
  write("corpus/hello.txt", "hello there\n");
  fs::last_write_time(folder_ + "/corpus/hello.txt",
                      fs::last_write_time(folder_ + "/corpus/hello.txt") + std::chrono::seconds(2));
  const auto result = tool("data verify corpus/m.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("error: corpus/m.json: data file corpus/hello.txt is not the "
                                    "expected one: its SHA-256 is "));
  EXPECT_THAT(result.err, HasSubstr(", expected " + kHelloWorldSha256));
  EXPECT_THAT(result.err, HasSubstr("make it again with: ./make-corpus, run in corpus"));
}

TEST_F(DataCommand, RefusesMissingFilesAndOtherDocuments) {
  auto result = tool("data manifest corpus/absent.bin --out m.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("cannot read data file corpus/absent.bin: No such file"));
  EXPECT_FALSE(fs::exists(folder_ + "/m.json"));

  write("result.json", R"({"schema":"benchkit/result","version":1,"benchmarks":[]})");
  result = tool("data verify result.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("result.json: schema: is \"benchkit/result\""));

  result = tool("data verify absent.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("absent.json"));

  result = tool("data manifest corpus/hello.txt");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--out"));
}

}  // namespace
}  // namespace benchkit
