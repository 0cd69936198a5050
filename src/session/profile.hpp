// `benchkit profile ./bench NAME --tool TOOL` (docs/profiling.md): one benchmark's measured
// routine, alone, under a profiler, and what the profiler found, summarised. The bench binary
// runs with --profile-time (session/profiled.hpp) and marks the region for the tool
// (clock/profile_markers.hpp), so its set-up and the harness stay out of the profile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/profile.hpp"

namespace benchkit::session {

struct ProfileRequest {
  std::string binary;
  std::string benchmark;  // its full name, as --list prints it
  std::string tool;       // callgrind, massif, heaptrack, strace, perf
  std::int64_t duration_ns = 5'000'000'000;
  std::string out_dir;                   // the raw files; "" = .benchkit/profiles/NAME-TOOL
  std::vector<std::string> bench_flags;  // more flags for the bench binary (--param ...)
  std::size_t top = 15;                  // functions and sites kept in the summary
};

// The tools, as --tool names them.
const std::vector<std::string>& profile_tools();

// The Debian package that installs `program` (valgrind, strace, perf, heaptrack).
std::string debian_package_of(const std::string& program);

// The names in `names` nearest to `wanted` (containing it, or a few edits away), at most five.
std::vector<std::string> near_names(const std::string& wanted,
                                    const std::vector<std::string>& names);

// Runs it. Errors: an unknown benchmark (naming the near ones; usage), the tool not installed
// (naming its Debian package; usage), perf unable to sample here (usage), the tool or the bench
// binary failing (the last lines of its standard error; failed).
model::Result<model::Profile> run_profile(const ProfileRequest& request);

}  // namespace benchkit::session
