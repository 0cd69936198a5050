// Samples taken while the machine ran at its usual speed.
//
// Each micro-benchmark sample carries the time of a reference loop read around it
// (Sample::probe_ns, measure/speed_probe.hpp). When the machine slows down for a while (a busy
// neighbour on the same physical core), the reference loop slows with it, so the samples taken
// meanwhile can be told apart and left out: estimates, diagnostics and comparisons then describe
// the machine at one speed instead of a mixture that depends on how long each state lasted.
// Samples without a reading (commands, scenario phases, imported files) are always kept.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::analysis {

// A sample is slow when its reference loop took more than this times the level. The two speeds
// seen on the development VM differ by 1.3-1.7×; the reference loop's own jitter at one speed is
// within ±4%.
inline constexpr double kSlowProbeFactor = 1.12;
// With fewer steady samples than this, the estimates keep every sample.
inline constexpr std::size_t kMinSteadySamples = 5;

// The benchmark's fast level: the fastest probe reading with at least kMinSteadySamples readings
// within kSlowProbeFactor of it (a speed the machine held for several samples; one freak reading
// does not set it), else the fastest. None when no sample has a reading.
std::optional<double> probe_level(const BenchmarkResult& result);

struct SteadySelection {
  BenchmarkResult steady;  // a copy holding only the samples taken at the level's speed
  std::size_t slow = 0;    // samples left out
  double level = 0.0;      // the level used (0 without readings)
  double slowest = 1.0;    // the slowest reading left out, as a multiple of the level
};

// The samples whose reading is within kSlowProbeFactor of `level`.
SteadySelection steady_samples(const BenchmarkResult& result, double level);

// With the benchmark's own level. When fewer than kMinSteadySamples would remain, every sample
// is kept (slow = 0): too few to describe anything alone.
SteadySelection steady_samples(const BenchmarkResult& result);

// For each sample of `result`, whether steady_samples(result) leaves it out: the samples a
// report marks as taken while the machine ran slow (marked, never dropped from a plot).
std::vector<bool> slow_sample_flags(const BenchmarkResult& result);

// The fastest level among the benchmarks of a run (none without readings).
std::optional<double> run_probe_level(const RunResult& run);

// Run-level bookkeeping after the estimates and diagnostics: one `machine_speed` warning in the
// context when samples were left out anywhere or when a benchmark's samples were all taken while
// the machine ran slower than during the rest of the run (its level more than kSlowProbeFactor
// above the run's; the warning names it). Such a benchmark's spread, modes and trend are the
// machine's, so its unstable, multimodal and drift flags are withheld. A benchmark with fewer
// than half its samples at its own fast speed has its unstable and multimodal flags withheld
// (named in the warning too). Replaces an earlier
// warning, so it can run again after processes are merged.
void note_machine_speed(RunResult& run);

namespace code {
inline constexpr const char* machine_speed = "machine_speed";
}  // namespace code

}  // namespace benchkit::analysis
