#include <fcntl.h>
#include <fmt/format.h>
#include <sha2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "store/file_digest.hpp"

namespace benchkit::store {

model::Result<FileStamp> stamp_of(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    return model::Error{fmt::format("cannot read data file {}: {}", path, std::strerror(errno))};
  }
  if (!S_ISREG(status.st_mode)) {
    return model::Error{fmt::format("data file {} is not a regular file", path)};
  }
  return FileStamp{
      static_cast<std::uint64_t>(status.st_size),
      static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

model::Result<std::string> sha256_of(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return model::Error{fmt::format("cannot open data file {}: {}", path, std::strerror(errno))};
  }
  // 1 MiB: large enough that the system calls cost nothing beside the hashing, small enough
  // to stay in the cache.
  std::vector<std::uint8_t> block(1 << 20);
  SHA2_CTX context;
  SHA256Init(&context);
  for (;;) {
    const ssize_t got = ::read(fd, block.data(), block.size());
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return model::Error{fmt::format("cannot read data file {}: {}", path, std::strerror(error))};
    }
    SHA256Update(&context, block.data(), static_cast<std::size_t>(got));
  }
  ::close(fd);
  std::array<char, SHA256_DIGEST_STRING_LENGTH> hex{};
  SHA256End(&context, hex.data());
  return std::string(hex.data());
}

}  // namespace benchkit::store
