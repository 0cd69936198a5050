// A Google Benchmark suite whose main() reads arguments of its own before Google Benchmark's, as
// spdlog's bench/latency.cpp registers more benchmarks when argv[1] is "full" and its
// formatter-bench refuses to run without exactly one argument, saying so on standard output;
// with "chatty" it prints lines of its own on standard output whatever it is asked, as
// google/benchmark's own test programs do (multiple_ranges_test's fixture prints its checks at
// exit); with "crash" and "hang" it registers a benchmark that aborts, or one that never ends;
// with "twice", BM_base twice (google/benchmark's options_test registers BM_basic/1 six times);
// with "refuse-run", it lists its benchmarks but, asked to run them, says on standard error what
// Google Benchmark 1.7.1 says of a filter its regex refuses, and exits 0 without a result file;
// with "growing", BM_growing, each call (a repetition) slower than the one before; with
// "brackets", BM_base/arr[4] {x} (spdlog's formatter-bench names its benchmarks
// "[%D %X] [%l] [%n] %v/iterations:2500000"); with "min-time" it exits 1 unless a
// --benchmark_min_time is given (NumKong's main() adds
// --benchmark_min_time=10s when none is, which Google Benchmark 1.7 refuses); with
// "crash-fixed", BM_crash/iterations:1000 (a benchmark whose code fixes its iterations, which a
// side-by-side comparison times in a pilot run before its first round).
// Run by tests/session/gbench_binary_test.cpp.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

static void BM_base(benchmark::State& state) {
  std::int64_t sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 1);
}

static void BM_crash(benchmark::State& state) {
  for (auto _ : state) std::abort();
}

static void BM_hang(benchmark::State& state) {
  for (auto _ : state) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Each call does 20,000 additions more than the one before: at 200 a call, a repetition of one
// iteration was mostly the timer's own cost, and on a loaded machine its rise was lost in noise.
static void BM_growing(benchmark::State& state) {
  static std::int64_t calls = 0;
  const std::int64_t work = 20000 * ++calls;
  std::int64_t sum = 0;
  for (auto _ : state) {
    for (std::int64_t i = 0; i < work; ++i) benchmark::DoNotOptimize(sum += i);
  }
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
  if (first == "min-time") {
    bool given = false;
    for (int i = 1; i < argc; ++i) {
      given = given || std::string(argv[i]).rfind("--benchmark_min_time", 0) == 0;
    }
    if (!given) {
      std::fprintf(stderr, "unrecognized command-line flag: --benchmark_min_time=10s\n");
      return 1;
    }
  }
  if (first == "chatty") {
    std::printf("running with 2 threads\n");
    std::atexit([] { std::printf("EXPECTED\n{1, 3, }\nACTUAL\n"); });
  }
  if (first == "refuse-run") {
    bool listing = false;
    for (int i = 1; i < argc; ++i) {
      listing = listing || std::string(argv[i]).rfind("--benchmark_list_tests", 0) == 0;
    }
    if (!listing) {
      std::fprintf(stderr,
                   "Could not compile benchmark re: Invalid escape in regular expression\n");
      return 0;
    }
  }
  benchmark::RegisterBenchmark("BM_base", BM_base);
  if (first == "full") benchmark::RegisterBenchmark("BM_full", BM_full);
  if (first == "crash") benchmark::RegisterBenchmark("BM_crash", BM_crash);
  if (first == "hang") benchmark::RegisterBenchmark("BM_hang", BM_hang);
  if (first == "twice") benchmark::RegisterBenchmark("BM_base", BM_base);
  if (first == "crash-fixed") benchmark::RegisterBenchmark("BM_crash", BM_crash)->Iterations(1000);
  if (first == "growing") benchmark::RegisterBenchmark("BM_growing", BM_growing);
  if (first == "brackets") benchmark::RegisterBenchmark("BM_base/arr[4] {x}", BM_base);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
