#include "session/data_manifests.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "process/temporary_folder.hpp"

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

struct DataFolder {
  DataFolder() : remover(*process::make_temporary_folder("benchkit-data-test")) {}
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = remover.path() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  process::FolderRemover remover;
};

TEST(DataManifests, FilesAreListedRelativeToTheManifest) {
  EXPECT_EQ(as_listed("/data/in/a.bin", "/data/manifest.json"), "in/a.bin");
  EXPECT_EQ(as_listed("/other/b.bin", "/data/manifest.json"), "../other/b.bin");
}

TEST(DataManifests, AManifestWrittenIsVerified) {
  const DataFolder folder;
  DataOptions write;
  write.files = {folder.file("a.txt", "abc"), folder.file("b.txt", "hello")};
  write.generator = "make data";
  write.out = folder.remover.path() + "/manifest.json";
  write.no_cache = true;
  const auto manifest = write_manifest(write);
  ASSERT_TRUE(manifest) << manifest.error().message;
  ASSERT_EQ(manifest->files.size(), 2u);
  EXPECT_EQ(manifest->files[0].path, "a.txt");
  EXPECT_EQ(manifest->files[0].bytes, 3u);
  EXPECT_EQ(manifest->files[0].sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  DataOptions verify;
  verify.manifest = write.out;
  verify.no_cache = true;
  const auto checked = verify_manifest(verify);
  ASSERT_TRUE(checked) << checked.error().message;
  EXPECT_EQ(checked->size(), 2u);
  folder.file("b.txt", "changed");
  EXPECT_FALSE(verify_manifest(verify));
}

TEST(DataManifests, AFileGivenTwiceIsRefused) {
  const DataFolder folder;
  DataOptions write;
  const std::string file = folder.file("a.txt", "abc");
  write.files = {file, file};
  write.out = folder.remover.path() + "/manifest.json";
  write.no_cache = true;
  const auto manifest = write_manifest(write);
  ASSERT_FALSE(manifest);
  EXPECT_EQ(manifest.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(manifest.error().message, HasSubstr("is given twice"));
}

TEST(DataManifests, AMissingManifestIsAnError) {
  DataOptions verify;
  verify.manifest = "/nonexistent/manifest.json";
  EXPECT_FALSE(verify_manifest(verify));
}

}  // namespace
}  // namespace benchkit::session
