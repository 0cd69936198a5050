// The time source the engine reads, behind an interface so the engine runs on a fake in tests.
#pragma once

#include <cstdint>
#include <string_view>

namespace benchkit::clock {

class Clock {
 public:
  virtual ~Clock() = default;
  // Nanoseconds from an arbitrary origin; never decreases.
  virtual std::int64_t now_ns() = 0;
  virtual std::string_view name() const = 0;
};

// std::chrono::steady_clock (CLOCK_MONOTONIC on Linux, read through the vDSO).
class SteadyClock final : public Clock {
 public:
  std::int64_t now_ns() override;
  std::string_view name() const override { return "steady_clock"; }
};

// The process-wide real clock.
Clock& steady_clock();

}  // namespace benchkit::clock
