// Writing files so that a reader never sees half of one and a crash loses nothing old.
#pragma once

#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::store {

struct Written {
  std::string path;
};

// Writes `content` to a temporary file beside `path` (PATH.tmp.PID), flushes it to disk, then
// renames it over `path`: a reader, or a writer killed at any point, sees the old file or the
// new one whole (tests/reliability/crash_writes.py). Creates missing parent folders. On failure
// `path` is untouched and the error names the file, the system's reason and, for a full disk or a
// read-only folder, what to do. After the rename, temporaries of `path` that killed writers left
// (their process is gone) are removed.
model::Result<Written> write_file_atomically(const std::string& path, std::string_view content);

// Reads a whole file; the error names the file and the reason.
model::Result<std::string> read_file(const std::string& path);

}  // namespace benchkit::store
