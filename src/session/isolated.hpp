// Every benchmark isolated: benchmarks run in worker processes, and one that crashes, hangs or
// ends its process is recorded as failed while the others go on in a fresh worker.
//
// The supervisor reads each worker's events (session/launcher.hpp): a benchmark that started and
// did not finish when its worker ended is the one that failed, with the worker's exit status or
// signal, or the timeout, and the last lines of its standard error. The rest of that worker's
// benchmarks run in a new one. It prints nothing: what happens goes to an observer.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "session/launcher.hpp"

namespace benchkit::session {

struct Isolation {
  // A benchmark still running this long after it started is taken for hung and its worker is
  // killed (none: no limit).
  std::optional<std::chrono::nanoseconds> timeout;
  // Benchmarks given to one worker (0: all that are left). One each is the default of a bench
  // binary: every benchmark starts from the same clean process.
  std::size_t per_worker = 1;
  // False: Supervised::results is left empty, for an observer that keeps the results itself
  // (a second copy of every sample would double the supervisor's heap).
  bool keep_results = true;
  // The clock the deadlines are read from (tests give a fake).
  std::function<Deadline()> now = [] { return std::chrono::steady_clock::now(); };
};

class IsolationObserver {
 public:
  virtual ~IsolationObserver() = default;
  virtual void started(std::size_t /*index*/, const std::string& /*name*/) {}
  // A benchmark measured to its end (a result with a scenario's failed verify included). When
  // IsolationSettings::keep_results is false the observer may move the result out (the
  // supervisor then holds each result once); otherwise it must leave it as it is.
  virtual void finished(std::size_t /*index*/, BenchmarkResult& /*result*/) {}
  // A benchmark that failed to run: `failed` holds its name, failures and failure.
  virtual void failed(std::size_t /*index*/, const BenchmarkResult& /*failed*/) {}
};

struct Supervised {
  // One entry per benchmark run, in the order they ran: measured results (a scenario gives one
  // per phase) and failed benchmarks (no samples, `failure` set).
  std::vector<BenchmarkResult> results;
  std::size_t failed = 0;  // benchmarks that failed to run
  // The largest peak resident set a worker reported (its whole life), if any did.
  std::optional<std::int64_t> worker_peak_rss_bytes;
  bool interrupted = false;  // Ctrl-C: the benchmarks after the interrupted one did not run
};

// Turns a 'finished' event's text into the benchmark's results (a scenario has one per phase);
// the error says why it could not be read.
using ResultDecoder =
    std::function<model::Result<std::vector<BenchmarkResult>>(const std::string& text)>;

// Runs the benchmarks `order` lists (indices into `names`, in that order) through `launcher`,
// each isolated; the launcher and the observer are given those indices.
Supervised supervise(Launcher& launcher, const std::vector<std::string>& names,
                     const std::vector<std::size_t>& order, const Isolation& isolation,
                     const ResultDecoder& decode, IsolationObserver& observer);

// A failed benchmark's result: no samples, `failure` set and its message in `failures`.
BenchmarkResult failed_benchmark(const std::string& name, Failure failure, std::string message);

// The message of a benchmark whose process ended in `end` while it ran.
std::string describe_end(const WorkerEnd& end, std::optional<std::chrono::nanoseconds> timeout);

}  // namespace benchkit::session
