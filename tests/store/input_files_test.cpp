#include "store/input_files.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "benchkit/data.hpp"
#include "store/atomic_file.hpp"
#include "store/file_digest.hpp"

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// sha256sum of "hello world\n" (12 bytes) and of "hello_world\n".
const std::string kHello = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447";

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // Normalised (TempDir() ends with '/'): paths beside a manifest come back normalised.
    folder_ = (fs::path(::testing::TempDir()) /
               (std::string("benchkit-inputs-") +
                ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                  .lexically_normal()
                  .string();
    fs::remove_all(folder_);
    fs::create_directories(folder_ + "/data");
    cache_path_ = folder_ + "/cache.json";
    path_ = write("data/hello.txt", "hello world\n");
  }
  void TearDown() override {
    unsetenv("BENCHKIT_DIR");
    fs::remove_all(folder_);
  }
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = folder_ + "/" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    return path;
  }
  // The real hash, counted: the cache's hits are the calls it saves.
  Hasher counting() {
    return [this](const std::string& path) {
      ++hashes_;
      return sha256_of(path);
    };
  }
  std::string folder_;
  std::string cache_path_;
  std::string path_;
  int hashes_ = 0;
};

TEST_F(InputFiles, AcceptsTheExpectedFile) {
  DigestCache cache(cache_path_);
  const auto checked = check_file(path_, {kHello, 12, ""}, cache, counting());
  ASSERT_TRUE(checked) << checked.error().message;
  EXPECT_EQ(checked->file.path, path_);
  EXPECT_EQ(checked->file.bytes, 12u);
  EXPECT_EQ(checked->file.sha256, kHello);
  EXPECT_TRUE(checked->hashed);
  EXPECT_EQ(hashes_, 1);
}

TEST_F(InputFiles, HashesAnUnchangedFileOnceAcrossRuns) {
  {
    DigestCache cache = DigestCache::load(cache_path_);
    ASSERT_TRUE(check_file(path_, {kHello, 12, ""}, cache, counting()));
    ASSERT_TRUE(check_file(path_, {kHello, 12, ""}, cache, counting()));
    ASSERT_TRUE(cache.save());
  }
  EXPECT_EQ(hashes_, 1) << "the second check in the same run used the cache";
  // The next run: a new process loads the cache from its file.
  DigestCache next_run = DigestCache::load(cache_path_);
  const auto checked = check_file(path_, {kHello, 12, ""}, next_run, counting());
  ASSERT_TRUE(checked) << checked.error().message;
  EXPECT_FALSE(checked->hashed);
  EXPECT_EQ(hashes_, 1) << "the next run used the saved digest";
}

TEST_F(InputFiles, HashesAgainAFileThatChangedAndSaysItDiffers) {
  DigestCache cache(cache_path_);
  ASSERT_TRUE(check_file(path_, {kHello, 12, ""}, cache, counting()));
  // Same size, other bytes, a later modification time: the cached digest no longer applies.
  write("data/hello.txt", "hello_world\n");
  fs::last_write_time(path_, fs::last_write_time(path_) + std::chrono::seconds(2));
  const auto checked =
      check_file(path_, {kHello, 12, "python3 make.py --seed 1"}, cache, counting());
  EXPECT_EQ(hashes_, 2);
  ASSERT_FALSE(checked);
  const std::string& message = checked.error().message;
  const std::string found = sha256_of(path_).value();
  EXPECT_THAT(message, HasSubstr("data file " + path_ + " is not the expected one"));
  EXPECT_THAT(message, HasSubstr("its SHA-256 is " + found + ", expected " + kHello));
  EXPECT_THAT(message, HasSubstr("size 12 bytes as expected"));
  EXPECT_THAT(message, HasSubstr("make it again with: python3 make.py --seed 1"));
}

TEST_F(InputFiles, NamesBothDigestsAndSizesWhenTheDigestIsWrong) {
  DigestCache cache;
  const std::string wrong(64, '0');
  const auto checked = check_file(path_, {wrong, 13, ""}, cache, counting());
  ASSERT_FALSE(checked);
  EXPECT_THAT(checked.error().message, HasSubstr("its SHA-256 is " + kHello + ", expected " +
                                                 wrong + " (size 12 bytes, expected 13)"));
  EXPECT_THAT(checked.error().message, HasSubstr("make it again the way it was made"));
  EXPECT_EQ(checked.error().kind, model::ErrorKind::input);
}

TEST_F(InputFiles, RefusesAnExpectedDigestThatIsNotOne) {
  DigestCache cache;
  const auto checked = check_file(path_, {"9f86d0", 12, ""}, cache, counting());
  ASSERT_FALSE(checked);
  EXPECT_THAT(checked.error().message,
              HasSubstr("the expected SHA-256 \"9f86d0\" is not 64 lowercase hexadecimal digits"));
  EXPECT_EQ(hashes_, 0);
}

TEST_F(InputFiles, SaysHowToMakeAMissingFile) {
  DigestCache cache;
  const auto checked =
      check_file(folder_ + "/data/absent.csv", {kHello, 12, "make corpus"}, cache, counting());
  ASSERT_FALSE(checked);
  EXPECT_THAT(checked.error().message, HasSubstr("data/absent.csv: No such file"));
  EXPECT_THAT(checked.error().message, HasSubstr("make it with: make corpus"));
}

TEST_F(InputFiles, ChecksAManifestRelativeToItsFolder) {
  formats::DataManifest manifest;
  manifest.generator = "./generate.sh";
  manifest.generator_version = "2";
  manifest.files.push_back({"hello.txt", 12, kHello});
  const std::string manifest_path = folder_ + "/data/manifest.json";
  DigestCache cache;
  const auto checked = check_manifest(manifest_path, manifest, cache, counting());
  ASSERT_TRUE(checked) << checked.error().message;
  ASSERT_EQ(checked->size(), 1u);
  EXPECT_EQ((*checked)[0].file.path, folder_ + "/data/hello.txt");

  manifest.files.push_back({"other.txt", 3, kHello});
  write("data/other.txt", "abc");
  const auto mismatch = check_manifest(manifest_path, manifest, cache, counting());
  ASSERT_FALSE(mismatch);
  EXPECT_THAT(mismatch.error().message, HasSubstr(manifest_path + ": data file " + folder_ +
                                                  "/data/other.txt is not the expected one"));
  EXPECT_THAT(
      mismatch.error().message,
      HasSubstr("make it again with: ./generate.sh (version 2), run in " + folder_ + "/data"));
}

TEST_F(InputFiles, TheLibraryCallChecksCachesAndRecords) {
  setenv("BENCHKIT_DIR", (folder_ + "/.benchkit").c_str(), 1);
  const std::size_t before = checked_input_count();
  EXPECT_EQ(data::input_file(path_, {.sha256 = kHello, .bytes = 12}), path_);
  const std::vector<InputFile> recorded = checked_inputs(before);
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].path, path_);
  EXPECT_EQ(recorded[0].sha256, kHello);
  EXPECT_EQ(recorded[0].bytes, 12u);
  // The digest went to the cache file, for the next run.
  EXPECT_EQ(DigestCache::load(folder_ + "/.benchkit/data-cache.json")
                .find(fs::absolute(path_).lexically_normal().string(), stamp_of(path_).value()),
            kHello);
  try {
    data::input_file(path_, {.sha256 = std::string(64, 'f'), .bytes = 12, .regenerate = "gen"});
    FAIL() << "a wrong digest was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("expected " + std::string(64, 'f')));
    EXPECT_THAT(error.what(), HasSubstr("make it again with: gen"));
  }
  EXPECT_EQ(checked_input_count(), before + 1) << "a mismatch is not recorded as checked";
}

TEST_F(InputFiles, TheManifestCallFindsTheFileByItsListedPath) {
  setenv("BENCHKIT_DIR", (folder_ + "/.benchkit").c_str(), 1);
  formats::DataManifest manifest;
  manifest.generator = "./generate.sh";
  manifest.files.push_back({"hello.txt", 12, kHello});
  const std::string manifest_path = folder_ + "/data/manifest.json";
  ASSERT_TRUE(write_file_atomically(manifest_path, formats::manifest_to_json(manifest)));
  EXPECT_EQ(data::manifest_file(manifest_path, "hello.txt"), folder_ + "/data/hello.txt");
  try {
    data::manifest_file(manifest_path, "absent.txt");
    FAIL() << "an unlisted file was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("lists no file \"absent.txt\" (it lists: hello.txt)"));
  }
  try {
    data::manifest_file(folder_ + "/none.json", "hello.txt");
    FAIL() << "a missing manifest was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("cannot read data manifest " + folder_ + "/none.json"));
  }
}

}  // namespace
}  // namespace benchkit::store
