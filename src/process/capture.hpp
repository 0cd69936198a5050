// Running a child process with its output captured or discarded, and an optional time limit: for
// asking a program a question (a handshake) or running it quietly, not for timing it.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "process/spawn.hpp"

namespace benchkit::process {

enum class Stream {
  inherit,  // the child writes where this process writes
  discard,  // /dev/null
  capture,  // into Captured::out (stdout only)
};

struct CaptureOptions {
  Stream out = Stream::capture;
  Stream err = Stream::discard;  // capture is not offered for stderr; it acts as discard
  // When set, stderr goes to this file (created or truncated) instead: what a failing child
  // said can be read back after it ended.
  std::string err_file;
  // Killed (SIGKILL) when still running after this long; none: wait as long as it takes.
  std::optional<std::chrono::milliseconds> timeout;
  // At most this many bytes of stdout are kept; the rest is read and dropped, so a chatty
  // child never blocks on a full pipe.
  std::size_t limit = 1 << 20;
  // The child runs on this CPU only (process::SpawnOnCpu); none: on the CPUs this process has.
  std::optional<int> cpu;
};

struct Captured {
  Exit exit;
  std::string out;
  bool timed_out = false;  // it was killed at the time limit (exit.signal is then SIGKILL)
};

// Spawns argv[0] (searched in PATH when it has no '/') with stdin from /dev/null, and waits for
// it. The error names the program when it cannot be started.
model::Result<Captured> run_captured(const std::vector<std::string>& argv,
                                     const CaptureOptions& options = {});

}  // namespace benchkit::process
