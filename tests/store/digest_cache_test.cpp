#include "store/digest_cache.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "store/atomic_file.hpp"

namespace benchkit::store {
namespace {

const std::string kDigest = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447";
const std::string kOther = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

class DigestCacheFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-cache-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    path_ = folder_ + "/.benchkit/data-cache.json";
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string folder_;
  std::string path_;
};

TEST_F(DigestCacheFile, FindsADigestOnlyForTheSameSizeAndTime) {
  DigestCache cache(path_);
  cache.remember("/data/a.bin", {12, 1000}, kDigest);
  EXPECT_EQ(cache.find("/data/a.bin", {12, 1000}), kDigest);
  EXPECT_EQ(cache.find("/data/a.bin", {12, 1001}), std::nullopt) << "touched";
  EXPECT_EQ(cache.find("/data/a.bin", {13, 1000}), std::nullopt) << "grown";
  EXPECT_EQ(cache.find("/data/b.bin", {12, 1000}), std::nullopt);
}

TEST_F(DigestCacheFile, SavesAndLoadsAcrossRuns) {
  DigestCache cache(path_);
  cache.remember("/data/a.bin", {12, 1000}, kDigest);
  ASSERT_TRUE(cache.save());
  const DigestCache loaded = DigestCache::load(path_);
  EXPECT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded.find("/data/a.bin", {12, 1000}), kDigest);
}

TEST_F(DigestCacheFile, KeepsWhatAnotherProcessSavedMeanwhile) {
  DigestCache first = DigestCache::load(path_);
  DigestCache second = DigestCache::load(path_);
  first.remember("/data/a.bin", {12, 1000}, kDigest);
  second.remember("/data/b.bin", {0, 2000}, kOther);
  ASSERT_TRUE(first.save());
  ASSERT_TRUE(second.save());
  const DigestCache loaded = DigestCache::load(path_);
  EXPECT_EQ(loaded.find("/data/a.bin", {12, 1000}), kDigest);
  EXPECT_EQ(loaded.find("/data/b.bin", {0, 2000}), kOther);
}

TEST_F(DigestCacheFile, ReadsADamagedOrMissingFileAsEmpty) {
  EXPECT_EQ(DigestCache::load(path_).size(), 0u);
  for (
      const char* damaged :
      {"{not json", "[]", R"({"schema":"benchkit/data-cache","version":2,"files":{}})",
       R"({"schema":"benchkit/data-cache","version":"1","files":{}})",
       R"({"schema":"benchkit/data-cache","version":1,"files":{"/a":{"bytes":1,"modified_ns":1,"sha256":"xyz"}}})",
       R"({"schema":"benchkit/data-cache","version":1,"files":{"/a":{"bytes":-1,"modified_ns":1}}})"}) {
    ASSERT_TRUE(write_file_atomically(path_, damaged));
    EXPECT_EQ(DigestCache::load(path_).size(), 0u) << damaged;
  }
  // And is rewritten whole by the next save.
  DigestCache cache = DigestCache::load(path_);
  cache.remember("/data/a.bin", {12, 1000}, kDigest);
  ASSERT_TRUE(cache.save());
  EXPECT_EQ(DigestCache::load(path_).size(), 1u);
}

TEST_F(DigestCacheFile, InMemoryOnlyWithoutAPath) {
  DigestCache cache;
  cache.remember("/data/a.bin", {12, 1000}, kDigest);
  EXPECT_TRUE(cache.save());
  EXPECT_FALSE(std::filesystem::exists(folder_));
}

}  // namespace
}  // namespace benchkit::store
