// Running scenarios: set-up untimed, each phase timed once per repetition with the resources it
// used, verify failures collected, one result per phase.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchkit/result.hpp"
#include "benchkit/scenario.hpp"
#include "clock/clock.hpp"
#include "measure/memory.hpp"
#include "measure/usage.hpp"

namespace benchkit::measure {

// What a phase reads besides the clock; each may be null (its figures are then absent).
struct ScenarioProbes {
  ProcessMemory* memory = nullptr;
  ProcessUsage* usage = nullptr;
};

struct ScenarioSettings {
  // Runs of the whole scenario in this process, set-up included. One by default: a scenario
  // is often long, and what varies between runs (page cache, memory layout) is better seen in
  // fresh processes (--processes) than in repetitions.
  std::size_t repetitions = 1;
};

// Runs `body` settings.repetitions times, each a fresh call (its set-up runs again). Returns
// one result per phase, kind "scenario", named "<name>/<phase>", in the order the phases first
// ran; each has one sample per repetition in which it ran (iters 1, ns the phase's wall time,
// resources filled from the probes), work per iteration from the phase's Work, the mean of
// each counter over the repetitions that set it (a phase counter on its phase only, kinds in
// counter_kinds), the peak RSS over all repetitions with its
// method, and every failed verify of every repetition in `failures` (each message names the
// phase before the check, and the repetition when there are several). No overhead is
// subtracted: a phase lasts far longer than the two clock reads around it.
// Throws std::runtime_error naming the scenario (and the phase) when the body throws, runs no
// phase, runs a phase twice or inside another, gives a phase a bad name or negative work, or
// declares different work for a phase in different repetitions, or gives a phase counter to a
// phase that never ran.
std::vector<BenchmarkResult> run_scenario(clock::Clock& clock, const ScenarioSettings& settings,
                                          const ScenarioProbes& probes, const std::string& name,
                                          const std::function<void(Scenario&)>& body);

}  // namespace benchkit::measure

namespace benchkit::detail {

// What a Scenario writes to while one repetition of a scenario function runs.
struct ScenarioState {
  clock::Clock* clock = nullptr;
  measure::ScenarioProbes probes;
  std::string name;
  std::size_t repetition = 0;
  std::size_t repetitions = 1;
  std::vector<BenchmarkResult>* phases = nullptr;  // across repetitions, in first-run order
  std::vector<std::string>* failures = nullptr;    // across repetitions
  std::vector<std::string> phases_run;             // this repetition, in order
  std::string current_phase;                       // set while a phase's code runs
  std::map<std::string, double> counters;          // this repetition
  // Counters reported with one phase, by phase then name: this repetition.
  std::map<std::string, std::map<std::string, double>> phase_counters;
  // The kind of every counter set so far, across repetitions, by (phase, name), the phase
  // empty for a scenario-wide counter: a counter keeps one kind, and a name is either
  // scenario-wide or of phases.
  std::map<std::pair<std::string, std::string>, counter::Kind>* counter_kinds = nullptr;
  std::vector<ExactCount> exact_counts;  // this repetition, in the order set
};

}  // namespace benchkit::detail
