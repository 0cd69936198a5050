// A Google Benchmark suite whose code sets what no flag changes, as real suites' code does:
// aggregates only (->Repetitions(N)->ReportAggregatesOnly(true): Google Benchmark then writes
// each benchmark's mean, median, stddev and cv and no repetition), and a fixed iteration count
// (->Iterations(N)). BM_plain writes its repetitions as usual. Run in fresh processes and side by
// side by tests/session/gbench_binary_test.cpp.
#include <benchmark/benchmark.h>

#include <cstdint>

static void BM_add(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) {
    for (std::int64_t i = 0; i < state.range(0); ++i) benchmark::DoNotOptimize(sum += i);
  }
}
BENCHMARK(BM_add)->Arg(16)->Arg(256)->Repetitions(4)->ReportAggregatesOnly(true);

static void BM_plain(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 1);
}
BENCHMARK(BM_plain);
// A hundred million iterations a repetition: tens of milliseconds, whatever the min time.
BENCHMARK(BM_plain)->Iterations(100'000'000);

BENCHMARK_MAIN();
