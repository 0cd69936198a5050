// Running one whole process and accounting for it: wall time from spawn to reap, CPU time,
// peak RSS, faults and context switches from wait4, exit status, timeouts.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::process {

// Where the command's standard output goes. Standard error is always read through a pipe (its
// last lines explain a failure) and also shown when the output is `inherit`.
enum class Output { null, pipe, inherit, file };

struct RunRequest {
  std::vector<std::string> argv;  // argv[0] is searched in PATH when it has no '/'
  std::vector<std::string> env;   // "KEY=VALUE" added to (or replacing in) the environment
  std::string input_path;         // standard input; empty: /dev/null
  Output output = Output::null;
  std::string output_path;       // for Output::file (truncated, then appended run after run)
  double timeout_seconds = 0.0;  // 0: none; else SIGTERM to the process group, SIGKILL 1 s later
  std::vector<int> cpus;         // CPU affinity; empty: inherited
};

struct RunRecord {
  bool started = false;            // false: the program could not be started (see `error`)
  std::string error;               // why it could not be started
  double wall_ns = 0.0;            // monotonic clock, just before fork to just after the reap
  Resources resources;             // from wait4: CPU, peak RSS, faults, switches, exit status
  std::string stderr_tail;         // the last lines the command wrote on standard error
  std::uint64_t stdout_bytes = 0;  // bytes read from standard output (Output::pipe)
  bool interrupted = false;        // Ctrl-C arrived: the command was killed, the run is void

  bool ok() const {
    return started && !resources.timed_out && !resources.signal &&
           resources.exit_code.value_or(-1) == 0;
  }
  // "exited with status 3", "killed by signal 9 (SIGKILL)", "timed out after 2 s", ...
  std::string describe(double timeout_seconds = 0.0) const;
};

// Runs processes. The real ones fork from a small helper process so that the peak RSS reported
// is the command's own; tests use a fake.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual RunRecord run(const RunRequest& request) = 0;
  // Announces that `request` will be asked for (run()) after the runs announced before it, so
  // that an executor may start it as soon as the run before it ends instead of waiting for the
  // call (the spawner does: it saves a round trip between two processes per run, and sends its
  // records in batches). Returns whether it was taken; an executor that runs nothing ahead (the
  // default), or has as many ahead as it holds, says no. A run announced and then not asked for
  // (the caller asks for another: its benchmark failed) has its record dropped; after a run
  // that failed, the announced runs that follow are not started. So announce only runs that
  // follow for certain unless one fails or is interrupted, and announce a run only after the
  // runs before it.
  virtual bool announce(const RunRequest& request) {
    (void)request;
    return false;
  }
  // How peak memory is isolated, for the results ("wait4 ru_maxrss of a child started from a
  // small helper process", or the fallback's caveat).
  virtual std::string peak_rss_method() const = 0;
};

// Something to do once while a run is under way, when CLOCK_MONOTONIC reaches `at_ns` (the
// spawner sends the records it holds, so that a long run does not hold back the record of the
// short one before it).
struct Meanwhile {
  double at_ns = 0.0;
  std::function<void()> call;  // none: nothing to do
};

// Runs the request from this process (vfork, exec, wait4). The child's ru_maxrss then starts
// from this process's resident set: small for the helper, not for a large harness.
RunRecord run_one(const RunRequest& request, const Meanwhile& meanwhile = {});

// Tells run_one that this process's signal dispositions will not change again: it looks them
// up now, and each child then resets only the signals that are not at their default (instead
// of all 64, a system call each: about 0.1 ms of every run on this machine). For the spawner.
void freeze_signal_dispositions();

// The executor for real runs: starts the helper program `benchkit-spawner` (found next to the
// running executable, in ../libexec/benchkit, or at $BENCHKIT_SPAWNER) and sends it the
// requests; when the helper cannot be found, runs from this process and says so in
// `peak_rss_method` and `warning`.
struct ExecutorChoice {
  std::unique_ptr<Executor> executor;
  std::string warning;  // empty when the helper runs
};
ExecutorChoice make_executor();

// The last `max_lines` lines of `text` (without a trailing newline).
std::string last_lines(const std::string& text, std::size_t max_lines);

}  // namespace benchkit::process
