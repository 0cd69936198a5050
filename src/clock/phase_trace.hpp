// Where a run's wall time goes: a trace of timed phases that every process of a run appends to one
// file, for `bench/verdicts/round_cost` (docs/verdicts.md, "Where a comparison's seconds go").
//
// Set BENCHKIT_PHASE_TRACE=FILE and every benchkit process started with it in its environment (the
// controller of a side-by-side comparison and each worker it starts, which inherit the variable)
// appends one line per phase to FILE:
//
//   PID <tab> PHASE <tab> START_NS <tab> END_NS <tab> DETAIL
//
// START_NS and END_NS read CLOCK_MONOTONIC, one clock for every process of the machine, so the
// controller's "spawn" and a worker's "main" can be subtracted. Each line is one write() on a
// descriptor opened with O_APPEND, so lines from several processes never interleave. Unset, the
// trace costs one branch per phase. It is a diagnostic, not a result: a line that cannot be
// written is dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace benchkit::clock {

inline constexpr const char* kPhaseTraceVariable = "BENCHKIT_PHASE_TRACE";

// True when BENCHKIT_PHASE_TRACE names a file (read once per process).
bool phase_trace_enabled();

// Now on the trace's clock (CLOCK_MONOTONIC), in nanoseconds.
std::int64_t trace_now_ns();

// Appends one phase; nothing when the trace is off.
void trace_phase(std::string_view phase, std::int64_t start_ns, std::int64_t end_ns,
                 std::string_view detail = {});

// A phase from construction to end() (or destruction, whichever comes first).
class TracedPhase {
 public:
  explicit TracedPhase(std::string_view phase, std::string detail = {});
  ~TracedPhase() { end(); }
  TracedPhase(const TracedPhase&) = delete;
  TracedPhase& operator=(const TracedPhase&) = delete;
  void end();
  // Replaces what the line will say besides the phase (known only at its end).
  void set_detail(std::string detail) { detail_ = std::move(detail); }

 private:
  std::string_view phase_;
  std::string detail_;
  std::int64_t start_ns_ = 0;
  bool open_ = false;
};

}  // namespace benchkit::clock
