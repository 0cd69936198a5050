// The three peer benchmarks, written for benchkit (bench/peers/gbench_peers.cpp has the same
// three for Google Benchmark). Run both with bench/peers/compare.
#include <benchkit/benchkit.hpp>

#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

// One add per iteration: what the harness reports for the cheapest possible work.
static void add_self(benchkit::Bencher& b) {
  std::uint64_t x = benchkit::black_box(std::uint64_t{1});
  b.iter([&] {
    x += x;
    return x;
  });
}
BENCHKIT(add_self);

// A known duration: the harness must report 10 ms plus the kernel's timer slack, no more.
static void sleep_10ms(benchkit::Bencher& b) {
  b.iter([] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); });
}
BENCHKIT(sleep_10ms);

// Work that varies from one iteration to the next: 0-255 draws of a seeded generator.
static void fluctuating(benchkit::Bencher& b) {
  std::mt19937_64 picker(7);
  std::mt19937_64 work(11);
  b.iter([&] {
    const auto rounds = picker() & 0xFF;
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < rounds; ++i) sum += work();
    return sum;
  });
}
BENCHKIT(fluctuating);
