// std::chrono durations taken by the public API without including <chrono> (about 46,000
// preprocessed lines with GCC 12): a duration is recognised by its members, and its count turned
// into nanoseconds with its period's ratio. The user's code that names a duration includes
// <chrono> itself; a benchmark that does not pays nothing for it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace benchkit::detail {

constexpr std::intmax_t greatest_common_divisor(std::intmax_t a, std::intmax_t b) {
  while (b != 0) {
    const std::intmax_t rest = a % b;
    a = b;
    b = rest;
  }
  return a;
}

// How many nanoseconds one tick of `Period` (a std::ratio of seconds) lasts, as a reduced
// fraction num / den: 1'000'000 / 1 for std::milli, 1 / 1000 for std::pico.
template <class Period>
struct NanosecondsPerTick {
  static constexpr std::intmax_t per_second = 1'000'000'000;
  static constexpr std::intmax_t common = greatest_common_divisor(Period::den, per_second);
  static constexpr std::intmax_t num = Period::num * (per_second / common);
  static constexpr std::intmax_t den = Period::den / common;
};

// A std::chrono::duration, or anything shaped like one: a count() of `rep` ticks of `period`.
template <class D>
concept ChronoDuration = requires(const D& duration) {
  typename D::rep;
  typename D::period;
  D::period::num;
  D::period::den;
  duration.count();
};

// What std::chrono::nanoseconds converts from implicitly, so what time_budget and warm_up took
// when their parameter was std::chrono::nanoseconds: an integer count of ticks that are whole
// nanoseconds (nanoseconds, microseconds, milliseconds, seconds, minutes, hours).
template <class D>
concept WholeNanoseconds = ChronoDuration<D> && std::is_integral_v<typename D::rep> &&
                           NanosecondsPerTick<typename D::period>::den == 1;

// The duration in nanoseconds, exactly (as std::chrono::nanoseconds(duration).count()). A
// finer or floating-point duration is refused at compile time, as the conversion to
// std::chrono::nanoseconds refused it: round it first.
template <ChronoDuration D>
constexpr std::int64_t to_nanoseconds(const D& duration) {
  static_assert(WholeNanoseconds<D>,
                "benchkit: time_budget and warm_up take a whole number of nanoseconds (an integer "
                "count of ns, us, ms, s, min or h); convert this duration with "
                "std::chrono::duration_cast<std::chrono::nanoseconds>(d) or "
                "std::chrono::round<std::chrono::nanoseconds>(d)");
  return static_cast<std::int64_t>(duration.count()) *
         static_cast<std::int64_t>(NanosecondsPerTick<typename D::period>::num);
}

// The duration in nanoseconds as a double, any period and representation (as
// std::chrono::duration<double, std::nano>(duration).count()).
template <ChronoDuration D>
constexpr double to_nanoseconds_double(const D& duration) {
  using Tick = NanosecondsPerTick<typename D::period>;
  return static_cast<double>(duration.count()) * static_cast<double>(Tick::num) /
         static_cast<double>(Tick::den);
}

}  // namespace benchkit::detail
