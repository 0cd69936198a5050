// The measurers of `benchkit run` on whole commands (CommandsPlan, CountedCommandPlan,
// GbenchRunPlan) with what they run on given: tests pass a fake executor and clock, a counter
// and a Google Benchmark runner that start nothing, and the results' context, so that no
// process starts and nothing is read from the machine or git. plans.hpp's make_measurer
// overloads give them the real ones.
#pragma once

#include <functional>
#include <memory>

#include "benchkit/result.hpp"
#include "clock/clock.hpp"
#include "model/error.hpp"
#include "process/run.hpp"
#include "session/gbench_binary.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"

namespace benchkit::session {

// The commands of `plan` in rounds on `executor`, timed by `clock`; the results' context is
// plan.request.context as it is (no git asked, no machine facts read).
std::unique_ptr<Measurer> make_measurer(CommandsPlan plan, process::Executor& executor,
                                        clock::Clock& clock);

// Counts the command of a request (count_command: valgrind).
using CommandCounter =
    std::function<model::Result<BenchmarkResult>(const CountedCommandRequest& request)>;
// The counted command of `plan` through `count`, its result in `context`.
std::unique_ptr<Measurer> make_measurer(CountedCommandPlan plan, CommandCounter count,
                                        Context context);

// Runs a Google Benchmark binary in fresh processes (run_gbench_processes).
using GbenchRunner = std::function<model::Result<RunResult>(const GbenchProcesses& processes)>;
std::unique_ptr<Measurer> make_measurer(GbenchRunPlan plan, GbenchRunner run);

}  // namespace benchkit::session
