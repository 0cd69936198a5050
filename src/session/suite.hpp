// A bench binary's run of its registered benchmarks: each isolated in a forked worker (the
// default), all in this process (--in-process, for debuggers), or the suite in N fresh processes
// of this executable merged into one run (--processes N). The context is collected once, here.
// It prints nothing: progress and failures go to a SuiteObserver.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "measure/instances.hpp"
#include "model/progress.hpp"
#include "session/launcher.hpp"
#include "session/launchers.hpp"
#include "session/runner.hpp"

namespace benchkit::session {

struct SuiteRequest {
  RunSettings settings;
  std::vector<measure::Instance> chosen;
  // Everything in this process, no worker: a crash ends the run (what finished is kept).
  bool in_process = false;
  // Fresh processes of the suite, one after another, each with a share of the budget and the
  // benchmarks in a rotated order; 1: one forked worker per benchmark.
  std::size_t processes = 1;
  // With processes > 1: the program that starts one (this executable, or valgrind and its
  // options then this executable), and what every process is told; the launcher adds the
  // benchmarks and the stream.
  std::vector<std::string> worker_command;
  process::WorkerInvocation worker;
  // Every benchmark in a fresh process of worker_command, even with processes == 1 (counted
  // runs: valgrind runs each benchmark from a new process, so no benchmark's count depends on
  // what ran before it), started with these options.
  bool fresh_process_each = false;
  ExecOptions exec;
  // Every benchmark in one fresh process of worker_command, in `order` (indices into chosen;
  // empty: as chosen): benchkit noise --mode instructions runs a counted suite so in two
  // orders, to find counts that depend on what ran before them in the process.
  bool one_worker = false;
  std::vector<std::size_t> order;
};

// A suite's progress (model/progress.hpp).
using SuiteObserver = model::SuiteObserver;

struct SuiteOutcome {
  RunResult run;
  std::size_t failed = 0;    // benchmarks that failed to run (threw, crashed, hung, exited)
  bool interrupted = false;  // Ctrl-C: the run stopped early; `run` holds what finished
};

// Starts the workers of process `process` (0-based) of a run.
using LauncherFactory = std::function<std::unique_ptr<Launcher>(std::size_t process)>;

// Runs the suite with workers from `launchers` (tests give fakes), or in this process.
SuiteOutcome run_suite(const SuiteRequest& request, const LauncherFactory& launchers,
                       SuiteObserver& observer);

// Runs the suite with the real launchers: forked workers, or fresh processes of
// request.worker_command.
SuiteOutcome run_suite(const SuiteRequest& request, SuiteObserver& observer);

// The order of the benchmarks in process `process` of `processes`: rotated so that each
// benchmark's processes are spread over the whole run.
std::vector<std::size_t> rotated_order(std::size_t count, std::size_t process,
                                       std::size_t processes);

}  // namespace benchkit::session
