// A small, fixed run used by the format tests: two benchmarks with known samples.
#pragma once

#include "analysis/estimates.hpp"
#include "benchkit/result.hpp"

namespace benchkit::testing {

inline RunResult sample_run() {
  RunResult run;
  Context& c = run.context;
  c.date = "2026-11-29T12:00:00Z";
  c.tool_version = "0.1.0";
  c.hostname = "bench-host";
  c.os = "Debian GNU/Linux 12 (bookworm)";
  c.kernel = "Linux 6.1.0 x86_64";
  c.cpu_model = "Example CPU @ 3.00GHz";
  c.logical_cpus = 2;
  c.compiler = "12.2.0";
  c.build_type = "Release";
  c.library_flags = "-O3 -DNDEBUG";
  c.git_commit = "0123456789abcdef0123456789abcdef01234567";
  c.git_branch = "main";
  c.git_dirty = false;
  c.executable = "/tmp/bench";
  c.executable_sha256 = "ab12";
  c.command_line = "/tmp/bench --out result.json";
  c.seed = 7;
  c.clock["name"] = "steady_clock";
  c.warnings.push_back({"counters_unavailable", "info", "hardware counters unavailable: example"});

  BenchmarkResult hash;
  hash.name = "hash/size=64";
  hash.params["size"] = "64";
  hash.bytes_per_iteration = 64;
  hash.overhead_ns_per_sample = 20;
  for (int i = 0; i < 12; ++i) {
    Sample sample;
    sample.iters = 1000;
    sample.ns = 20 + 1000.0 * (50.0 + (i % 4) * 0.5 + (i == 11 ? 20 : 0));
    hash.samples.push_back(sample);
  }
  hash.memory.peak_rss_bytes = 8 << 20;
  hash.memory.rss_growth_bytes = 0;
  hash.memory.peak_rss_method = "VmHWM after reset by /proc/self/clear_refs";
  hash.warm_up_iters = 5000;
  hash.warm_up_ns = 250000;
  analysis::compute_estimates(hash);

  BenchmarkResult sort;
  sort.name = "sort|pipes";
  sort.items_per_iteration = 1000;
  sort.counters["ratio"] = 2.5;
  for (int i = 0; i < 6; ++i) {
    Sample sample;
    sample.iters = 2;
    sample.ns = 2 * (15000.0 + 100.0 * i);
    sample.counters["instructions"] = 1e6 + i;
    sort.samples.push_back(sample);
  }
  analysis::compute_estimates(sort);
  sort.diagnostics.push_back({"few_samples", "warning", "only 6 samples"});

  run.benchmarks = {hash, sort};
  return run;
}

}  // namespace benchkit::testing
