// How a bench binary is driven as a worker by another process: the flags' spellings, and the
// result stream it sends back. Every driver (a suite run in fresh processes, side-by-side rounds,
// counted runs) builds its worker command lines as a process::WorkerInvocation
// (process/worker_invocation.hpp), whose field table spells them with these.
//
// The result stream. A worker started with `--worker-stream FD` writes frames to descriptor FD
// (process/wire.hpp: a 32-bit length, then the bytes); a frame's first byte says what it is:
//
//   'S' NAME           the worker starts measuring benchmark NAME
//   'R' JSON           it finished one: the benchmark's result (formats: one BenchmarkResult)
//   'F' KEY=VALUE      a fact about the worker process (peak_rss_bytes=123456)
//
// and ends the stream by exiting. A worker that dies leaves a stream whose last 'S' has no 'R':
// the benchmark that was running is the one that failed, and the driver goes on with the next
// in a fresh worker. A benchmark forked from the supervising process (session/) writes the same
// frames on a pipe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchkit::process::worker {

// Flags of the bench binary that only a driver gives (never shown by --help).
inline constexpr const char* kStreamFlag = "--worker-stream";  // FD of the result stream
inline constexpr const char* kSelectFlag = "--worker-select";  // "0,2,5": the chosen ones to run
inline constexpr const char* kIndexFlag = "--worker-index";    // which of --processes N it is
inline constexpr const char* kProgressFlag = "--worker-progress";
inline constexpr const char* kTurnsFlag = "--turns-fd";  // process/turns.hpp
// Flags the driver sets that users set too.
inline constexpr const char* kProcessesFlag = "--processes";
inline constexpr const char* kFilterFlag = "--filter";
inline constexpr const char* kExactFlag = "--exact";
inline constexpr const char* kTimeBudgetFlag = "--time-budget";
inline constexpr const char* kSampleSizeFlag = "--sample-size";
inline constexpr const char* kPrecisionFlag = "--precision";
inline constexpr const char* kOutFlag = "--out";
inline constexpr const char* kQuietFlag = "--quiet";
inline constexpr const char* kInfoFlag = "--benchkit-info";

// The descriptor a stream worker writes its frames to (the driver places the pipe there).
inline constexpr int kStreamFd = 4;

enum class FrameKind : char { started = 'S', finished = 'R', fact = 'F' };

struct Frame {
  FrameKind kind = FrameKind::started;
  std::string payload;
};

// Writes one frame; false when the reader is gone.
bool send(int fd, FrameKind kind, std::string_view payload);

// Frames out of bytes that arrive in pieces (a non-blocking pipe read as data comes).
class FrameReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete frame, if one has arrived. A frame with an unknown kind, or longer than
  // 256 MiB, is a broken stream: broken() is then set and nothing more is returned.
  std::optional<Frame> next();
  bool broken() const { return broken_; }

 private:
  std::string buffer_;
  std::size_t offset_ = 0;
  bool broken_ = false;
};

// "0,2,5" <-> {0, 2, 5}; nothing for text that is not such a list.
std::string format_selection(const std::vector<std::size_t>& indices);
std::optional<std::vector<std::size_t>> parse_selection(std::string_view text);

}  // namespace benchkit::process::worker
