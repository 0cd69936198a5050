#include "session/revisions.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/git_repo.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;
using benchkit::testing::GitRepo;

TEST(ResolveRevision, TheWorkingTreeIsHeadWithItsUncommittedChangesNamedByTheirHash) {
  GitRepo repo;
  const std::string head = repo.commit("first", {{"a.txt", "1\n"}});
  const auto clean = resolve_revision(repo.root(), "NEW", "");
  ASSERT_TRUE(clean) << clean.error().message;
  EXPECT_EQ(clean->first.commit, head);
  EXPECT_FALSE(clean->first.dirty);
  EXPECT_FALSE(clean->second.dirty());
  EXPECT_NE(clean->first.label().find("no uncommitted changes"), std::string::npos);

  repo.write("a.txt", "2\n");
  const std::string before = repo.user_state();
  const auto dirty = resolve_revision(repo.root(), "NEW", "");
  ASSERT_TRUE(dirty) << dirty.error().message;
  EXPECT_TRUE(dirty->first.dirty);
  EXPECT_EQ(dirty->second.diff_hash, dirty->first.diff_hash);
  EXPECT_TRUE(fs::exists(dirty->second.diff_file));
  EXPECT_EQ(dirty->first.label(), "NEW the working tree (" + head.substr(0, 12) +
                                      " + uncommitted changes " +
                                      dirty->first.diff_hash.substr(0, 12) + ")");
  EXPECT_EQ(repo.user_state(), before);  // the diff lies in an ignored folder

  const auto named = resolve_revision(repo.root(), "BASE", "main");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->first.label(), "BASE main (" + head.substr(0, 12) + ")");
  EXPECT_FALSE(resolve_revision(repo.root(), "BASE", "nope"));
}

TEST(PrepareRevision, ChecksOutAndBuildsOnceThenKeepsTheBuild) {
  GitRepo repo;
  repo.commit("first",
              {{"make.sh", "printf '#!/bin/sh\\n' > \"$1/bench\"; chmod +x \"$1/bench\"\n"}});
  const auto resolved = resolve_revision(repo.root(), "BASE", "HEAD");
  ASSERT_TRUE(resolved);
  BuildChoice choice;
  choice.command = "sh make.sh {build}";
  choice.binary = "bench";
  std::string description;
  const auto recipe = build_recipe(repo.root(), choice, description);
  ASSERT_TRUE(recipe) << recipe.error().message;
  std::vector<std::string> steps;
  const PrepareProgress progress = [&](const Revision&, const std::string& step) {
    steps.push_back(step);
  };
  const auto first =
      prepare_revision(repo.root(), resolved->first, resolved->second, *recipe, progress);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->built.cached);
  EXPECT_EQ(steps.size(), 1u);
  EXPECT_TRUE(fs::exists(first->built.executables.at(0).artifact));
  const auto second =
      prepare_revision(repo.root(), resolved->first, resolved->second, *recipe, progress);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->built.cached);
  EXPECT_EQ(steps.size(), 1u);  // no build step ran
}

TEST(BuildRecipe, SaysWhatIsMissing) {
  GitRepo repo;
  repo.commit("first", {{"a.txt", "1\n"}});
  std::string description;
  const auto no_cmake = build_recipe(repo.root(), BuildChoice{}, description);
  ASSERT_FALSE(no_cmake);
  EXPECT_NE(no_cmake.error().message.find("--build"), std::string::npos);
  BuildChoice without_binary;
  without_binary.command = "make";
  EXPECT_FALSE(build_recipe(repo.root(), without_binary, description));
}

}  // namespace
}  // namespace benchkit::session
