#include "clock/calibration.hpp"

#include <gtest/gtest.h>

#include "clock/perf_counters.hpp"
#include "fakes/fake_clock.hpp"

namespace benchkit::clock {
namespace {

TEST(Calibration, FindsTheSmallestStepAndTheReadCost) {
  benchkit::testing::FakeClock fake;
  fake.tick_per_read = 25;
  const Calibration calibration = calibrate_clock(fake);
  EXPECT_DOUBLE_EQ(calibration.resolution_ns, 25.0);
  EXPECT_DOUBLE_EQ(calibration.read_cost_ns, 25.0);
}

TEST(Calibration, AClockThatNeverMovesEndsTheProbeWithoutHanging) {
  benchkit::testing::FakeClock frozen;  // tick_per_read = 0
  const Calibration calibration = calibrate_clock(frozen, 50'000'000, 10'000);
  EXPECT_DOUBLE_EQ(calibration.resolution_ns, 1.0);
  EXPECT_DOUBLE_EQ(calibration.read_cost_ns, 0.0);
}

TEST(Calibration, TheProbeStopsAtItsTimeCap) {
  benchkit::testing::FakeClock fake;
  fake.tick_per_read = 1'000'000;  // 1 ms per read: a 50 ms cap allows about 50 reads
  const Calibration calibration = calibrate_clock(fake, 50'000'000);
  EXPECT_LE(calibration.probe_ns, 60'000'000.0);
}

TEST(Calibration, LoopOverheadIsTheSlopeBetweenTwoLengths) {
  // 7 ns fixed + 0.5 ns per iteration; a noisy first attempt must not matter (minimum).
  int calls = 0;
  const double overhead = calibrate_loop_overhead([&](std::uint64_t iterations) {
    ++calls;
    const double noise = calls <= 2 ? 1e6 : 0.0;
    return 7.0 + 0.5 * static_cast<double>(iterations) + noise;
  });
  EXPECT_DOUBLE_EQ(overhead, 0.5);
}

TEST(Calibration, TheRealClockIsCalibratedQuickly) {
  Calibration calibration = calibrate_clock(steady_clock());
  EXPECT_GT(calibration.resolution_ns, 0.0);
  // The design caps the probe near 200 ms; the default settings stop far sooner.
  EXPECT_LT(calibration.probe_ns, 200'000'000.0);
}

TEST(HardwareCounters, EitherOpenOrSayWhyNot) {
  auto counters = open_hardware_counters();
  if (counters->available()) {
    const CounterValues before = counters->read();
    volatile double sink = 0;
    for (int i = 0; i < 100000; ++i) sink = sink + i;
    const CounterValues after = counters->read();
    EXPECT_GT(after.values[0], before.values[0]) << "instructions must advance";
  } else {
    EXPECT_NE(counters->unavailable_reason().find("hardware counters unavailable"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace benchkit::clock
