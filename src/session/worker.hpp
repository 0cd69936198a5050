// A bench binary started by a driver (process/worker_invocation.hpp), by its role: a stream or
// counted worker measures the chosen benchmarks onto the result stream (serve), a turns worker
// runs its one benchmark's pipeline sampling in turns, a profiled worker runs one routine for a
// profiler, a lister names the benchmarks. It prints nothing: what a worker shows or writes is
// its host's (the bench binary's command line, src/cli/bench_cli.cpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "measure/instances.hpp"
#include "model/error.hpp"
#include "process/worker_invocation.hpp"
#include "session/plans.hpp"
#include "session/profiled.hpp"
#include "session/runner.hpp"

namespace benchkit::session {

// What a worker's roles hand to the command line; each returns the worker's exit status.
class WorkerHost {
 public:
  virtual ~WorkerHost() = default;
  // A command line no worker can honour (a flag it does not know, a mode it cannot run, no
  // benchmark chosen): nothing ran.
  virtual int refused(const model::Error& error) = 0;
  // lister: the names of the chosen benchmarks.
  virtual int list(const std::vector<measure::Instance>& chosen) = 0;
  // turns: the plan of its one benchmark sampling in turns (its gate reads the invocation's
  // turns descriptor, and lives until this returns), its result to be written to
  // `invocation.out`.
  virtual int take_turns(const process::WorkerInvocation& invocation, Plan plan) = 0;
  // profiled: one routine under the profiler that `benchkit profile` started.
  virtual int profile(const ProfiledRequest& request, bool quiet, const RunSettings& settings,
                      const std::vector<measure::Instance>& chosen) = 0;
};

// Reads a driver's worker command line (`words`, without the program's name) and carries out
// its role through `host`; a stream or counted worker serves its benchmarks here (exit status
// 0). `command_line` is recorded in a turns worker's result.
int run_worker(std::span<const std::string> words, const std::string& command_line,
               WorkerHost& host);

}  // namespace benchkit::session
