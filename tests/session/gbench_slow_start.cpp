// A Google Benchmark suite slow to start, as one whose main() builds what its benchmarks share
// (spdlog's latency suite allocates a queue of 1.6 GB there): 120 ms before any benchmark runs.
// Each process appends a line to the file named by GBENCH_START_LOG, when it is set, so that
// tests/session/gbench_binary_test.cpp can count the processes a side-by-side comparison started.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <thread>

static void BM_one(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 1);
}
BENCHMARK(BM_one);

static void BM_two(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 2);
}
BENCHMARK(BM_two);

static void BM_three(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 3);
}
BENCHMARK(BM_three);

int main(int argc, char** argv) {
  if (const char* log = std::getenv("GBENCH_START_LOG")) {
    std::ofstream(log, std::ios::app) << "started\n";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
