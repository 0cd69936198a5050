// Running benchmarks in this process: the wiring behind Bench and the bench binary's main.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "benchkit/registry.hpp"
#include "clock/perf_counters.hpp"
#include "measure/engine.hpp"
#include "measure/instances.hpp"
#include "measure/scenario.hpp"
#include "measure/speed_probe.hpp"
#include "model/error.hpp"

namespace benchkit::session {

struct RunSettings {
  measure::Settings engine;
  // Runs of each scenario in this process (--repetitions); --test runs each once.
  std::size_t repetitions = 1;
  std::uint64_t seed = 0;
  bool counters = true;          // try hardware counters
  bool machine_warnings = true;  // --no-machine-warnings turns them off
  std::map<std::string, std::string> tags;
  // Set in a worker of a side-by-side comparison: samples are taken in turns with the other
  // build's worker (process/turns.hpp).
  measure::SampleGate* gate = nullptr;
  // A worker whose driver collects the run's context once for all its workers (a side-by-side
  // round): the machine, git, executable hash and machine checks are left out, and the clock,
  // build and tool facts kept.
  bool measuring_only = false;
  // A benchmark (or scenario) still running after this long ends the process with exit status
  // 1 and a message naming it (0: no limit).
  std::int64_t timeout_ns = 0;
  // Set in a worker that valgrind's callgrind runs (--mode instructions): its --callgrind-out-file
  // (with %p). Micro benchmarks are then counted, not timed (clock/callgrind.hpp,
  // docs/instructions.md); scenarios are still timed.
  std::string callgrind_dumps;
  // The command line the results keep (context.command_line), set where the run is reported, so
  // that the checkpoints of --out render the run so far as it is, without a copy of its samples.
  std::string command_line;
};

// The machine and build differences between two runs, as one line ("" when alike).
std::string context_differences(const Context& baseline, const Context& candidate);

// The real clock, calibrated once per process (the first call pays about 20-60 ms).
struct ProcessClock {
  clock::Clock* clock = nullptr;
  clock::Calibration calibration;
  measure::Overhead overhead;
};
const ProcessClock& process_clock();

// The instances whose name matches: `exact` compares whole names, otherwise `pattern` is an
// ECMAScript regex searched in the name, and a leading '-' keeps those it does not match (Google
// Benchmark's negative filter). Throws std::invalid_argument for a bad regex.
std::vector<measure::Instance> select(const std::vector<measure::Instance>& instances,
                                      const std::string& pattern, bool exact);

// Engine settings for one registration: its own settings override the run's.
measure::Settings settings_for(const RunSettings& run, const BenchSettings& own);

// The probes every measurement of this process reads: memory, allocations (with
// benchkit::alloc) and the measuring thread's context switches. Hardware counters, the speed
// probe and a gate are the runner's to add.
measure::Probes process_probes();

// Measures one benchmark and computes its estimates; `threads` > 1 runs it in that many threads
// at once (measure::Engine::measure). Exceptions from the benchmark propagate.
BenchmarkResult run_one(const RunSettings& settings, const std::string& name,
                        const std::function<void(Bencher&)>& body, measure::Probes probes,
                        std::size_t threads = 1);

// Runs one scenario (once in test mode, else settings.repetitions times) and computes the
// estimates of its phases. Exceptions from the scenario propagate.
std::vector<BenchmarkResult> run_scenario(const RunSettings& settings, const std::string& name,
                                          const std::function<void(Scenario&)>& body);

struct Progress {
  std::function<void(std::size_t index, std::size_t total, const std::string& name)> started;
  std::function<void(const std::string& name, const std::string& error)> failed;
  // Each benchmark's results as soon as it is measured (a scenario's phases come together).
  std::function<void(const RunResult& so_far)> measured;
};

// The run's context, collected once in the process that reports (never again per worker or
// per benchmark): machine, build facts of the registering translation units, tool, clock,
// seed, tags, machine warnings, and whether hardware counters can be read.
Context run_context(const RunSettings& settings, const std::vector<measure::Instance>& chosen);

// The probes of one measuring process: those of process_probes(), plus hardware counters and
// the machine-speed probe (not in test mode), plus the settings' gate.
struct MeasuringProbes {
  explicit MeasuringProbes(const RunSettings& settings);
  ~MeasuringProbes();
  MeasuringProbes(const MeasuringProbes&) = delete;
  MeasuringProbes& operator=(const MeasuringProbes&) = delete;
  measure::Probes probes;
  std::unique_ptr<clock::CounterGroup> counters;
  std::unique_ptr<measure::SpeedProbe> speed;
  std::unique_ptr<clock::CountedRegion> region;  // with settings.callgrind_dumps
};

// One benchmark or scenario measured in this process: one result, or one per scenario phase,
// with its parameters. Exceptions from the benchmark propagate.
std::vector<BenchmarkResult> run_instance(const RunSettings& settings,
                                          const measure::Instance& instance,
                                          const measure::Probes& probes);

// Lists in the run's context every data file its benchmarks checked (their `inputs`), once.
void gather_inputs(RunResult& run);

// The worker's side of the result stream (process/worker_protocol.hpp): measures the chosen
// instances with these indices, in order, writing 'S' and 'R' frames to `fd` (a benchmark that
// throws is sent as a failed result), then the process's peak RSS as an 'F' frame.
void serve(const RunSettings& settings, const std::vector<measure::Instance>& chosen,
           const std::vector<std::size_t>& indices, int fd);

// A result sent by serve(): the benchmark's results (a scenario's phases).
model::Result<std::vector<BenchmarkResult>> decode_served(const std::string& text);

// Runs the given instances in this process, micro benchmarks and scenarios; a benchmark or
// scenario that throws is reported through `progress.failed` and recorded as failed. `failures`
// counts them (a scenario whose verify failed is not counted: its results carry their
// failures). A benchmark still running after settings.timeout_ns ends the process with a
// message naming it (what `measured` was given is all that is kept).
RunResult run_instances(const RunSettings& settings, const std::vector<measure::Instance>& chosen,
                        const Progress& progress, std::size_t& failures);

}  // namespace benchkit::session
