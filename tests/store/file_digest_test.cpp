#include "store/file_digest.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;

class FileDigest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-digest-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = folder_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::string folder_;
};

TEST_F(FileDigest, AgreesWithSha256sum) {
  // Digests as `sha256sum` prints them for the same bytes.
  EXPECT_EQ(sha256_of(write("hello", "hello world\n")).value(),
            "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447");
  EXPECT_EQ(sha256_of(write("empty", "")).value(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_F(FileDigest, HashesFilesLargerThanOneBlock) {
  // 3 MiB + 1 byte of 'a' crosses the 1 MiB read blocks; digest from Python's hashlib.
  const std::string path = write("big", std::string((3 << 20) + 1, 'a'));
  EXPECT_EQ(sha256_of(path).value(),
            "2b98b70051781969f52a33c9cd0e8392bb7a634a92a3be4597b25e13feb41ee6");
}

TEST_F(FileDigest, StampsSizeAndModificationTime) {
  const std::string path = write("hello", "hello world\n");
  const auto stamp = stamp_of(path);
  ASSERT_TRUE(stamp) << stamp.error().message;
  EXPECT_EQ(stamp->bytes, 12u);
  EXPECT_GT(stamp->modified_ns, 0);
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
  EXPECT_NE(stamp_of(path).value(), *stamp);
}

TEST_F(FileDigest, NamesAMissingFileOrAFolder) {
  EXPECT_THAT(sha256_of(folder_ + "/absent").error().message,
              HasSubstr("cannot open data file " + folder_ + "/absent: No such file"));
  EXPECT_THAT(stamp_of(folder_ + "/absent").error().message,
              HasSubstr("cannot read data file " + folder_ + "/absent: No such file"));
  EXPECT_THAT(stamp_of(folder_).error().message, HasSubstr("is not a regular file"));
}

}  // namespace
}  // namespace benchkit::store
