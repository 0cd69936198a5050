// A Google Benchmark suite (Debian's libbenchmark-dev) that benchkit runs as a real binary: the
// tests of `benchkit run ./gb_binary` and `benchkit compare OLD NEW`, and the study in
// bench/gbench_compare/. GBENCH_SUITE_SLOWER_PERCENT (a compile definition) makes BM_sum that
// much slower: a second build with a known change.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <vector>

#ifndef GBENCH_SUITE_SLOWER_PERCENT
#define GBENCH_SUITE_SLOWER_PERCENT 0
#endif

// Additions whose count sets the time: the slower build does GBENCH_SUITE_SLOWER_PERCENT% more.
static void BM_sum(benchmark::State& state) {
  constexpr std::int64_t kAdditions = 2000 * (100 + GBENCH_SUITE_SLOWER_PERCENT) / 100;
  for (auto _ : state) {
    std::int64_t total = 0;
    for (std::int64_t i = 0; i < kAdditions; ++i) {
      total += i;
      benchmark::DoNotOptimize(total);
    }
  }
  state.SetItemsProcessed(state.iterations() * kAdditions);
}
BENCHMARK(BM_sum);

static void BM_accumulate(benchmark::State& state) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(state.range(0)));
  std::iota(values.begin(), values.end(), 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), std::int64_t{0}));
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) *
                          static_cast<std::int64_t>(sizeof(std::int64_t)));
}
BENCHMARK(BM_accumulate)->Arg(4096);

BENCHMARK_MAIN();
