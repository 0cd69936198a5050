// The smallest useful bench binary: link benchkit::main, register functions, run.
#include <benchkit/benchkit.hpp>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

// One iteration per call; the returned value is black-boxed so the work is kept.
static void sum_vector(benchkit::Bencher& b, std::size_t size) {
  std::vector<std::uint64_t> values(size);
  std::iota(values.begin(), values.end(), 0);
  b.throughput_items(size);
  b.iter([&] { return std::accumulate(values.begin(), values.end(), std::uint64_t{0}); });
}
BENCHKIT(sum_vector).param("size", {1'000, 100'000});

// black_box on the input stops the compiler from computing the answer at compile time.
static void to_string_int(benchkit::Bencher& b) {
  b.iter([] { return std::to_string(benchkit::black_box(123'456'789)); });
}
BENCHKIT(to_string_int);
