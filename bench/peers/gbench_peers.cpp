// The three peer benchmarks for Google Benchmark, at its defaults.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

static void add_self(benchmark::State& state) {
  std::uint64_t x = 1;
  benchmark::DoNotOptimize(x);
  for (auto _ : state) {
    x += x;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(add_self);

static void sleep_10ms(benchmark::State& state) {
  for (auto _ : state) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}
BENCHMARK(sleep_10ms);

static void fluctuating(benchmark::State& state) {
  std::mt19937_64 picker(7);
  std::mt19937_64 work(11);
  for (auto _ : state) {
    const auto rounds = picker() & 0xFF;
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < rounds; ++i) sum += work();
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(fluctuating);

BENCHMARK_MAIN();
