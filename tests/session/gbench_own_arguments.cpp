// A Google Benchmark suite whose main() reads arguments of its own before Google Benchmark's, as
// spdlog's bench/latency.cpp registers more benchmarks when argv[1] is "full" and its
// formatter-bench refuses to run without exactly one argument, saying so on standard output.
// Run by tests/session/gbench_binary_test.cpp.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>

static void BM_base(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 1);
}

static void BM_full(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 2);
}

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "usage") {
    std::printf("[error] Usage: %s <pattern> (or \"all\" to bench all)\n", argv[0]);
    return 1;
  }
  benchmark::RegisterBenchmark("BM_base", BM_base);
  if (first == "full") benchmark::RegisterBenchmark("BM_full", BM_full);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
