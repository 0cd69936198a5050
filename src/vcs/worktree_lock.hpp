// One benchkit at a time checks out and builds a given worktree. Two `benchkit ab` runs on one
// repository that need the same revision would otherwise both make its worktree (the second then
// refusing the first's half-made folder as "left incomplete") and build into the same folder at
// once. The lock is an exclusive flock(2) of ROOT/.benchkit/worktrees/NAME.lock, held from the
// checkout to the end of the build: the second run waits, says so, and then reuses the first's
// complete worktree and build. The kernel drops the lock when its holder exits, killed or not, so
// a crashed run never leaves the next one waiting.
#pragma once

#include <functional>
#include <string>

#include "model/error.hpp"

namespace benchkit::vcs {

class WorktreeLock {
 public:
  WorktreeLock(WorktreeLock&& other) noexcept;
  WorktreeLock& operator=(WorktreeLock&& other) noexcept;
  WorktreeLock(const WorktreeLock&) = delete;
  WorktreeLock& operator=(const WorktreeLock&) = delete;
  ~WorktreeLock();  // releases the lock

  const std::string& path() const { return path_; }

 private:
  friend model::Result<WorktreeLock> lock_worktree(const std::string&, const std::string&,
                                                   const std::function<void()>&,
                                                   const std::function<bool()>&);
  WorktreeLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

// Takes the lock of worktree `name` of repository `root`, making its file when missing. When
// another process holds it, calls `waiting` once and waits, checking `give_up` (Ctrl-C) every
// tenth of a second: then returns an error of kind interrupted. Other errors name the lock file.
model::Result<WorktreeLock> lock_worktree(const std::string& root, const std::string& name,
                                          const std::function<void()>& waiting,
                                          const std::function<bool()>& give_up);

}  // namespace benchkit::vcs
