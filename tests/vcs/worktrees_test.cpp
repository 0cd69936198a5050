#include "vcs/worktrees.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/git_repo.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::vcs {
namespace {

namespace fs = std::filesystem;
using benchkit::testing::GitRepo;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(Worktrees, ChecksOutACommitBesideTheUsersCheckoutAndLeavesItAlone) {
  GitRepo repo;
  const std::string first = repo.commit("first", {{"a.txt", "1\n"}});
  repo.commit("second", {{"a.txt", "2\n"}});
  repo.write("a.txt", "the user's edit\n");
  repo.git({"stash", "list"});
  const std::string before = repo.user_state();
  const auto tree = prepare_worktree(repo.root(), Checkout{first, "", ""});
  ASSERT_TRUE(tree) << tree.error().message;
  EXPECT_EQ(tree->path, repo.root() + "/.benchkit/worktrees/" + first.substr(0, 12));
  EXPECT_EQ(read(fs::path(tree->path) / "a.txt"), "1\n");
  EXPECT_EQ(read(fs::path(repo.root()) / "a.txt"), "the user's edit\n");
  EXPECT_EQ(repo.user_state(), before);
  // Made once: the second time it is the same folder, checked and reused.
  std::ofstream(fs::path(tree->path) / "untracked-build-output") << "x";
  const auto again = prepare_worktree(repo.root(), Checkout{first, "", ""});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(fs::exists(fs::path(tree->path) / "untracked-build-output"));
  remove_worktree(repo.root(), tree->path);
  EXPECT_FALSE(fs::exists(tree->path));
  EXPECT_EQ(repo.user_state(), before);
}

TEST(Worktrees, AppliesTheUncommittedChangesInAWorktreeNamedByTheirHash) {
  GitRepo repo;
  const std::string head = repo.commit("first", {{"a.txt", "1\n"}, {"b.txt", "b\n"}});
  repo.write("a.txt", "uncommitted\n");
  const std::string diff =
      make_ignored_folder(repo.root() + "/.benchkit/diffs").value() + "/test.diff";
  ASSERT_TRUE(write_uncommitted_diff(repo.root(), diff).value());
  const std::string hash = hash_file(repo.root(), diff).value();
  const std::string before = repo.user_state();
  const auto tree = prepare_worktree(repo.root(), Checkout{head, diff, hash});
  ASSERT_TRUE(tree) << tree.error().message;
  EXPECT_EQ(tree->name, head.substr(0, 12) + "-dirty-" + hash.substr(0, 12));
  EXPECT_EQ(read(fs::path(tree->path) / "a.txt"), "uncommitted\n");
  EXPECT_TRUE(prepare_worktree(repo.root(), Checkout{head, diff, hash}));
  // Its changes edited since: refused, with the way out.
  std::ofstream(fs::path(tree->path) / "b.txt") << "edited by hand\n";
  const auto changed = prepare_worktree(repo.root(), Checkout{head, diff, hash});
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().message.find("no longer"), std::string::npos);
  EXPECT_NE(changed.error().message.find("worktree remove --force"), std::string::npos);
  fs::remove(diff);
  EXPECT_EQ(repo.user_state(), before);
}

TEST(Worktrees, RefusesAWorktreeLeftByAnInterruptedRunOrChangedSince) {
  GitRepo repo;
  const std::string head = repo.commit("first", {{"a.txt", "1\n"}});
  const auto tree = prepare_worktree(repo.root(), Checkout{head, "", ""});
  ASSERT_TRUE(tree);
  std::ofstream(fs::path(tree->path) / "a.txt") << "changed\n";
  const auto changed = prepare_worktree(repo.root(), Checkout{head, "", ""});
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().message.find("changed since it was made"), std::string::npos);
  // No marker: a run stopped while making it.
  fs::remove(tree->path + ".ready");
  const auto interrupted = prepare_worktree(repo.root(), Checkout{head, "", ""});
  ASSERT_FALSE(interrupted);
  EXPECT_NE(interrupted.error().message.find("interrupted"), std::string::npos);
  EXPECT_NE(interrupted.error().message.find(tree->path), std::string::npos);
  // Removed as the message says, it is made again.
  remove_worktree(repo.root(), tree->path);
  EXPECT_TRUE(prepare_worktree(repo.root(), Checkout{head, "", ""}));
}

}  // namespace
}  // namespace benchkit::vcs
