// A Google Benchmark suite whose code asks for aggregates only, as real suites do
// (->Repetitions(N)->ReportAggregatesOnly(true), which no flag undoes): Google Benchmark then
// writes each benchmark's mean, median, stddev and cv and no repetition. BM_plain writes its
// repetitions as usual. Run in fresh processes and side by side by
// tests/session/gbench_binary_test.cpp, where each process's median is one sample.
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

BENCHMARK_MAIN();
