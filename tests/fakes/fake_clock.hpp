// A clock that moves only when told: the engine's logic tested without real time.
#pragma once

#include <cstdint>

#include "clock/clock.hpp"

namespace benchkit::testing {

class FakeClock final : public clock::Clock {
 public:
  // Every read advances the clock by `tick_per_read` first (models the cost of reading it).
  std::int64_t now_ns() override {
    now_ += tick_per_read;
    return now_;
  }
  std::string_view name() const override { return "fake"; }
  void advance(std::int64_t ns) { now_ += ns; }
  std::int64_t now() const { return now_; }

  std::int64_t tick_per_read = 0;

 private:
  std::int64_t now_ = 1'000'000'000;
};

}  // namespace benchkit::testing
