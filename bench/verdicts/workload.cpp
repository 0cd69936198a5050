// A workload with a tunable amount of work, to measure how often verdicts are right: the work
// scale (work_scale.hpp) multiplies the work of every benchmark, 1.05 makes each one 5% slower.
// bench/verdicts/measure_rates drives it.
#include <benchkit/benchkit.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "work_scale.hpp"

namespace {

// Compute bound: a dependent chain of multiply-xorshift steps.
void alu(benchkit::Bencher& b, int steps) {
  const std::uint64_t count = scaled(static_cast<std::uint64_t>(steps));
  b.iter([&] {
    std::uint64_t x = benchkit::black_box(std::uint64_t{0x9E3779B97F4A7C15ULL});
    for (std::uint64_t i = 0; i < count; ++i) {
      x ^= x >> 29;
      x *= 0xBF58476D1CE4E5B9ULL;
    }
    return x;
  });
}
BENCHKIT(alu).param("steps", {100, 10'000});

// Memory bound: summing a buffer that fits in L2, and one twice the size of the L3 cache (32 MiB
// on the development VM). The buffer is allocated at the largest scale measured (1.10) in every
// variant and the scale sets how much of it is summed, so that the variants differ in the work
// done, not in the size of the allocation.
void sum_buffer(benchkit::Bencher& b, std::size_t kib) {
  const std::size_t base = kib * 1024 / sizeof(std::uint32_t);
  const std::size_t count = scaled(base);
  std::vector<std::uint32_t> values(std::max(count, at_largest_scale(base)), 3);
  const auto end = values.begin() + static_cast<std::ptrdiff_t>(count);
  b.throughput_bytes(count * sizeof(std::uint32_t));
  b.iter([&] { return std::accumulate(values.begin(), end, std::uint64_t{0}); });
}
BENCHKIT(sum_buffer).param("kib", {128, 65536});

// Allocation: building and dropping many small strings.
void strings(benchkit::Bencher& b) {
  const std::size_t count = scaled(200);
  b.iter([&] {
    std::vector<std::string> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) out.emplace_back(40, static_cast<char>('a' + i % 26));
    return out.size();
  });
}
BENCHKIT(strings);

// Branchy: sorting fresh copies of random integers, 500 at a time (inputs made outside the
// timed region). The scale adds blocks, so that 5% more work is 5% more time: sorting more
// integers at once would change the cost of each (n log n, and where the data lands in the
// caches). An earlier version sorted 2,000 or 2,100 integers; side by side, its "5% slower"
// build measured 0-4% slower.
void sort_copy(benchkit::Bencher& b) {
  constexpr std::size_t block = 500;
  const std::size_t blocks = scaled(100);
  const std::vector<int> source = benchkit::data::random_ints(blocks * block, 5);
  b.with_inputs([&] { return source; }).bench_refs([&](std::vector<int>& v) {
    for (std::size_t i = 0; i < blocks; ++i) {
      const auto first = v.begin() + static_cast<std::ptrdiff_t>(i * block);
      std::sort(first, first + static_cast<std::ptrdiff_t>(block));
    }
  });
}
BENCHKIT(sort_copy);

// Floating point: a short series, enough work to be far above the clock.
void series(benchkit::Bencher& b) {
  const std::uint64_t terms = scaled(5000);
  b.iter([&] {
    double total = 0;
    for (std::uint64_t k = 1; k <= terms; ++k) total += 1.0 / (static_cast<double>(k) * k);
    return total;
  });
}
BENCHKIT(series);

}  // namespace
