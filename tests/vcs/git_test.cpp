#include "vcs/git.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "process/capture.hpp"

namespace benchkit::vcs {
namespace {

constexpr char kCommit[] = "4f2c1d9e8b7a6f5e4d3c2b1a09f8e7d6c5b4a392";

// What `git status --porcelain=v2 --branch --untracked-files=no` prints on a clean branch that
// tracks a remote.
std::string clean_status(const std::string& branch = "main") {
  return std::string("# branch.oid ") + kCommit + "\n# branch.head " + branch +
         "\n# branch.upstream origin/" + branch + "\n# branch.ab +0 -0\n";
}

TEST(ParseStatus, ReadsTheCommitAndBranchOfACleanTree) {
  const GitFacts facts = parse_status(clean_status("feature/fast-path"));
  EXPECT_EQ(facts.commit, kCommit);
  EXPECT_EQ(facts.branch, "feature/fast-path");
  EXPECT_EQ(facts.dirty, false);
}

TEST(ParseStatus, AnyChangedTrackedFileMakesTheTreeDirty) {
  for (const char* entry : {"1 .M N... 100644 100644 100644 a1 a1 src/main.cpp",
                            "1 A. N... 000000 100644 100644 00 b2 src/new.cpp",
                            "2 R. N... 100644 100644 100644 c3 c3 R100 src/to.cpp\tsrc/from.cpp",
                            "u UU N... 100644 100644 100644 100644 d4 d5 d6 src/conflict.cpp"}) {
    const GitFacts facts = parse_status(clean_status() + entry + "\n");
    EXPECT_EQ(facts.dirty, true) << entry;
    EXPECT_EQ(facts.commit, kCommit) << entry;
  }
}

TEST(ParseStatus, UntrackedAndIgnoredFilesDoNotCount) {
  EXPECT_EQ(parse_status(clean_status() + "? build/a.out\n! .cache\n").dirty, false);
}

TEST(ParseStatus, ADetachedHeadHasACommitAndNoBranch) {
  const GitFacts facts =
      parse_status(std::string("# branch.oid ") + kCommit + "\n# branch.head (detached)\n");
  EXPECT_EQ(facts.commit, kCommit);
  EXPECT_EQ(facts.branch, "");
  EXPECT_EQ(facts.dirty, false);
}

TEST(ParseStatus, ARepositoryWithoutCommitsHasNoFacts) {
  EXPECT_TRUE(parse_status("# branch.oid (initial)\n# branch.head main\n").empty());
  EXPECT_EQ(parse_status("# branch.oid (initial)\n# branch.head main\n"), GitFacts{});
}

TEST(ParseStatus, TextThatIsNotPorcelainGivesNoFacts) {
  EXPECT_EQ(parse_status(""), GitFacts{});
  EXPECT_EQ(parse_status("fatal: not a git repository\n"), GitFacts{});
  EXPECT_EQ(parse_status(" M src/main.cpp\n"), GitFacts{});  // porcelain v1
  EXPECT_EQ(parse_status("# branch.oid not-hex\n# branch.head main\n"), GitFacts{});
  EXPECT_EQ(parse_status(std::string("# branch.oid ") + kCommit + "\n"), GitFacts{});
}

TEST(ParseStatus, AcceptsWindowsLineEndings) {
  const GitFacts facts = parse_status(std::string("# branch.oid ") + kCommit +
                                      "\r\n# branch.head main\r\n1 .M N... x\r\n");
  EXPECT_EQ(facts.branch, "main");
  EXPECT_EQ(facts.dirty, true);
}

TEST(GitFacts, AsksTheRunnerForOneStatusOfTheFolder) {
  std::vector<std::pair<std::string, std::vector<std::string>>> calls;
  const GitRunner fake = [&](const std::string& folder, const std::vector<std::string>& arguments) {
    calls.emplace_back(folder, arguments);
    return std::optional<std::string>(clean_status());
  };
  const GitFacts facts = git_facts("/src/project", fake);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].first, "/src/project");
  EXPECT_EQ(calls[0].second, status_arguments());
  EXPECT_EQ(facts.commit, kCommit);
  EXPECT_EQ(facts.branch, "main");
}

TEST(GitFacts, ARunnerThatFailsGivesNoFacts) {
  const GitRunner failing = [](const std::string&, const std::vector<std::string>&) {
    return std::optional<std::string>();
  };
  EXPECT_EQ(git_facts(".", failing), GitFacts{});
}

TEST(Record, FillsTheGitFieldsOfAContext) {
  Context context;
  context.hostname = "runner-7";
  record(GitFacts{kCommit, "main", true}, context);
  EXPECT_EQ(context.git_commit, kCommit);
  EXPECT_EQ(context.git_branch, "main");
  EXPECT_EQ(context.git_dirty, true);
  EXPECT_EQ(context.hostname, "runner-7");
  record(GitFacts{}, context);  // outside a repository: nothing left from before
  EXPECT_EQ(context.git_commit, "");
  EXPECT_EQ(context.git_dirty, std::nullopt);
}

// Sets an environment variable for the life of the object, then restores it.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::string& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A real repository in a temporary folder, driven by the git on this machine.
class RealGit : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/benchkit-git-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  // Runs git in the test repository; its output without the final newline.
  std::string git(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"git", "-C", folder_.string()});
    const auto result = process::run_captured(arguments);
    EXPECT_TRUE(result && result->exit.ok()) << "git " << arguments[3] << " failed";
    if (!result) return {};
    std::string out = result->out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(folder_ / name) << text;
  }
  // A repository on branch main with one commit of `tracked.txt`. The settings are the
  // repository's own, so that neither the user's nor the CI's git configuration applies.
  void make_repository() {
    git({"init", "-q"});
    git({"symbolic-ref", "HEAD", "refs/heads/main"});
    git({"config", "user.name", "benchkit test"});
    git({"config", "user.email", "test@benchkit.invalid"});
    git({"config", "commit.gpgsign", "false"});
    write("tracked.txt", "one\n");
    git({"add", "tracked.txt"});
    git({"commit", "-q", "-m", "first"});
  }
  GitFacts facts() { return git_facts(folder_.string()); }
  // make_repository, a second commit on main, and HEAD detached at the first; returns its hash.
  std::string detach_at_first_of_two() {
    make_repository();
    const std::string first = git({"rev-parse", "HEAD"});
    write("tracked.txt", "two\n");
    git({"commit", "-q", "-a", "-m", "second"});
    git({"checkout", "-q", "--detach", first});
    return first;
  }

  std::filesystem::path folder_;
  // git looks no higher than the temporary folder's parent, in case that is inside a repository.
  ScopedEnvironment ceiling_{"GIT_CEILING_DIRECTORIES", ::testing::TempDir()};
};

TEST_F(RealGit, AFolderOutsideARepositoryHasNoFactsAndNothingIsPrinted) {
  ::testing::internal::CaptureStderr();
  const GitFacts outside = facts();
  const GitFacts missing = git_facts((folder_ / "no-such-folder").string());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(outside, GitFacts{});
  EXPECT_EQ(missing, GitFacts{});
}

// Outside a repository git is not started at all; with a `.git` (here an empty folder, which
// git itself would reject) it is, so the check is on what the folder holds.
TEST_F(RealGit, GitIsStartedOnlyWhereARepositoryMayBe) {
  if (may_be_in_repository(folder_.string())) {
    GTEST_SKIP() << folder_ << " is inside a repository: the outside case cannot be tried here";
  }
  std::filesystem::create_directories(folder_ / "bin");
  std::filesystem::create_directories(folder_ / "work" / "sub");
  const std::filesystem::path marker = folder_ / "git-was-started";
  {
    std::ofstream script(folder_ / "bin" / "git");
    // No other program is on this PATH: the shell's own redirection makes the marker.
    script << "#!/bin/sh\n: > '" << marker.string() << "'\nexit 1\n";
  }
  std::filesystem::permissions(folder_ / "bin" / "git", std::filesystem::perms::owner_all);
  const ScopedEnvironment path("PATH", (folder_ / "bin").string());
  EXPECT_EQ(git_facts((folder_ / "work" / "sub").string()), GitFacts{});
  EXPECT_FALSE(std::filesystem::exists(marker));
  std::filesystem::create_directory(folder_ / "work" / ".git");
  EXPECT_TRUE(may_be_in_repository((folder_ / "work" / "sub").string()));
  EXPECT_EQ(git_facts((folder_ / "work" / "sub").string()), GitFacts{});
  EXPECT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove(marker);
  std::filesystem::remove(folder_ / "work" / ".git");
  {
    const ScopedEnvironment git_dir("GIT_DIR", (folder_ / "elsewhere.git").string());
    EXPECT_TRUE(may_be_in_repository((folder_ / "work").string()));
    EXPECT_EQ(git_facts((folder_ / "work").string()), GitFacts{});
  }
  EXPECT_TRUE(std::filesystem::exists(marker));
}

TEST_F(RealGit, ARepositoryWithoutCommitsHasNoFacts) {
  git({"init", "-q"});
  EXPECT_EQ(facts(), GitFacts{});
}

TEST_F(RealGit, ACleanCheckoutHasItsCommitAndBranch) {
  make_repository();
  const GitFacts clean = facts();
  EXPECT_EQ(clean.commit, git({"rev-parse", "HEAD"}));
  EXPECT_EQ(clean.commit.size(), 40u);
  EXPECT_EQ(clean.branch, "main");
  EXPECT_EQ(clean.dirty, false);
  // From a subfolder: the same repository.
  std::filesystem::create_directory(folder_ / "sub");
  EXPECT_EQ(git_facts((folder_ / "sub").string()), clean);
}

TEST_F(RealGit, ChangedTrackedFilesMakeItDirtyUntrackedOnesDoNot) {
  make_repository();
  write("untracked.txt", "build output\n");
  EXPECT_EQ(facts().dirty, false);
  write("tracked.txt", "two\n");
  EXPECT_EQ(facts().dirty, true);
  git({"add", "tracked.txt"});  // staged only
  EXPECT_EQ(facts().dirty, true);
  git({"commit", "-q", "-m", "second"});
  const GitFacts committed = facts();
  EXPECT_EQ(committed.dirty, false);
  EXPECT_EQ(committed.commit, git({"rev-parse", "HEAD"}));
}

TEST_F(RealGit, FollowsTheCheckedOutBranch) {
  make_repository();
  git({"checkout", "-q", "-b", "feature/fast-path"});
  EXPECT_EQ(facts().branch, "feature/fast-path");
}

TEST_F(RealGit, ADetachedHeadHasItsCommitAndNoBranch) {
  const std::string first = detach_at_first_of_two();
  const GitFacts detached = facts();
  EXPECT_EQ(detached.commit, first);
  EXPECT_EQ(detached.branch, "");
  EXPECT_EQ(detached.dirty, false);
}

// On a CI runner that checked out the commit it names (GitHub's variables: they are read first,
// so that the runner this test runs on cannot stand in), the branch is the CI's; at another
// commit, none.
TEST_F(RealGit, ADetachedHeadAtTheCisCommitIsOnTheCisBranch) {
  const std::string first = detach_at_first_of_two();
  const ScopedEnvironment sha("GITHUB_SHA", first);
  const ScopedEnvironment ref("GITHUB_REF", "refs/heads/main");
  const ScopedEnvironment head_ref("GITHUB_HEAD_REF", "");
  EXPECT_EQ(facts().branch, "main");
  EXPECT_EQ(facts().commit, first);
  git({"checkout", "-q", "--detach", "main"});
  EXPECT_EQ(facts().branch, "");
}

TEST(RunGit, GitMissingFromThePathGivesNothing) {
  const ScopedEnvironment path("PATH", "/nonexistent-benchkit-path");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_git(".", status_arguments()), std::nullopt);
  EXPECT_EQ(git_facts("."), GitFacts{});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace benchkit::vcs
