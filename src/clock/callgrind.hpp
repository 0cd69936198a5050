// Counting instructions under valgrind's callgrind, from inside the measured process: the client
// requests that open and close a counted region, and the reading of callgrind's own dump of it.
//
// The region protocol (docs/instructions.md). Valgrind runs this process with
// --instr-atstart=no --collect-atstart=no, so nothing is counted until asked for:
//
//   begin_sample()  CALLGRIND_START_INSTRUMENTATION, then CALLGRIND_ZERO_STATS
//   start()         CALLGRIND_TOGGLE_COLLECT (on): the measured code runs
//   stop()          CALLGRIND_TOGGLE_COLLECT (off): inputs and drops run uncounted
//   end_sample(L)   CALLGRIND_DUMP_STATS_AT(L), CALLGRIND_STOP_INSTRUMENTATION, and the dump read
//
// Instrumentation is switched on per sample, not per start/stop pair, because switching it
// flushes valgrind's translation cache (milliseconds); collection is a flag and costs a few
// instructions, which the harness calibration measures and subtracts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace benchkit::clock {

// True when this process runs under valgrind (any tool).
bool running_on_valgrind();

// The events of one callgrind dump, by callgrind's names: Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr,
// DLmr, DLmw (with --cache-sim=yes), sysCount and sysTime (with --collect-systime).
using CallgrindEvents = std::map<std::string, double>;

// The totals of a dump's text: its "events:" line names the columns of its "summary:" (or, in
// older files, "totals:") line. Nothing when the text has neither. Events absent from the line
// (callgrind leaves out trailing zeros) are 0.
std::optional<CallgrindEvents> parse_callgrind_totals(std::string_view text);

// What benchkit reports per region, from callgrind's events: instructions executed; memory
// accesses (instruction fetches and data reads and writes) served by the first-level caches, by
// the last-level cache and by memory; the cycles estimated from them as iai-callgrind does
// (L1 + 5 × LL + 35 × RAM); and the system calls made (counted, not timed: the simulation does
// not know how long the kernel took).
struct CountedMetrics {
  double instructions = 0.0;
  double l1_hits = 0.0;
  double ll_hits = 0.0;
  double ram_hits = 0.0;
  double estimated_cycles = 0.0;
  double system_calls = 0.0;
};
CountedMetrics counted_metrics(const CallgrindEvents& events);

// The weights of the cycle estimate: an LL hit costs about 5 L1 hits, a memory access about 35
// (iai-callgrind's and CodSpeed's model; a rough average of x86 latencies, not this CPU's).
inline constexpr double kLastLevelHitCycles = 5.0;
inline constexpr double kMemoryAccessCycles = 35.0;

// A counted region, behind an interface so that the engine is tested without valgrind.
class CountedRegion {
 public:
  virtual ~CountedRegion() = default;
  virtual void begin_sample() = 0;
  virtual void start() = 0;
  virtual void stop() = 0;
  // Ends the sample, dumped under `label`; its metrics, or nothing with the reason in error().
  virtual std::optional<CountedMetrics> end_sample(const std::string& label) = 0;
  virtual const std::string& error() const = 0;
};

// The real region: callgrind's client requests, and its dumps read from `dump_prefix`.N (the
// --callgrind-out-file valgrind was given, with %p expanded to this process's id).
std::unique_ptr<CountedRegion> callgrind_region(std::string dump_prefix);

}  // namespace benchkit::clock
