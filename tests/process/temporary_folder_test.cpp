#include "process/temporary_folder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace benchkit::process {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Sets TMPDIR for one test and puts back what it was.
class TmpdirOverride {
 public:
  explicit TmpdirOverride(const std::string& value) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", value.c_str(), 1);
  }
  ~TmpdirOverride() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

std::filesystem::path scratch(const std::string& name) {
  auto path =
      std::filesystem::path(::testing::TempDir()) / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

TEST(TemporaryFolder, IsMadeUnderTmpdirWithThePrefixAndIsEmpty) {
  const auto root = scratch("benchkit-tmpdir");
  TmpdirOverride tmpdir(root.string());
  const auto first = make_temporary_folder("benchkit-test");
  const auto second = make_temporary_folder("benchkit-test");
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_THAT(*first, StartsWith(root.string() + "/benchkit-test-"));
  EXPECT_NE(*first, *second);
  EXPECT_TRUE(std::filesystem::is_directory(*first));
  EXPECT_TRUE(std::filesystem::is_empty(*first));
  std::filesystem::remove_all(root);
}

TEST(TemporaryFolder, WithoutTmpdirIsMadeInSlashTmp) {
  TmpdirOverride tmpdir("");
  const auto folder = make_temporary_folder("benchkit-test");
  ASSERT_TRUE(folder) << folder.error().message;
  EXPECT_THAT(*folder, StartsWith("/tmp/benchkit-test-"));
  FolderRemover remover(*folder);
}

TEST(TemporaryFolder, TheErrorNamesTheFolderAndTheFix) {
  TmpdirOverride tmpdir("/nonexistent/benchkit");
  const auto folder = make_temporary_folder("benchkit-test");
  ASSERT_FALSE(folder);
  EXPECT_THAT(folder.error().message, HasSubstr("/nonexistent/benchkit/benchkit-test-XXXXXX"));
  EXPECT_THAT(folder.error().message, HasSubstr("TMPDIR"));
}

TEST(FolderRemover, RemovesTheFolderAndItsFilesAtTheEndOfItsScope) {
  const auto root = scratch("benchkit-remover");
  const std::string folder = (root / "inside").string();
  std::filesystem::create_directories(folder + "/deeper");
  std::ofstream(folder + "/deeper/file.json") << "{}";
  {
    FolderRemover remover(folder);
    EXPECT_EQ(remover.path(), folder);
  }
  EXPECT_FALSE(std::filesystem::exists(folder));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace benchkit::process
