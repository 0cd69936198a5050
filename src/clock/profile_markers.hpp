// Marks of a profiled region (`--profile-time`, docs/profiling.md): how a bench binary tells the
// profiler it runs under where the measured routine's loop begins and ends, so that the
// benchmark's set-up, the harness and the process's start and exit stay out of the profile.
//
//   callgrind  valgrind runs the process with --instr-atstart=no --collect-atstart=no; the region
//              is CALLGRIND_START_INSTRUMENTATION .. STOP_INSTRUMENTATION, and collection is
//              toggled on around each timed stretch (inputs and drops stay out).
//   strace     the region is bracketed by two system calls that nothing else makes: access() on
//              a path that does not exist (kStraceBegin, kStraceEnd); the trace is cut between
//              them.
//   perf       perf record runs with --delay=-1 (events disabled) and --control=fifo:CTL,ACK; the
//              region writes "enable" and "disable" to CTL and waits for perf's "ack" on ACK.
//   (none)     massif and heaptrack see the whole process; their stacks tell the region apart.
#pragma once

#include <memory>
#include <string>

namespace benchkit::clock {

class ProfileMarkers {
 public:
  virtual ~ProfileMarkers() = default;
  virtual void begin_region() = 0;  // the set-up is done; the routine's loop starts
  virtual void start() = 0;         // a timed stretch starts (inside the region)
  virtual void stop() = 0;          // ... and stops
  virtual void end_region() = 0;    // the loop is over
};

// The paths whose access() brackets the region under strace.
inline constexpr const char* kStraceBegin = "/benchkit-profile-region-begins";
inline constexpr const char* kStraceEnd = "/benchkit-profile-region-ends";

// The markers `spec` names: "callgrind", "strace", "perf:CTL,ACK" (the control and ack fifos),
// or "none". Null, with the reason in `error`, for anything else or fifos that cannot be opened.
std::unique_ptr<ProfileMarkers> make_profile_markers(const std::string& spec, std::string& error);

}  // namespace benchkit::clock
