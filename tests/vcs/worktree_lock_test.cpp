#include "vcs/worktree_lock.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

namespace benchkit::vcs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class WorktreeLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "/benchkit-lock-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A child process that takes the lock of `name`, says so through a pipe and holds it until it
  // is killed.
  pid_t holder(const std::string& name) {
    int ready[2];
    if (pipe(ready) != 0) return -1;
    const pid_t child = fork();
    if (child == 0) {
      close(ready[0]);
      auto lock = lock_worktree(root_, name, {}, {});
      if (!lock) _exit(3);
      if (write(ready[1], "x", 1) != 1) _exit(4);
      for (;;) pause();
    }
    close(ready[1]);
    char byte = 0;
    const bool took = read(ready[0], &byte, 1) == 1;
    close(ready[0]);
    return took ? child : -1;
  }

  std::string root_;
};

TEST_F(WorktreeLockTest, TakesAFreeLockAtOnceInTheIgnoredWorktreesFolder) {
  bool waited = false;
  const auto lock = lock_worktree(root_, "0123456789ab", [&] { waited = true; }, {});
  ASSERT_TRUE(lock) << lock.error().message;
  EXPECT_FALSE(waited);
  EXPECT_EQ(lock->path(), root_ + "/.benchkit/worktrees/0123456789ab.lock");
  EXPECT_TRUE(fs::exists(root_ + "/.benchkit/worktrees/.gitignore"));
}

// Another process holds it: the waiter says so once, gives up on Ctrl-C with kind interrupted,
// and gets the lock once the holder is gone (killed: the kernel releases its flock).
TEST_F(WorktreeLockTest, WaitsForAnotherProcessSaysSoAndGetsItWhenThatOneDies) {
  const pid_t child = holder("0123456789ab");
  ASSERT_GT(child, 0);
  int waits = 0;
  int polls = 0;
  const auto refused = lock_worktree(
      root_, "0123456789ab", [&] { ++waits; }, [&] { return ++polls == 3; });
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::interrupted);
  EXPECT_THAT(refused.error().message, HasSubstr("0123456789ab.lock"));
  EXPECT_EQ(waits, 1);
  EXPECT_EQ(polls, 3);
  // Another worktree's lock is free meanwhile.
  EXPECT_TRUE(lock_worktree(root_, "other", {}, {}));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  waits = 0;
  const auto taken = lock_worktree(root_, "0123456789ab", [&] { ++waits; }, {});
  ASSERT_TRUE(taken) << taken.error().message;
  EXPECT_EQ(waits, 0);
}

// Released when the lock goes out of scope: a second lock in this process can take it (flock
// locks belong to the open file, so a second open of the file would wait on a lock still held).
TEST_F(WorktreeLockTest, ReleasedAtTheEndOfItsScope) {
  { ASSERT_TRUE(lock_worktree(root_, "a", {}, {})); }
  int polls = 0;
  const auto again = lock_worktree(root_, "a", {}, [&] { return ++polls > 2; });
  EXPECT_TRUE(again);
  EXPECT_EQ(polls, 0);
}

TEST_F(WorktreeLockTest, AFolderThatCannotBeMadeIsNamed) {
  fs::create_directories(root_ + "/x");
  {
    std::FILE* f = std::fopen((root_ + "/x/.benchkit").c_str(), "w");
    std::fclose(f);
  }
  const auto refused = lock_worktree(root_ + "/x", "a", {}, {});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr(root_ + "/x/.benchkit"));
}

}  // namespace
}  // namespace benchkit::vcs
