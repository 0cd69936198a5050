#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <streambuf>

#include "store/atomic_file.hpp"

namespace benchkit::store {
namespace {

// The temporary a writer with process id `pid` uses for `path`.
std::string temporary_of(const std::string& path, pid_t pid) {
  return path + ".tmp." + std::to_string(pid);
}

// Removes the temporaries that writers of `path` killed before their rename left beside it
// (kill -9, a power cut): those of a process that no longer exists. A live writer's is left
// alone; so is one whose process id has been reused, at worst until a later write.
void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (pid <= 0 || pid == getpid()) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
    }
  }
}

// "cannot write PATH: REASON", with what to do for the reasons a user can act on. Whatever the
// reason, `path` itself was not touched.
model::Error write_error(const std::string& verb, const std::string& path, int error_number) {
  std::string advice;
  if (error_number == ENOSPC || error_number == EDQUOT) {
    advice =
        " (the disk is full: free some space or write elsewhere; " + path + " is as it was before)";
  } else if (error_number == EROFS || error_number == EACCES || error_number == EPERM) {
    advice = " (the folder is read-only or not writable by this user: write elsewhere; " + path +
             " is as it was before)";
  } else if (error_number == ENOENT || error_number == ENOTDIR) {
    advice = " (check the folder exists)";
  }
  return model::Error{"cannot " + verb + " " + path + ": " + std::strerror(error_number) + advice};
}

// A stream buffer over a file descriptor that keeps the first error of write(2) instead of
// throwing: the stream goes bad and error() says why. Its buffer is part of it, on the writer's
// stack: writing a file allocates nothing (a heap profile of a bench binary shows the
// benchmark's allocations, not the result file's buffer).
class FileWriteBuffer final : public std::streambuf {
 public:
  explicit FileWriteBuffer(int fd) : fd_(fd) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  std::streamsize xsputn(const char* data, std::streamsize size) override {
    if (size <= epptr() - pptr()) {
      traits_type::copy(pptr(), data, static_cast<std::size_t>(size));
      pbump(static_cast<int>(size));
      return size;
    }
    // Larger than the room left: what is buffered goes first, then this piece directly.
    if (!drain() || !put(data, static_cast<std::size_t>(size))) return 0;
    return size;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const bool done = put(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return done;
  }
  bool put(const char* data, std::size_t size) {
    if (error_ != 0) return false;
    std::size_t written = 0;
    while (written < size) {
      const ssize_t n = ::write(fd_, data + written, size - written);
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      written += static_cast<std::size_t>(n);
    }
    return true;
  }

  int fd_;
  std::array<char, 16 * 1024> buffer_;
  int error_ = 0;
};

class SystemDiskSync final : public DiskSync {
 public:
  int sync_file(int fd) override { return ::fsync(fd) == 0 ? 0 : errno; }
  int sync_folder(const std::string& folder) override {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    const int result = ::fsync(fd) == 0 ? 0 : errno;
    ::close(fd);
    return result;
  }
};

class ScratchDiskSync final : public DiskSync {
 public:
  int sync_file(int /*fd*/) override { return 0; }
  int sync_folder(const std::string& /*folder*/) override { return 0; }
};

// Streams what `write` puts into `fd` through a FileWriteBuffer: the first error of write(2) (EIO
// for a stream that went bad otherwise), or 0. An exception from `write` goes on to the caller.
int stream_into(int fd, const ContentWriter& write) {
  FileWriteBuffer buffer(fd);
  std::ostream out(&buffer);
  write(out);
  out.flush();
  const int error = buffer.error();
  return error == 0 && !out ? EIO : error;
}

// Writes what `write` streams straight into `path`, opened as it is: for a path that is no
// regular file (/dev/null, /dev/stdout on a pipe or a terminal, a named pipe), which a rename
// over it would replace with a file (as root, /dev/null itself: it happened here). Nothing to
// flush and no temporary: such a file has no old content to keep.
model::Result<Written> write_in_place(const std::string& path, const ContentWriter& write) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return write_error("write", path, errno);
  int write_errno = 0;
  try {
    write_errno = stream_into(fd, write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  const bool closed = ::close(fd) == 0;
  if (write_errno == 0 && !closed) write_errno = errno;
  if (write_errno != 0) return write_error("write", path, write_errno);
  return Written{path};
}

// Where an atomic write of `path` puts its file: the file a symbolic link names (the link stays
// a link), else `path`.
std::string replaced_file(const std::string& path) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
  std::error_code error;
  const std::filesystem::path target = std::filesystem::weakly_canonical(path, error);
  return error ? path : target.string();
}

}  // namespace

DiskSync& system_disk_sync() {
  static SystemDiskSync sync;
  return sync;
}

DiskSync& scratch_disk_sync() {
  static ScratchDiskSync sync;
  return sync;
}

model::Result<Written> write_file_atomically(const std::string& path, std::string_view content,
                                             DiskSync& sync) {
  return write_file_atomically(
      path,
      [content](std::ostream& out) {
        out.write(content.data(), static_cast<long>(content.size()));
      },
      sync);
}

model::Result<Written> write_file_atomically(const std::string& given, const ContentWriter& write,
                                             DiskSync& sync) {
  namespace fs = std::filesystem;
  struct stat existing {};
  if (::stat(given.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      !S_ISDIR(existing.st_mode)) {
    return write_in_place(given, write);
  }
  const std::string path = replaced_file(given);
  const fs::path target(path);
  std::error_code error;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), error);
    if (error) {
      return model::Error{"cannot create folder " + target.parent_path().string() + " for " + path +
                          ": " + error.message()};
    }
  }
  const std::string temporary = temporary_of(path, getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return write_error("write", path, errno);
  int write_errno = 0;
  try {
    write_errno = stream_into(fd, write);
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  if (write_errno != 0) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return write_error("write", path, write_errno);
  }
  // On a full disk or a quota, fsync or close is where a delayed write fails (NFS reports it
  // there): the temporary is then incomplete and must not replace `path`.
  const int sync_errno = sync.sync_file(fd);
  const bool synced = sync_errno == 0;
  const bool closed = ::close(fd) == 0;
  if (!synced || !closed) {
    const int reason = synced ? errno : sync_errno;
    ::unlink(temporary.c_str());
    return write_error("write", path, reason);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int reason = errno;
    ::unlink(temporary.c_str());
    return write_error("replace", path, reason);
  }
  remove_stale_temporaries(path);
  // The rename is in the folder's entries: until the folder is flushed a power cut can undo it
  // (the old file comes back whole). The new file is in place whatever happens here.
  const std::string folder = target.has_parent_path() ? target.parent_path().string() : ".";
  if (const int reason = sync.sync_folder(folder); reason != 0) {
    return model::Error{"wrote " + path + " but cannot flush its folder " + folder +
                        " to disk: " + std::strerror(reason) +
                        " (the new file is in place; a power cut before the system writes the "
                        "folder could bring the previous version back)"};
  }
  return Written{given};
}

model::Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return model::Error{"cannot read " + path + ": " + std::strerror(errno)};
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace benchkit::store
