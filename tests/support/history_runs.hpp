// Runs made up for the history tests and benchmarks: a commit, a branch, a date and benchmarks
// whose samples sit around a chosen time per iteration.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "analysis/estimates.hpp"
#include "benchkit/result.hpp"

namespace benchkit::testing {

struct MadeRun {
  std::string commit = "c0";
  std::string branch = "main";
  std::string date = "2026-11-01T00:00:00Z";
  std::string host = "runner-1";
  std::string cpu = "Example CPU @ 3.00GHz";
  std::size_t benchmarks = 2;
  std::size_t samples = 20;
  double ns = 100.0;       // per iteration, of benchmark 0; benchmark i takes ns * (i + 1)
  std::uint64_t seed = 1;  // varies the samples (and so the run's identity)
  bool estimates = true;   // compute them (a stored run has them)
};

// Deterministic noise of about ±1% without a random engine: the same run every time.
inline double wobble(std::uint64_t seed, std::size_t i) {
  const std::uint64_t x = (seed * 2654435761u + i * 40503u) % 1000u;
  return 1.0 + (static_cast<double>(x) / 1000.0 - 0.5) * 0.02;
}

inline RunResult made_run(const MadeRun& made) {
  RunResult run;
  run.context.date = made.date;
  run.context.git_commit = made.commit;
  run.context.git_branch = made.branch;
  run.context.git_dirty = false;
  run.context.hostname = made.host;
  run.context.cpu_model = made.cpu;
  run.context.logical_cpus = 2;
  run.context.kernel = "Linux 6.1.0 x86_64";
  run.context.compiler = "12.2.0";
  run.context.build_type = "Release";
  run.context.tags["runner"] = made.host;
  run.context.seed = made.seed;
  for (std::size_t b = 0; b < made.benchmarks; ++b) {
    BenchmarkResult benchmark;
    benchmark.name = fmt::format("bench_{:04}", b);
    for (std::size_t i = 0; i < made.samples; ++i) {
      Sample sample;
      sample.iters = 1000;
      sample.ns = 1000.0 * made.ns * static_cast<double>(b + 1) * wobble(made.seed + b, i);
      benchmark.samples.push_back(sample);
    }
    if (made.estimates) analysis::compute_estimates(benchmark);
    run.benchmarks.push_back(std::move(benchmark));
  }
  return run;
}

}  // namespace benchkit::testing
