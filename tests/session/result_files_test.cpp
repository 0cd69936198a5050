#include "session/result_files.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ResultFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-result-files-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    unsetenv(kResultLimitVariable);
  }
  void TearDown() override {
    unsetenv(kResultLimitVariable);
    fs::remove_all(folder_);
  }

  // A valid result of one benchmark, padded with spaces to `bytes` (JSON ignores them).
  std::string write_result(std::size_t bytes) {
    const std::string path = folder_ + "/big.json";
    std::string text =
        R"({"schema": "benchkit/result", "version": 1, "context": {}, "benchmarks": [)"
        R"({"name": "a", "kind": "micro", "samples": [{"ns": 10, "iters": 1}, )"
        R"({"ns": 11, "iters": 1}]}]})";
    text.resize(std::max(bytes, text.size()), ' ');
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string folder_;
};

TEST_F(ResultFiles, TheLimitIsTheDefaultOrTheVariable) {
  EXPECT_EQ(result_file_limit_bytes(), kDefaultResultLimitMiB * 1024 * 1024);
  setenv(kResultLimitVariable, "3", 1);
  EXPECT_EQ(result_file_limit_bytes(), 3u * 1024 * 1024);
  // Not a positive whole number: the default, not zero (which would refuse every file).
  for (const char* bad : {"0", "-1", "x", "2MiB", ""}) {
    setenv(kResultLimitVariable, bad, 1);
    EXPECT_EQ(result_file_limit_bytes(), kDefaultResultLimitMiB * 1024 * 1024) << bad;
  }
}

// A file over the limit is refused before it is read: the message names the file, its size,
// the limit and the variable that raises it. Under the limit, the same file reads.
TEST_F(ResultFiles, AFileOverTheLimitIsRefusedUpFrontNamingItsSizeAndTheLimit) {
  const std::string path = write_result(3 * 1024 * 1024 + 1);
  setenv(kResultLimitVariable, "2", 1);
  const auto refused = load_result_file(path);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::input);
  EXPECT_THAT(refused.error().message, HasSubstr(path + " is 3 MiB, more than the 2 MiB"));
  EXPECT_THAT(refused.error().message, HasSubstr("BENCHKIT_MAX_RESULT_MB=MiB"));
  setenv(kResultLimitVariable, "4", 1);
  const auto read = load_result_file(path);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->benchmarks.size(), 1u);
}

TEST_F(ResultFiles, SeveralFilesAreMergedWithTheFileAsTheProcess) {
  const std::string first = write_result(0);
  const std::string second = folder_ + "/second.json";
  fs::copy_file(first, second);
  const auto one = load_merged({first});
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->benchmarks.front().samples.size(), 2u);
  const auto both = load_merged({first, second});
  ASSERT_TRUE(both) << both.error().message;
  ASSERT_EQ(both->benchmarks.size(), 1u);
  EXPECT_EQ(both->benchmarks.front().samples.size(), 4u);
  EXPECT_FALSE(load_merged({first, folder_ + "/missing.json"}));
}

}  // namespace
}  // namespace benchkit::session
