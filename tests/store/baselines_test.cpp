#include "store/baselines.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;

class Baselines : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-baselines-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    setenv("BENCHKIT_DIR", folder_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("BENCHKIT_DIR");
    std::filesystem::remove_all(folder_);
  }
  std::string folder_;
};

TEST_F(Baselines, LiveUnderTheConfiguredFolder) {
  EXPECT_EQ(benchkit_directory(), folder_);
  EXPECT_EQ(baseline_path("main").value(), folder_ + "/baselines/main.json");
}

TEST_F(Baselines, SaveThenReadBack) {
  ASSERT_TRUE(save_baseline("main", "{\"x\": 1}\n"));
  EXPECT_EQ(read_baseline("main").value(), "{\"x\": 1}\n");
  EXPECT_EQ(list_baselines(), std::vector<std::string>{"main"});
}

TEST_F(Baselines, NamesThatEscapeTheFolderAreRefused) {
  for (const char* name : {"", "../x", "a/b", "..", ".hidden", "a\\b"}) {
    const auto path = baseline_path(name);
    EXPECT_FALSE(path) << name;
  }
  EXPECT_THAT(baseline_path("a/b").error().message, HasSubstr("--baseline-file"));
  EXPECT_FALSE(save_baseline("../escape", "{}"));
  EXPECT_FALSE(std::filesystem::exists(folder_ + "/escape.json"));
}

TEST_F(Baselines, AMissingBaselineSaysHowToCreateItAndListsTheOthers) {
  ASSERT_TRUE(save_baseline("before", "{}"));
  const auto missing = read_baseline("after");
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message, HasSubstr("baseline \"after\" does not exist"));
  EXPECT_THAT(missing.error().message, HasSubstr("saved: before"));
  EXPECT_THAT(missing.error().message, HasSubstr("--save-baseline after"));
}

TEST_F(Baselines, AFailedWriteLeavesTheOldBaseline) {
  ASSERT_TRUE(save_baseline("main", "old"));
  // A folder where the temporary file should go makes the write fail.
  const std::string blocker = baseline_path("main").value() + ".tmp." + std::to_string(getpid());
  std::filesystem::create_directories(blocker);
  EXPECT_FALSE(save_baseline("main", "new"));
  EXPECT_EQ(read_baseline("main").value(), "old");
}

TEST_F(Baselines, TheBenchBinaryIsKeptBesideItsResultsAndDroppedWithThem) {
  EXPECT_FALSE(baseline_executable("main")) << "nothing saved yet";
  ASSERT_TRUE(save_baseline("main", R"({"schema": "benchkit/result", "version": 1})"));
  EXPECT_FALSE(baseline_executable("main")) << "results alone keep no binary";
  const auto kept = save_baseline_executable("main", "/bin/true");
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ(kept->path, folder_ + "/baselines/main.bin");
  ASSERT_EQ(baseline_executable("main"), std::optional<std::string>(kept->path));
  EXPECT_EQ(access(kept->path.c_str(), X_OK), 0) << "the copy can be run";
  EXPECT_EQ(std::filesystem::file_size(kept->path), std::filesystem::file_size("/bin/true"));
  EXPECT_EQ(std::system(kept->path.c_str()), 0);
  // Saving new results under the name drops the binary: it measured something else.
  ASSERT_TRUE(save_baseline("main", R"({"schema": "benchkit/result", "version": 1})"));
  EXPECT_FALSE(baseline_executable("main"));
  EXPECT_FALSE(std::filesystem::exists(kept->path));
}

TEST_F(Baselines, KeepingABinaryChecksTheNameAndTheSource) {
  EXPECT_FALSE(save_baseline_executable("../up", "/bin/true"));
  const auto missing = save_baseline_executable("main", folder_ + "/no-such-binary");
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message, HasSubstr("no-such-binary"));
  EXPECT_FALSE(baseline_executable("main"));
}

}  // namespace
}  // namespace benchkit::store
