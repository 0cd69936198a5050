// One benchmark's measured routine run for a profiler (a bench binary's --profile-time,
// docs/profiling.md): set-up and one warm-up iteration first, then the routine alone for the
// duration, between the profiler's markers (clock/profile_markers.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "clock/profile_markers.hpp"
#include "measure/instances.hpp"
#include "model/error.hpp"
#include "session/runner.hpp"

namespace benchkit::session {

struct ProfiledRoutine {
  std::string benchmark;
  std::uint64_t iterations = 0;     // in the region (the warm-up iteration not among them)
  double timed_ns = 0.0;            // the timed stretches' total, in the region
  double first_iteration_ns = 0.0;  // the warm-up iteration
  // Allocations and bytes in the timed stretches, per iteration: with benchkit::alloc linked.
  std::optional<double> allocations_per_iteration;
  std::optional<double> bytes_per_iteration;
};

// Runs `instance` (a micro benchmark) so. The error names the benchmark (a scenario, one that
// threw or timed itself with iter_custom).
model::Result<ProfiledRoutine> profile_routine(const RunSettings& settings,
                                               const measure::Instance& instance,
                                               std::int64_t duration_ns,
                                               clock::ProfileMarkers* markers);

// The summary as a one-line JSON object (the file `benchkit profile` reads back).
std::string profiled_json(const ProfiledRoutine& routine);
// ... and read back; the error names the text's problem.
model::Result<ProfiledRoutine> parse_profiled_json(const std::string& text);

}  // namespace benchkit::session
