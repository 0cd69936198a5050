#include <chrono>

#include "clock/clock.hpp"

namespace benchkit::clock {

std::int64_t SteadyClock::now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Clock& steady_clock() {
  static SteadyClock instance;
  return instance;
}

}  // namespace benchkit::clock
