// A Google Benchmark suite of one benchmark that reports the CPUs its process may run on, as user
// counters: `allowed_cpus` (how many) and `first_cpu` (the lowest). Run side by side by
// tests/session/gbench_binary_test.cpp, which checks that a round's processes ran on one CPU.
#include <benchmark/benchmark.h>
#include <sched.h>

static void BM_where(benchmark::State& state) {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof(set), &set);
  int first = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; ++cpu) {
    if (CPU_ISSET(cpu, &set)) first = cpu;
  }
  int sum = 0;
  for (auto _ : state) benchmark::DoNotOptimize(sum += 1);
  state.counters["allowed_cpus"] = CPU_COUNT(&set);
  state.counters["first_cpu"] = first;
}
BENCHMARK(BM_where);

BENCHMARK_MAIN();
