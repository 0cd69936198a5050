// `benchkit profile ./bench NAME --tool TOOL` (docs/profiling.md): one benchmark's measured
// routine, alone, under a profiler, and what the profiler found, summarised. The bench binary
// runs with --profile-time (session/profiled.hpp) and marks the region for the tool
// (clock/profile_markers.hpp), so its set-up and the harness stay out of the profile. Each tool
// is a Profiler (session/profilers.hpp); run_profile is the pipeline they share.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/profile.hpp"
#include "process/capture.hpp"

namespace benchkit::session {

struct ProfileRequest {
  std::string binary;
  std::string benchmark;  // its full name, as --list prints it
  model::ProfileTool tool = model::ProfileTool::callgrind;
  std::int64_t duration_ns = 5'000'000'000;
  std::string out_dir;                   // the raw files; "" = .benchkit/profiles/NAME-TOOL
  std::vector<std::string> bench_flags;  // more flags for the bench binary (--param ...)
  std::size_t top = 15;                  // functions and sites kept in the summary
  // The flame graph of a profile's stacks as an SVG image (report::profile_flame_graph, which
  // the command line gives: session/ draws nothing); kept as flame.svg before the folded stacks.
  // Empty: no flame graph.
  std::function<std::string(const model::Profile&)> draw_flame_graph = {};
};

// The processes a profile starts, behind an interface: the pipeline is tested with a fake whose
// "tools" write the files a real one would (tests/session/profile_test.cpp).
class ProfileProcesses {
 public:
  virtual ~ProfileProcesses() = default;
  // Where PATH has `program`; nothing when it is not installed.
  virtual std::optional<std::string> find(const std::string& program) = 0;
  // Runs `argv` as process::run_captured does.
  virtual model::Result<process::Captured> run(const std::vector<std::string>& argv,
                                               const process::CaptureOptions& options) = 0;
};

// The Debian package that installs `program` (valgrind, strace, perf, heaptrack).
std::string debian_package_of(const std::string& program);

// The names in `names` nearest to `wanted` (containing it, or a few edits away), at most five.
std::vector<std::string> near_names(const std::string& wanted,
                                    const std::vector<std::string>& names);

// Runs it: checks that the bench binary has the benchmark, runs the tool around it, reads what
// the tool wrote, and keeps the raw files, the folded stacks (folded.txt, when the tool has
// stacks, and their flame graph when the request can draw one) and the routine's summary in the
// profile's folder. Errors: an unknown benchmark (naming the near ones;
// usage), the tool not installed (naming its Debian package; usage), perf unable to sample here
// (usage), the tool or the bench binary failing (the last lines of its standard error; failed).
model::Result<model::Profile> run_profile(const ProfileRequest& request);
// ... with `processes` in place of the real ones.
model::Result<model::Profile> run_profile(const ProfileRequest& request,
                                          ProfileProcesses& processes);

}  // namespace benchkit::session
