// One benchmark's measured routine run for a profiler (a bench binary's --profile-time,
// docs/profiling.md): set-up and one warm-up iteration first, then the routine alone for the
// duration, between the profiler's markers (clock/profile_markers.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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

// What --profile-time asks (a user's, or `benchkit profile`'s worker's): the duration (nullopt
// when it could not be read) and as given, the profiler's markers ("", "none", "callgrind",
// "strace", "perf:CTL,ACK") and the file the summary goes to ("" none).
struct ProfiledRequest {
  std::optional<std::int64_t> duration_ns = {};
  std::string shown = {};
  std::string markers = {};
  std::string summary = {};
};

// The request carried out on the `chosen` benchmarks: one micro benchmark and a positive
// duration (check_profiled), the markers opened, `starting` told the benchmark's name before its
// set-up, its routine run (profile_routine), and the summary written atomically when asked.
// Each error names what is wrong: a usage error for the request, else the routine's or the
// file's.
model::Result<ProfiledRoutine> run_profiled(
    const ProfiledRequest& request, const RunSettings& settings,
    const std::vector<measure::Instance>& chosen,
    const std::function<void(const std::string&)>& starting);

// The summary as a one-line JSON object (the file `benchkit profile` reads back).
std::string profiled_json(const ProfiledRoutine& routine);
// ... and read back; the error names the text's problem.
model::Result<ProfiledRoutine> parse_profiled_json(const std::string& text);

}  // namespace benchkit::session
