#include "vcs/revisions.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/git_repo.hpp"

namespace benchkit::vcs {
namespace {

using benchkit::testing::GitRepo;

TEST(ParseRevListParents, ReadsEachCommitWithItsParents) {
  const auto nodes = parse_rev_list_parents("c3 c2 b2\nc2 c1\n\nc1\n");
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0], (CommitNode{"c3", {"c2", "b2"}}));
  EXPECT_EQ(nodes[1], (CommitNode{"c2", {"c1"}}));
  EXPECT_EQ(nodes[2], (CommitNode{"c1", {}}));
}

TEST(Revisions, ResolvesNamesToCommitsAndNamesAnUnknownOne) {
  GitRepo repo;
  const std::string first = repo.commit("first", {{"a.txt", "1\n"}});
  repo.git({"tag", "v1"});
  const std::string second = repo.commit("second: more", {{"a.txt", "2\n"}});
  EXPECT_EQ(resolve_commit(repo.root(), "v1").value(), first);
  EXPECT_EQ(resolve_commit(repo.root(), "HEAD~1").value(), first);
  EXPECT_EQ(resolve_commit(repo.root(), "main").value(), second);
  EXPECT_EQ(commit_subject(repo.root(), second), "second: more");
  const auto unknown = resolve_commit(repo.root(), "v9");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("\"v9\""), std::string::npos);
  EXPECT_NE(unknown.error().message.find("git log --oneline"), std::string::npos);
  // A name that looks like a flag is a revision, never an option of git.
  EXPECT_FALSE(resolve_commit(repo.root(), "--all"));
  EXPECT_EQ(repository_root(repo.root() + "/.").value(), repo.root());
}

TEST(Revisions, WritesTheUncommittedChangesAndHashesThem) {
  GitRepo repo;
  repo.commit("first", {{"a.txt", "1\n"}});
  const std::string diff =
      repo.root() + "/../" + std::filesystem::path(repo.root()).filename().string() + ".diff";
  EXPECT_FALSE(write_uncommitted_diff(repo.root(), diff).value());
  repo.write("a.txt", "changed\n");
  EXPECT_TRUE(write_uncommitted_diff(repo.root(), diff).value());
  std::ifstream in(diff);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("+changed"), std::string::npos);
  const auto hash = hash_file(repo.root(), diff);
  ASSERT_TRUE(hash);
  EXPECT_EQ(hash->size(), 40u);
  std::filesystem::remove(diff);
}

TEST(Revisions, ListsTheCommitsBetweenTwoAndRefusesThemSwapped) {
  GitRepo repo;
  const std::string c1 = repo.commit("1", {{"a.txt", "1\n"}});
  const std::string c2 = repo.commit("2", {{"a.txt", "2\n"}});
  const std::string c3 = repo.commit("3", {{"a.txt", "3\n"}});
  const auto between = commits_between(repo.root(), c1, c3);
  ASSERT_TRUE(between);
  ASSERT_EQ(between->size(), 2u);
  EXPECT_EQ((*between)[0], (CommitNode{c3, {c2}}));
  EXPECT_EQ((*between)[1], (CommitNode{c2, {c1}}));
  const auto swapped = commits_between(repo.root(), c3, c1);
  ASSERT_FALSE(swapped);
  EXPECT_NE(swapped.error().message.find("is not an ancestor"), std::string::npos);
}

}  // namespace
}  // namespace benchkit::vcs
