// Runs this build's diagnostics again on saved result files, as a run would have raised them:
// estimates, per-benchmark diagnostics, then the run's machine_speed bookkeeping (which
// withholds some flags). With `bench/verdicts/example_flags --keep DIR`, it shows what a change
// to the diagnostics does to the same samples (docs/verdicts.md, "Diagnostics").
//
// Usage: rediagnose FILE.json...
// Prints one line per flag (file, benchmark, code, message), then the count of each code.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "session/result_files.hpp"

namespace {

// The clock facts the run recorded in its context (the defaults of ClockFacts when absent).
benchkit::analysis::ClockFacts clock_facts(const benchkit::RunResult& run) {
  benchkit::analysis::ClockFacts facts;
  const auto read = [&](const char* key, double& into) {
    const auto it = run.context.clock.find(key);
    if (it == run.context.clock.end()) return;
    try {
      into = std::stod(it->second);
    } catch (const std::exception&) {
      // Unreadable: keep the default.
    }
  };
  read("resolution_ns", facts.resolution_ns);
  read("loop_overhead_ns_per_iter", facts.loop_overhead_ns);
  return facts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fprintf(stderr,
                 "usage: %s FILE.json...\nRuns this build's diagnostics again on result files "
                 "(any --out of a bench binary) and prints every flag, then the count of each.\n",
                 argv[0]);
    return argc < 2 ? 2 : 0;
  }
  std::map<std::string, int> counts;
  int benchmarks = 0;
  for (int a = 1; a < argc; ++a) {
    auto run = benchkit::session::load_result_file(argv[a]);
    if (!run) {
      std::fprintf(stderr, "rediagnose: %s\n", run.error().message.c_str());
      return 2;
    }
    const benchkit::analysis::ClockFacts facts = clock_facts(*run);
    for (benchkit::BenchmarkResult& benchmark : run->benchmarks) {
      if (benchmark.kind != "micro") continue;
      benchmark.diagnostics.clear();
      benchmark.estimates = {};
      benchkit::analysis::compute_estimates(benchmark);
      benchkit::analysis::diagnose(benchmark, facts);
    }
    benchkit::analysis::note_machine_speed(*run);
    for (const benchkit::BenchmarkResult& benchmark : run->benchmarks) {
      if (benchmark.kind != "micro") continue;
      ++benchmarks;
      for (const benchkit::Diagnostic& d : benchmark.diagnostics) {
        ++counts[d.code];
        std::printf("%s\t%s\t%s\t%s\n", argv[a], benchmark.name.c_str(), d.code.c_str(),
                    d.message.c_str());
      }
    }
  }
  std::printf("%d benchmark runs in %d files:", benchmarks, argc - 1);
  if (counts.empty()) std::printf(" no flag");
  for (const auto& [code, count] : counts) std::printf(" %s %d", code.c_str(), count);
  std::printf("\n");
  return 0;
}
