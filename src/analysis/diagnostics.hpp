// Findings about a measurement that make its numbers less trustworthy, each a typed code with
// advice (docs/verdicts.md, "Diagnostics", lists them with their thresholds).
#pragma once

#include "benchkit/result.hpp"

namespace benchkit::analysis {

// What the diagnostics need to know about the clock of the run.
struct ClockFacts {
  double resolution_ns = 1.0;
  double loop_overhead_ns = 0.0;  // per iteration of an empty measured loop; 0 = unknown
};

// Appends to result.diagnostics every finding that applies (a code already present is not
// added twice). Needs result.estimates (compute_estimates first). Pure: reads only `result`.
void diagnose(BenchmarkResult& result, const ClockFacts& clock);

// The finding of a result measured in several fresh processes (samples numbered by process):
// `process_states` when the processes' medians fall into two or more states
// (stats::process_states on the samples taken at one machine speed), each named with its range
// and how many processes landed in it. Needs at least 6 processes with samples; does nothing
// otherwise. Call after merging the processes (model::merge_processes).
void diagnose_processes(BenchmarkResult& result);
void diagnose_processes(RunResult& run);

// The findings of a counted result (--mode instructions, docs/instructions.md): a count so small
// that the harness's part dominates it, a first iteration far above the others (lazy
// initialisation), system calls inside the measured region (counted, never timed), and counts
// that differ between samples (the code is not deterministic: threads, time, addresses).
void diagnose_counted(BenchmarkResult& result);

// A result read from another tool's file (no clock facts of its own): below_resolution when its
// median per iteration is under one cycle of `cpu_mhz`, the clock rate of the CPU that ran it
// (no iteration of a loop does work in less: the loop itself was compiled away, or its body).
// Does nothing when `cpu_mhz` is below 200 MHz (unknown, or no CPU clock: Apple Silicon's 24 MHz
// timebase) or the result has no samples.
void check_imported_speed(BenchmarkResult& result, double cpu_mhz);

// A result read from another tool's file some of whose samples are a time of 0 (hyperfine
// subtracts its shell's start-up time and reads 0 when a command took less than that start-up's
// noise): `below_resolution`, with how many and what resolves them.
void check_imported_zero_times(BenchmarkResult& result);

// A result read from another tool's file whose samples are repetitions run one after another in
// one process (model::kOneProcessRepetitions: a Google Benchmark file): `drift` when the time
// per iteration trends across them (at least 10 repetitions), `multimodal` when they switch
// between performance states (at least 20), with advice in that tool's terms. A code already
// present is not added twice.
void check_imported_repetitions(BenchmarkResult& result);

// The codes, for tests and documentation.
namespace code {
inline constexpr const char* drift = "drift";
inline constexpr const char* memory_growth = "memory_growth";
inline constexpr const char* cold_start = "cold_start";
inline constexpr const char* below_resolution = "below_resolution";
inline constexpr const char* unstable = "unstable";
inline constexpr const char* multimodal = "multimodal";
inline constexpr const char* process_states = "process_states";
inline constexpr const char* slow_setup = "slow_setup";
inline constexpr const char* few_samples = "few_samples";
inline constexpr const char* harness_dominates = "harness_dominates";
inline constexpr const char* lazy_first_iteration = "lazy_first_iteration";
inline constexpr const char* system_calls = "system_calls";
inline constexpr const char* counts_vary = "counts_vary";
}  // namespace code

}  // namespace benchkit::analysis
