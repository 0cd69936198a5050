#include "vcs/build.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "process/interrupt.hpp"
#include "process/temporary_folder.hpp"

namespace benchkit::vcs {
namespace {

namespace fs = std::filesystem;

std::string temporary() {
  return fs::canonical(process::make_temporary_folder("benchkit-build-test").value()).string();
}

TEST(CMakeCache, ReadsEntriesAndSkipsComments) {
  const auto cache = parse_cmake_cache(
      "# This is the CMakeCache file.\n//Flags used by the CXX compiler\n"
      "CMAKE_CXX_FLAGS:STRING=-march=native -O2\nCMAKE_BUILD_TYPE:STRING=Release\n\n"
      "\"WITH SPACE\":BOOL=ON\nCMAKE_HOME_DIRECTORY:INTERNAL=/src\r\n");
  EXPECT_EQ(cache.at("CMAKE_CXX_FLAGS").value, "-march=native -O2");
  EXPECT_EQ(cache.at("CMAKE_CXX_FLAGS").type, "STRING");
  EXPECT_EQ(cache.at("WITH SPACE").value, "ON");
  EXPECT_EQ(cache.at("CMAKE_HOME_DIRECTORY").value, "/src");
}

TEST(CMakeCache, TakesTheUsersSettingsButNotPathsIntoTheirBuildOrCheckout) {
  const auto cache = parse_cmake_cache(
      "CMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_HOME_DIRECTORY:INTERNAL=/repo/project\n"
      "CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\nCMAKE_CXX_COMPILER:FILEPATH=/usr/bin/clang++\n"
      "CMAKE_CXX_FLAGS:STRING=-fno-plt\n"
      "generated_DIR:PATH=/repo/build/gen\nvendored_DIR:PATH=/repo/third_party\n"
      "CMAKE_INSTALL_PREFIX:PATH=/usr/local\nMYPROJECT_FAST:BOOL=ON\n"
      "CMAKE_CACHEFILE_DIR:INTERNAL=/repo/build\nbenchkit_DIR:UNINITIALIZED=/opt/benchkit/build\n");
  const CMakeSettings settings =
      settings_from_cache(cache, "/repo", "/repo/build", "/usr/bin/ccache");
  EXPECT_EQ(settings.generator, "Ninja");
  EXPECT_EQ(settings.source_subfolder, "project");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"CMAKE_BUILD_TYPE", "RelWithDebInfo"},
      {"CMAKE_CXX_COMPILER", "/usr/bin/clang++"},
      {"CMAKE_CXX_COMPILER_LAUNCHER", "/usr/bin/ccache"},
      {"CMAKE_CXX_FLAGS", "-fno-plt"},
      {"CMAKE_C_COMPILER_LAUNCHER", "/usr/bin/ccache"},
      {"MYPROJECT_FAST", "ON"},
      {"benchkit_DIR", "/opt/benchkit/build"}};
  EXPECT_EQ(settings.definitions, expected);
  // The user's own launcher wins over ccache.
  auto with_launcher = cache;
  with_launcher["CMAKE_CXX_COMPILER_LAUNCHER"] = {"STRING", "sccache"};
  const auto kept = settings_from_cache(with_launcher, "/repo", "/repo/build", "/usr/bin/ccache");
  EXPECT_EQ(
      std::count(kept.definitions.begin(), kept.definitions.end(),
                 std::pair<std::string, std::string>{"CMAKE_CXX_COMPILER_LAUNCHER", "sccache"}),
      1);
  BuildRecipe one;
  one.cmake = settings;
  BuildRecipe other;
  other.cmake = kept;
  EXPECT_NE(recipe_key(one), recipe_key(other));
}

TEST(UserBuildFolder, FindsTheOneFolderOrSaysWhichToChoose) {
  const std::string root = temporary();
  const auto none = find_user_build_folder(root, "");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("--build-dir"), std::string::npos);
  fs::create_directories(root + "/build");
  std::ofstream(root + "/build/CMakeCache.txt") << "CMAKE_HOME_DIRECTORY:INTERNAL=" << root << "\n";
  EXPECT_EQ(find_user_build_folder(root, "").value(), root + "/build");
  fs::create_directories(root + "/build-asan");
  std::ofstream(root + "/build-asan/CMakeCache.txt")
      << "CMAKE_HOME_DIRECTORY:INTERNAL=" << root << "\n";
  const auto two = find_user_build_folder(root, "");
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("build-asan"), std::string::npos);
  EXPECT_EQ(find_user_build_folder(root, root + "/build-asan").value(), root + "/build-asan");
  EXPECT_FALSE(find_user_build_folder(root, root + "/missing"));
  fs::remove_all(root);
}

TEST(CodeModel, ReadsExecutablesAndWhichLinkBenchkitMain) {
  const std::string build = temporary();
  const fs::path reply = fs::path(build) / ".cmake/api/v1/reply";
  fs::create_directories(reply);
  std::ofstream(reply / "index-2026-01-01T00-00-00-0000.json")
      << R"({"reply": {"codemodel-v2": {"jsonFile": "codemodel-v2-1.json"}}})";
  std::ofstream(reply / "codemodel-v2-1.json")
      << R"({"paths": {"build": ")" << build << R"(", "source": "/src"},
            "configurations": [{"targets": [
              {"name": "bench", "jsonFile": "target-bench.json"},
              {"name": "tool", "jsonFile": "target-tool.json"},
              {"name": "lib", "jsonFile": "target-lib.json"},
              {"name": "inner", "jsonFile": "target-inner.json"}]}]})";
  std::ofstream(reply / "target-bench.json")
      << R"({"name": "bench", "type": "EXECUTABLE", "artifacts": [{"path": "bench"}],
             "link": {"commandFragments": [{"fragment": "/b/libbenchkit_main.a", "role": "libraries"}]}})";
  std::ofstream(reply / "target-tool.json")
      << R"({"name": "tool", "type": "EXECUTABLE", "artifacts": [{"path": "sub/tool"}]})";
  std::ofstream(reply / "target-lib.json") << R"({"name": "lib", "type": "STATIC_LIBRARY"})";
  std::ofstream(reply / "target-inner.json")
      << R"({"name": "inner", "type": "EXECUTABLE", "artifacts": [{"path": "inner"}],
             "dependencies": [{"id": "benchkit_main::@6890427a1f51a3e7e1df"}]})";
  const auto model = read_code_model(build);
  ASSERT_TRUE(model) << model.error().message;
  const std::vector<ExecutableTarget> expected = {{"bench", build + "/bench", true},
                                                  {"inner", build + "/inner", true},
                                                  {"tool", build + "/sub/tool", false}};
  EXPECT_EQ(*model, expected);
  fs::remove_all(reply);
  EXPECT_FALSE(read_code_model(build));
  fs::remove_all(build);
}

TEST(Placeholders, AreFilledAndQuotedForTheShell) {
  EXPECT_EQ(fill_placeholders("make -C {src} O={build}", "/a b", "/c'd", true),
            "make -C '/a b' O='/c'\\''d'");
  EXPECT_EQ(fill_placeholders("{build}/bench", "/s", "/b", false), "/b/bench");
}

// A worktree stand-in: build_revision only needs its path.
Worktree tree_at(const std::string& path) {
  return Worktree{path, fs::path(path).filename().string(), Checkout{"abc", "", ""}};
}

TEST(BuildRevision, RunsTheCommandOnceThenKeepsTheBuild) {
  const std::string src = temporary();
  std::ofstream(src + "/count") << "";
  BuildRecipe recipe;
  recipe.command =
      "echo built >> count && printf '#!/bin/sh\\n' > {build}/bench && chmod +x "
      "{build}/bench";
  recipe.binary = "bench";
  const auto first = build_revision(tree_at(src), recipe, "BASE v1");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->cached);
  ASSERT_EQ(first->executables.size(), 1u);
  EXPECT_EQ(first->executables[0].artifact, first->build_folder + "/bench");
  EXPECT_TRUE(first->build_folder.starts_with(src + "/.benchkit-build-"));
  const auto second = build_revision(tree_at(src), recipe, "BASE v1");
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->cached);
  std::ifstream count(src + "/count");
  std::string all((std::istreambuf_iterator<char>(count)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all, "built\n");  // the command ran once
  fs::remove_all(src);
}

TEST(BuildRevision, AFailedBuildNamesTheRevisionAndShowsTheEndOfItsLog) {
  const std::string src = temporary();
  BuildRecipe recipe;
  recipe.command =
      "echo compiling thing.cpp; test -f fixed || { echo 'thing.cpp:3: error: expected ;' >&2; "
      "exit 3; }; printf '#!/bin/sh\\n' > {build}/bench && chmod +x {build}/bench";
  recipe.binary = "bench";
  const auto failed = build_revision(tree_at(src), recipe, "NEW HEAD~2 (1a2b3c4d5e6f)");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, model::ErrorKind::failed);
  const std::string& message = failed.error().message;
  EXPECT_NE(message.find("NEW HEAD~2 (1a2b3c4d5e6f)"), std::string::npos) << message;
  EXPECT_NE(message.find("compiling thing.cpp"), std::string::npos) << message;
  EXPECT_NE(message.find("error: expected ;"), std::string::npos) << message;
  EXPECT_NE(message.find("exited with status 3"), std::string::npos) << message;
  // Not kept: once the source is fixed, the same recipe builds again.
  std::ofstream(src + "/fixed") << "";
  const auto fixed = build_revision(tree_at(src), recipe, "NEW");
  ASSERT_TRUE(fixed);
  EXPECT_FALSE(fixed->cached);
  fs::remove_all(src);
}

TEST(BuildRevision, ACommandThatMakesNoBinarySaysSo) {
  const std::string src = temporary();
  BuildRecipe recipe;
  recipe.command = "true";
  recipe.binary = "{build}/nothing";
  const auto built = build_revision(tree_at(src), recipe, "BASE");
  ASSERT_FALSE(built);
  EXPECT_NE(built.error().message.find("--binary"), std::string::npos);
  fs::remove_all(src);
}

}  // namespace
}  // namespace benchkit::vcs
