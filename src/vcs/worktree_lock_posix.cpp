#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "vcs/worktree_lock.hpp"
#include "vcs/worktrees.hpp"

namespace benchkit::vcs {

// How often a waiting run looks again (and at Ctrl-C): a build takes seconds, so a tenth of a
// second costs nothing and answers Ctrl-C at once.
constexpr std::chrono::milliseconds kLockPoll{100};

WorktreeLock::WorktreeLock(WorktreeLock&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_) {
  other.fd_ = -1;
}

WorktreeLock& WorktreeLock::operator=(WorktreeLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

WorktreeLock::~WorktreeLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

model::Result<WorktreeLock> lock_worktree(const std::string& root, const std::string& name,
                                          const std::function<void()>& waiting,
                                          const std::function<bool()>& give_up) {
  const auto folder = make_ignored_folder(worktrees_folder(root));
  if (!folder) return folder.error();
  const std::string path = (std::filesystem::path(*folder) / (name + ".lock")).string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return model::Error{
        fmt::format("cannot open the worktree lock {}: {}; check that the folder "
                    "can be written",
                    path, std::strerror(errno))};
  }
  WorktreeLock lock(path, fd);
  bool said = false;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      return model::Error{
          fmt::format("cannot lock the worktree lock {}: {}", path, std::strerror(errno))};
    }
    if (!said && waiting) waiting();
    said = true;
    if (give_up && give_up()) {
      return model::Error{fmt::format("interrupted while waiting for the worktree lock {}", path),
                          model::ErrorKind::interrupted};
    }
    std::this_thread::sleep_for(kLockPoll);
  }
  return lock;
}

}  // namespace benchkit::vcs
