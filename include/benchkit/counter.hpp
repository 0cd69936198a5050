// How a user counter (Bencher::counter) is turned into the number a report shows: Google
// Benchmark's Counter::Flags, spelled as benchkit's values are (per iteration, not per run).
#pragma once

namespace benchkit::counter {

// Flags, combined with `|`: b.counter("bytes", n, counter::rate | counter::base_1024).
// The result keeps the value as set and these flags; a report applies them, in this order:
// per_iteration, per_thread, rate, invert (docs/micro-benchmarks.md, "Counters").
enum Kind : unsigned {
  // The value as set, shown with k, M, G (base 1000).
  plain = 0,
  // Divided by the measured time per iteration (the median), shown with "/s": the value is
  // work per iteration, the counter the work per second. Google Benchmark's
  // kIsIterationInvariantRate (with per_iteration: its kIsRate).
  rate = 1u << 0,
  // Divided by every iteration the benchmark ran (warm-up included): the value is a total the
  // benchmark counted over every call of its routine, set after iter() returns. Google
  // Benchmark's kAvgIterations.
  per_iteration = 1u << 1,
  // Divided by the number of threads that ran the routine together (1 for a benchmark that is
  // not threaded). Google Benchmark's kAvgThreads.
  per_thread = 1u << 2,
  // Shown with Ki, Mi, Gi (base 1024): sizes in bytes. Google Benchmark's kIs1024.
  base_1024 = 1u << 3,
  // Shown as 1 / value (seconds per item from items per second). Google Benchmark's kInvert.
  invert = 1u << 4,
};

constexpr Kind operator|(Kind left, Kind right) {
  return static_cast<Kind>(static_cast<unsigned>(left) | static_cast<unsigned>(right));
}

constexpr bool has(Kind kind, Kind flag) {
  return (static_cast<unsigned>(kind) & static_cast<unsigned>(flag)) != 0;
}

}  // namespace benchkit::counter
