// benchkit::detail::to_nanoseconds (include/benchkit/duration.hpp): std::chrono durations read
// without <chrono> in the public headers, checked against <chrono>'s own conversions.
#include "benchkit/duration.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <ratio>
#include <type_traits>

#include "benchkit/bench.hpp"
#include "benchkit/registry.hpp"

namespace benchkit::detail {
namespace {

using DoubleNanoseconds = std::chrono::duration<double, std::nano>;

template <class Duration>
void expect_exact(Duration duration) {
  EXPECT_EQ(to_nanoseconds(duration), std::chrono::nanoseconds(duration).count());
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(duration), DoubleNanoseconds(duration).count());
}

TEST(Duration, WholeNanosecondDurationsConvertExactlyAsChronoDoes) {
  using namespace std::chrono_literals;
  expect_exact(std::chrono::nanoseconds(7));
  expect_exact(250us);
  expect_exact(200ms);
  expect_exact(std::chrono::seconds(5));
  expect_exact(std::chrono::minutes(3));
  expect_exact(std::chrono::hours(2));
  expect_exact(std::chrono::duration<unsigned, std::milli>(40));
  expect_exact(std::chrono::duration<int, std::ratio<1, 4>>(3));  // quarter seconds
  expect_exact(std::chrono::nanoseconds(-12));
  static_assert(to_nanoseconds(std::chrono::milliseconds(3)) == 3'000'000);
}

TEST(Duration, ConstraintsFollowWhatNanosecondsConvertsFromImplicitly) {
  static_assert(WholeNanoseconds<std::chrono::milliseconds>);
  static_assert(WholeNanoseconds<std::chrono::duration<short, std::ratio<60>>>);
  static_assert(!WholeNanoseconds<std::chrono::duration<double>>);
  static_assert(!WholeNanoseconds<std::chrono::duration<std::int64_t, std::pico>>);
  static_assert(!WholeNanoseconds<std::chrono::duration<int, std::ratio<1, 3>>>);
  static_assert(!ChronoDuration<std::int64_t>);
  static_assert(!ChronoDuration<double>);
  // Exactly what std::chrono::nanoseconds accepts implicitly.
  static_assert(std::is_convertible_v<std::chrono::duration<int, std::ratio<1, 4>>,
                                      std::chrono::nanoseconds>);
  static_assert(!std::is_convertible_v<std::chrono::duration<std::int64_t, std::pico>,
                                       std::chrono::nanoseconds>);
  static_assert(!std::is_convertible_v<std::chrono::duration<double>, std::chrono::nanoseconds>);
}

TEST(Duration, AnyDurationGivesNanosecondsAsADoubleAsChronoDoes) {
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(std::chrono::duration<double>(0.25)),
                   DoubleNanoseconds(std::chrono::duration<double>(0.25)).count());
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(std::chrono::duration<double, std::micro>(1.5)), 1500.0);
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(std::chrono::duration<std::int64_t, std::pico>(2500)),
                   DoubleNanoseconds(std::chrono::duration<std::int64_t, std::pico>(2500)).count());
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(std::chrono::duration<std::int64_t, std::pico>(2500)),
                   2.5);
  EXPECT_DOUBLE_EQ(to_nanoseconds_double(std::chrono::duration<double, std::ratio<1, 3>>(3.0)),
                   1e9);
}

void registered_for_duration_test(Bencher&) {}

TEST(Duration, RegistrationAndBenchStoreTheirDurationsInNanoseconds) {
  Registration registration("registered_for_duration_test", "file.cpp", 1, this_build_facts());
  registration.add_function(&registered_for_duration_test)
      .time_budget(std::chrono::seconds(5))
      .warm_up(std::chrono::milliseconds(200));
  EXPECT_EQ(registration.settings().time_budget_ns, 5'000'000'000);
  EXPECT_EQ(registration.settings().warm_up_ns, 200'000'000);
  Bench bench;
  bench.time_budget(std::chrono::minutes(1)).warm_up(std::chrono::microseconds(3));
  EXPECT_EQ(bench.time_budget(), 60'000'000'000);
  EXPECT_EQ(bench.warm_up(), 3'000);
}

}  // namespace
}  // namespace benchkit::detail
