// The messages between benchkit and its spawner helper: length-prefixed binary frames on a
// pair of pipes. Both ends are built from the same source, so the layout is native.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "process/run.hpp"

namespace benchkit::process::wire {

std::string encode(const RunRequest& request);
std::string encode(const RunRecord& record);
std::optional<RunRequest> decode_request(std::string_view bytes);
std::optional<RunRecord> decode_record(std::string_view bytes);

// The first byte of a request frame: benchkit waits for its record (`now`), or sent it before
// its turn (`ahead`, Executor::announce). The spawner runs requests in order; after a run that
// failed it skips the requests sent ahead (`skipped` records) until the next `now`, so that runs
// announced for a benchmark that has just failed (or hung until its timeout) do not run.
enum class Turn : char { now = 'N', ahead = 'A' };
// The first byte of a record frame.
enum class Outcome : char { done = 'D', skipped = 'S' };

// One frame: a 32-bit length, then the bytes. False on end of file or an error. On a
// non-blocking descriptor write_frame waits (poll) whenever the pipe is full.
bool write_frame(int fd, std::string_view bytes);
bool read_frame(int fd, std::string& bytes);
// Appends one frame to `out`, for several frames written at once.
void append_frame(std::string& out, std::string_view bytes);
// Writes a whole frame of at most PIPE_BUF bytes (its length included) to a non-blocking pipe,
// or nothing: false when the pipe has no room for it now, when it is larger, or on an error.
bool try_write_frame(int fd, std::string_view bytes);
// Writes all of `bytes` (several frames); waits (poll) when a non-blocking pipe is full.
bool write_all(int fd, std::string_view bytes);

// Frames read from a descriptor through a buffer: one read takes every frame that has arrived
// (requests sent ahead, records sent in batches), so most frames cost no system call.
class FrameInput {
 public:
  explicit FrameInput(int fd) : fd_(fd) {}
  // Whether a whole frame is buffered (next() then makes no system call).
  bool buffered() const;
  // The next frame; it stays valid until the next call. Reads as needed. On a non-blocking
  // descriptor with nothing to read it calls `idle` (the spawner sends its pending records
  // there), then waits in poll. False at end of file (or in a frame), or on an error.
  bool next(std::string_view& frame, const std::function<void()>& idle = {});

 private:
  int fd_;
  std::string buffer_;
  std::size_t start_ = 0;  // where the next frame begins in buffer_
};

}  // namespace benchkit::process::wire
