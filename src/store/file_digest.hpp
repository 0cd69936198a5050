// What benchkit reads about a data file: its size and modification time (cheap, from stat) and
// its SHA-256 (reads every byte).
#pragma once

#include <cstdint>
#include <string>

#include "model/error.hpp"

namespace benchkit::store {

struct FileStamp {
  std::uint64_t bytes = 0;
  std::int64_t modified_ns = 0;  // st_mtim, nanoseconds since the epoch
  bool operator==(const FileStamp&) const = default;
};

// The file's size and modification time; the error names the file and the system's reason.
model::Result<FileStamp> stamp_of(const std::string& path);

// The SHA-256 of the file's bytes as 64 lowercase hexadecimal digits (as sha256sum prints it).
// Reads the file once, in 1 MiB blocks. The error names the file and the reason.
model::Result<std::string> sha256_of(const std::string& path);

}  // namespace benchkit::store
