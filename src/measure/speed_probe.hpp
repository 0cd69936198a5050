// How fast the machine is running right now, read between samples.
//
// A shared or virtual machine switches between speeds for seconds at a time: on the 2-core VM
// benchkit is developed on, sorting 2,000 integers takes 20 µs for a second or three, then 30 µs
// for the next (a busy neighbour on the same physical core), while a chain of multiplications
// hardly changes. Within a process the samples then fall into two groups and the median depends
// on how long each state lasted, which is luck. Reading a fixed reference loop between samples
// tells which state each sample was taken in (docs/verdicts.md, "Machine speed").
#pragma once

#include <memory>

#include "clock/clock.hpp"

namespace benchkit::measure {

class SpeedProbe {
 public:
  virtual ~SpeedProbe() = default;
  // Nanoseconds the reference loop took just now (its best of a few runs).
  virtual double read_ns() = 0;
};

// The reference loop: sorting a copy of 256 seeded integers (about 2 µs), best of 5 runs so
// that a preemption or a cold cache line does not read as a slow machine. It is sensitive to
// what slows most code on a shared core: branch prediction, caches and the load/store units.
std::unique_ptr<SpeedProbe> make_reference_probe(clock::Clock& clock);

}  // namespace benchkit::measure
