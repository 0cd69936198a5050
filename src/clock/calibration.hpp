// What a clock can resolve and what reading it costs, measured once per process.
#pragma once

#include <cstdint>
#include <functional>

#include "clock/clock.hpp"

namespace benchkit::clock {

struct Calibration {
  double resolution_ns = 1.0;     // smallest non-zero difference between two consecutive reads
  double read_cost_ns = 0.0;      // median cost of one read, from back-to-back pairs
  double loop_overhead_ns = 0.0;  // cost per iteration of an empty measured loop
  double probe_ns = 0.0;          // how long the calibration itself took
};

// Measures resolution and read cost of `source`. Stops after `max_probe_ns` of clock time or
// `max_reads` reads, whichever comes first (Catch2's unbounded probe exhausted memory on small
// targets: issue #3180). A clock that never advances gives resolution 1 ns and read cost 0.
Calibration calibrate_clock(Clock& source, std::int64_t max_probe_ns = 50'000'000,
                            std::int64_t max_reads = 200'000);

// Per-iteration cost of an empty loop: `empty_loop(n)` must run n empty iterations between a
// start and a stop of the same clock and return the elapsed nanoseconds. Uses the minimum of
// several runs at 2 lengths, so a preempted run does not inflate the overhead.
double calibrate_loop_overhead(const std::function<double(std::uint64_t)>& empty_loop);

}  // namespace benchkit::clock
