// A bench binary for the counted-run tests (--mode instructions under real valgrind): small,
// deterministic routines whose instruction counts the tests can reason about.
#include <benchkit/benchkit.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// `steps` rounds of a dependent multiply-add: the same instructions per step, so the count grows
// linearly with `steps`. COUNTED_BENCH_WORK (passed with --keep-env) scales it, in percent.
[[gnu::noinline]] std::uint64_t churn(std::uint64_t seed, std::uint64_t steps) {
  std::uint64_t x = seed;
  for (std::uint64_t i = 0; i < steps; ++i) {
    x = x * 6364136223846793005ULL + benchkit::black_box(i);
  }
  return x;
}

std::uint64_t work_percent() {
  const char* text = std::getenv("COUNTED_BENCH_WORK");
  return text ? std::strtoull(text, nullptr, 10) : 100;
}

}  // namespace

// 2,000 steps (times COUNTED_BENCH_WORK / 100).
static void steady(benchkit::Bencher& b) {
  const std::uint64_t steps = 2000 * work_percent() / 100;
  b.iter([&] { return churn(1, steps); });
}
BENCHKIT(steady);

// The same routine with a set-up 100 times its cost per input, and outputs to drop: neither may
// be counted.
static void heavy_setup(benchkit::Bencher& b) {
  b.with_inputs([] {
     return std::vector<std::uint64_t>{churn(2, 200'000), 0};
   }).bench_values([](std::vector<std::uint64_t> input) {
    input[1] = churn(input[0], 2000);
    return input;  // dropped after the region
  });
}
BENCHKIT(heavy_setup);

// One function does almost all the work: a profile must name it first.
[[gnu::noinline]] std::uint64_t hot_function(std::uint64_t steps) {
  return churn(3, steps);
}
[[gnu::noinline]] std::uint64_t cold_function() {
  return benchkit::black_box(std::uint64_t{7}) * 3;
}
static void one_hot(benchkit::Bencher& b) {
  b.iter([] { return hot_function(5000) + cold_function(); });
}
BENCHKIT(one_hot);

// Two benchmarks whose counts depend on the order they run in one process (benchkit noise
// --mode instructions): the first fills a table that the second walks, so the second counts
// 1,000 more elements when the first ran before it.
namespace {
std::vector<std::uint64_t>& shared_table() {
  static std::vector<std::uint64_t> table;
  return table;
}
}  // namespace
static void order_fills_table(benchkit::Bencher& b) {
  if (shared_table().empty()) shared_table().assign(1000, 3);
  b.iter([] { return churn(4, 500); });
}
BENCHKIT(order_fills_table);
static void order_walks_table(benchkit::Bencher& b) {
  b.iter([] {
    std::uint64_t sum = 0;
    for (const std::uint64_t value : shared_table()) sum += benchkit::black_box(value);
    return sum + churn(5, 500);
  });
}
BENCHKIT(order_walks_table);
