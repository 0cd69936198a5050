// Starting worker processes, behind an interface: the supervisor (session/isolated.hpp) is tested
// with a fake launcher whose workers crash, hang or exit on cue, without real processes.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "process/spawn.hpp"

namespace benchkit::session {

using Deadline = std::chrono::steady_clock::time_point;

// What is kept of a worker's standard error for the report of a failed benchmark: its last 20
// lines, at most 4 KiB (a crash's message and the lines before it; not a whole log).
inline constexpr std::size_t kStderrTailLines = 20;
inline constexpr std::size_t kStderrTailBytes = 4096;

// The tail (above) of what a worker wrote to standard error; a cut in the middle of a line
// starts at the next whole line.
std::string stderr_tail(const std::string& text);

// How a worker process ended.
struct WorkerEnd {
  process::Exit exit;
  bool timed_out = false;    // killed at the deadline it was given
  bool interrupted = false;  // killed because this process was asked to stop (Ctrl-C)
  // The last lines it wrote to standard error since it started its last benchmark.
  std::string stderr_tail;
};

// One thing a worker said or did (process/worker_protocol.hpp has the stream's frames).
struct WorkerEvent {
  enum class Kind {
    started,   // text: the benchmark's name
    finished,  // text: its result (one BenchmarkResult, formats' JSON)
    fact,      // text: KEY=VALUE about the worker process
    ended,     // end: the process ended (its stream is over)
  };
  Kind kind = Kind::ended;
  std::string text;
  WorkerEnd end;
};

class Worker {
 public:
  virtual ~Worker() = default;
  // Waits for the next event. A worker still silent at `deadline` is killed, and the event is
  // `ended` with timed_out set; so is one killed on Ctrl-C (interrupted). After `ended`, no more.
  virtual WorkerEvent next(std::optional<Deadline> deadline) = 0;
};

class Launcher {
 public:
  virtual ~Launcher() = default;
  // Starts a worker that runs the chosen benchmarks with these indices, in this order. The error
  // says why no worker could be started (then none of them ran).
  virtual model::Result<std::unique_ptr<Worker>> launch(
      const std::vector<std::size_t>& benchmarks) = 0;
};

}  // namespace benchkit::session
