// Writing files so that a reader never sees half of one and a crash loses nothing old.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::store {

struct Written {
  std::string path;
};

// The two requests to the disk that make a write survive a power cut: the file's data (fsync of
// the temporary, before the rename) and the folder's entry (fsync of the folder, after the
// rename: without it the rename may still be only in memory, and the old file comes back).
// Each returns 0 or an errno value. A test replaces them to see the order or to fail one.
class DiskSync {
 public:
  virtual ~DiskSync() = default;
  virtual int sync_file(int fd) = 0;
  virtual int sync_folder(const std::string& folder) = 0;
};

// The real one: fsync(2) of the file; of the folder opened with O_RDONLY | O_DIRECTORY.
DiskSync& system_disk_sync();

// No flush at all, for scratch files that another process reads at once and that a crash loses
// anyway (a side-by-side worker's results in the driver's temporary folder): the rename still
// makes the file appear whole, but it may not survive a power cut.
DiskSync& scratch_disk_sync();

// Writes `content` to a temporary file beside `path` (PATH.tmp.PID), flushes it to disk, then
// renames it over `path` and flushes the folder: a reader, a writer killed at any point, or a
// power cut sees the old file or the new one whole (tests/reliability/crash_writes.py). Creates
// missing parent folders. On failure before the rename `path` is untouched and the error names
// the file, the system's reason and, for a full disk or a read-only folder, what to do; if only
// the folder's flush fails, the new file is in place and the error says so. After the rename,
// temporaries of `path` that killed writers left (their process is gone) are removed.
model::Result<Written> write_file_atomically(const std::string& path, std::string_view content,
                                             DiskSync& sync = system_disk_sync());

// Puts a file's content into a stream, piece by piece.
using ContentWriter = std::function<void(std::ostream&)>;

// The same, with the content that `write` puts into the stream as it produces it: a large
// document (a run's result with all its samples) goes to the disk through a 16 KiB buffer on the
// stack instead of being held whole in memory first. If `write` throws, the temporary is
// removed, `path` is untouched and the exception goes on to the caller.
model::Result<Written> write_file_atomically(const std::string& path, const ContentWriter& write,
                                             DiskSync& sync = system_disk_sync());

// Puts a file's content into a stream, and says why it could not finish (what it streams failed
// midway: a store that stopped answering), or nothing when the content is whole.
using FallibleWriter = std::function<std::optional<model::Error>(std::ostream&)>;

// write_file_atomically of what `write` streams, unless `write` fails: then the file is abandoned
// (`path` untouched, no temporary left) and `write`'s error returned. A content produced as it
// is written (a trend of ten million lines) is thus whole on the disk or not there at all.
model::Result<Written> write_file_unless_failed(const std::string& path,
                                                const FallibleWriter& write,
                                                DiskSync& sync = system_disk_sync());

// Reads a whole file; the error names the file and the reason.
model::Result<std::string> read_file(const std::string& path);

}  // namespace benchkit::store
