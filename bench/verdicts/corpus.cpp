// A corpus that looks like the suites people have (issue 36): allocation-heavy containers,
// string compares, hashing, branchy random work, memory-bound sums of 1 and 64 MiB, a system
// call. Each benchmark's work is scaled as the workload's (work_scale.hpp): verdict_corpus_105
// does 5% more of it. bench/verdicts/measure_rates --workload corpus drives it.
#include <unistd.h>

#include <benchkit/benchkit.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "work_scale.hpp"

namespace {

// Allocation: a vector grown one push_back at a time, as most code fills one. 10,000 and 11,000
// elements pass the same capacities (the last is 16,384), so more work is more appends, not
// another reallocation.
void push_back(benchkit::Bencher& b) {
  const std::uint64_t count = scaled(10'000);
  b.iter([&] {
    std::vector<std::uint32_t> values;
    for (std::uint64_t i = 0; i < count; ++i) values.push_back(static_cast<std::uint32_t>(i));
    return values.size();
  });
}
BENCHKIT(push_back);

// Allocation: a map built from 2,000 random keys and dropped, a node each (std::map, and
// std::unordered_map, whose 2,000 and 2,200 keys grow the same bucket counts).
template <class Map>
void insert_keys(benchkit::Bencher& b, std::uint64_t seed) {
  const std::vector<int> keys = benchkit::data::random_ints(at_largest_scale(2'000), seed);
  const auto end = keys.begin() + static_cast<std::ptrdiff_t>(scaled(2'000));
  b.iter([&] {
    Map map;
    for (auto key = keys.begin(); key != end; ++key) map.emplace(*key, *key);
    return map.size();
  });
}

void map_insert(benchkit::Bencher& b) {
  insert_keys<std::map<int, int>>(b, 11);
}
BENCHKIT(map_insert);

void unordered_insert(benchkit::Bencher& b) {
  insert_keys<std::unordered_map<int, int>>(b, 12);
}
BENCHKIT(unordered_insert);

// String compares: pairs of 64-character strings that differ only near the end.
void string_compare(benchkit::Bencher& b) {
  std::vector<std::string> left;
  std::vector<std::string> right;
  std::mt19937_64 random(13);
  for (std::uint64_t i = 0; i < at_largest_scale(1'000); ++i) {
    std::string text(64, 'k');
    text[60] = static_cast<char>('a' + random() % 26);
    left.push_back(text);
    text[61] = static_cast<char>('a' + random() % 26);
    right.push_back(std::move(text));
  }
  const std::uint64_t count = scaled(1'000);
  b.iter([&] {
    int order = 0;
    for (std::uint64_t i = 0; i < count; ++i) order += left[i].compare(right[i]) < 0 ? 1 : -1;
    return order;
  });
}
BENCHKIT(string_compare);

// Hashing: std::hash of a 16 KiB string view.
void hash_bytes(benchkit::Bencher& b) {
  std::string bytes(at_largest_scale(16 * 1024), ' ');
  std::mt19937_64 random(14);
  for (char& byte : bytes) byte = static_cast<char>(random());
  const std::string_view view(bytes.data(), scaled(16 * 1024));
  b.throughput_bytes(view.size());
  b.iter([&] { return std::hash<std::string_view>{}(benchkit::black_box(view)); });
}
BENCHKIT(hash_bytes);

// Branchy random work: a small state machine driven by random bytes, whose branches no
// predictor learns.
void branchy(benchkit::Bencher& b) {
  std::vector<std::uint8_t> bytes(at_largest_scale(20'000));
  std::mt19937_64 random(15);
  for (std::uint8_t& byte : bytes) byte = static_cast<std::uint8_t>(random());
  const std::uint64_t count = scaled(20'000);
  b.iter([&] {
    std::uint64_t state = 1;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint8_t byte = bytes[i];
      if (byte & 1) {
        state = state * 3 + byte;
      } else if (byte & 2) {
        state ^= state >> 7;
      } else if (byte & 4) {
        state += 0x9E3779B97F4A7C15ULL;
      } else {
        state -= byte;
      }
    }
    return state;
  });
}
BENCHKIT(branchy);

// Memory bound: summing 1 MiB (in L2 on the development VM) and 64 MiB (beyond its caches), the
// buffer the same size in every variant.
void sum_mib(benchkit::Bencher& b, std::size_t mib) {
  const std::size_t base = mib * 1024 * 1024 / sizeof(std::uint32_t);
  const std::vector<std::uint32_t> values(at_largest_scale(base), 3);
  const auto end = values.begin() + static_cast<std::ptrdiff_t>(scaled(base));
  b.throughput_bytes(scaled(base) * sizeof(std::uint32_t));
  b.iter([&] { return std::accumulate(values.begin(), end, std::uint64_t{0}); });
}
BENCHKIT(sum_mib).param("mib", {1, 64});

// A system call: getppid, which the C library never caches, 100 times.
void system_call(benchkit::Bencher& b) {
  const std::uint64_t count = scaled(100);
  b.iter([&] {
    std::int64_t total = 0;
    for (std::uint64_t i = 0; i < count; ++i) total += ::getppid();
    return total;
  });
}
BENCHKIT(system_call);

}  // namespace
