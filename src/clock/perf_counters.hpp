// Hardware counters (instructions, cycles, branches, branch misses) read as one group.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace benchkit::clock {

struct CounterValues {
  // In the order of CounterGroup::names(); scaled by time enabled / time running when the
  // kernel multiplexed the group.
  std::array<double, 4> values{};
};

class CounterGroup {
 public:
  virtual ~CounterGroup() = default;
  static constexpr std::array<const char*, 4> names() {
    return {"instructions", "cycles", "branches", "branch_misses"};
  }
  virtual bool available() const = 0;
  // Why the counters are not available, with what to do about it; empty when available.
  virtual const std::string& unavailable_reason() const = 0;
  // Reads the running totals; subtract two reads to get a region's counts.
  virtual CounterValues read() = 0;
};

// Opens the counters for this thread with perf_event_open (user space only). Never fails:
// returns a group whose available() is false, with the reason, when they cannot be opened.
std::unique_ptr<CounterGroup> open_hardware_counters();

}  // namespace benchkit::clock
