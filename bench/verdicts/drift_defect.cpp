// How often the `drift` diagnostic catches the defect it is for: a buffer that grows because it
// is cleared outside the measured closure, so that every iteration sums one more element than
// the last (the benchmark of DiagnosticsReal.DriftFromABufferClearedOutsideTheClosure). Each run
// is a fresh benchmark in this process, measured as the test measures it; the count of runs
// flagged `drift` is printed, with the way each was found and the times of the runs missed.
//
// --busy N runs N threads of busy loops for the whole study: on this 2-core machine, 2 of them
// take the benchmark's core half the time, as a parallel test run or a neighbour does.
//
// Usage: drift_defect [--runs 40] [--budget-ms 300] [--busy 0]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "benchkit/benchkit.hpp"

namespace {

struct Options {
  int runs = 40;
  int budget_ms = 300;
  int busy = 0;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "drift_defect: %s needs a value\n", flag.c_str());
      std::exit(2);
    }
    const int value = std::atoi(argv[++i]);
    if (flag == "--runs") {
      options.runs = value;
    } else if (flag == "--budget-ms") {
      options.budget_ms = value;
    } else if (flag == "--busy") {
      options.busy = value;
    } else {
      std::fprintf(stderr, "drift_defect: unknown flag %s (--runs, --budget-ms, --busy)\n",
                   flag.c_str());
      std::exit(2);
    }
  }
  if (options.runs < 1 || options.budget_ms < 1 || options.busy < 0) {
    std::fprintf(stderr, "drift_defect: --runs and --budget-ms must be positive\n");
    std::exit(2);
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int i = 0; i < options.busy; ++i) {
    busy.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  int flagged = 0;
  int by_order = 0;
  for (int run = 0; run < options.runs; ++run) {
    std::vector<int> buffer;  // the defect: never cleared inside the measured code
    benchkit::Bench bench;
    bench.time_budget(std::chrono::milliseconds(options.budget_ms))
        .warm_up(std::chrono::milliseconds(5));
    const benchkit::BenchmarkResult result = bench.run("drift", [&](benchkit::Bencher& b) {
      b.iter([&] {
        buffer.push_back(1);
        return std::accumulate(buffer.begin(), buffer.end(), 0L);
      });
    });
    const benchkit::Diagnostic* drift = nullptr;
    for (const auto& d : result.diagnostics) {
      if (d.code == "drift") drift = &d;
    }
    if (drift) {
      ++flagged;
      if (drift->message.find("Mann–Kendall") != std::string::npos) ++by_order;
      continue;
    }
    std::printf(
        "run %d missed (%zu samples, ns per iteration in order, * when the system "
        "switched the benchmark out during the sample):",
        run + 1, result.samples.size());
    for (const auto& s : result.samples) {
      const auto it = s.counters.find("involuntary_switches");
      const bool switched = it != s.counters.end() && it->second > 0;
      std::printf(" %.0f%s", s.ns / static_cast<double>(s.iters), switched ? "*" : "");
    }
    std::printf("\n");
    for (const auto& d : result.diagnostics)
      std::printf("  %s: %s\n", d.code.c_str(), d.message.c_str());
  }
  stop = true;
  for (auto& t : busy) t.join();
  std::printf(
      "drift flagged in %d of %d runs (%d by the order of the blocks, %d by the size of "
      "the slope); budget %d ms, %d busy threads\n",
      flagged, options.runs, by_order, flagged - by_order, options.budget_ms, options.busy);
  return 0;
}
