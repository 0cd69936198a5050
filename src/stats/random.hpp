// The seeded pseudo-random generator behind every resampling and permutation in benchkit.
//
// Why our own: the C++ standard fixes the output of std::mt19937 but not of the distributions
// (std::uniform_int_distribution, std::normal_distribution), so the same seed gives different
// resamples with libstdc++ and libc++. Everything here is specified bit for bit, so a seed recorded
// in a result reproduces the same intervals on any platform.
#pragma once

#include <cstdint>

namespace benchkit::stats {

// The default seed of every seeded function in src/stats (the first 16 hex digits of the
// fractional part of the golden ratio; any fixed value would do, this one is recognisable).
inline constexpr std::uint64_t default_seed = 0x9E3779B97F4A7C15ULL;

// SplitMix64 (Steele, Lea & Flood 2014; constants from Vigna's reference implementation): used
// only to expand one 64-bit seed into the 256-bit state of Xoshiro256, as its authors recommend,
// so that nearby seeds (0, 1, 2, ...) give unrelated streams.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2018):
// period 2^256 - 1, passes BigCrush, about 1 ns per number. Not cryptographic.
class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed = default_seed) {
    std::uint64_t expander = seed;
    for (auto& word : state_) word = splitmix64(expander);
  }

  // A generator in exactly this state (not all zero), for checks against published outputs.
  static Xoshiro256 from_state(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2,
                               std::uint64_t s3) {
    Xoshiro256 generator;
    generator.state_[0] = s0;
    generator.state_[1] = s1;
    generator.state_[2] = s2;
    generator.state_[3] = s3;
    return generator;
  }

  std::uint64_t next() {
    const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotate_left(state_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound > 0, without modulo bias: Lemire's multiply-and-shift
  // with rejection ("Fast random integer generation in an interval", ACM TOMACS 2019). The
  // rejection branch is taken with probability below bound / 2^64, i.e. practically never.
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t low = 0;
    std::uint64_t high = multiply_wide(next(), bound, low);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) high = multiply_wide(next(), bound, low);
    }
    return high;
  }

  // Uniform double in [0, 1) with 53 random bits (the top bits, which are the strongest).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  // The 128-bit product a * b: returns the high word, stores the low word.
  static std::uint64_t multiply_wide(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
#if defined(__SIZEOF_INT128__)
    __extension__ using Wide = unsigned __int128;  // GCC/Clang builtin; __extension__: not ISO
    const Wide product = static_cast<Wide>(a) * b;
    low = static_cast<std::uint64_t>(product);
    return static_cast<std::uint64_t>(product >> 64);
#else
    const std::uint64_t a_low = a & 0xFFFFFFFFu, a_high = a >> 32;
    const std::uint64_t b_low = b & 0xFFFFFFFFu, b_high = b >> 32;
    const std::uint64_t low_low = a_low * b_low, high_low = a_high * b_low;
    const std::uint64_t low_high = a_low * b_high, high_high = a_high * b_high;
    const std::uint64_t middle = (low_low >> 32) + (high_low & 0xFFFFFFFFu) + low_high;
    low = (middle << 32) | (low_low & 0xFFFFFFFFu);
    return high_high + (high_low >> 32) + (middle >> 32);
#endif
  }
  static std::uint64_t rotate_left(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }
  std::uint64_t state_[4] = {};
};

}  // namespace benchkit::stats
