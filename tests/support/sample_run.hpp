// A small, fixed run used by the format tests: two benchmarks with known samples.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "analysis/estimates.hpp"
#include "benchkit/result.hpp"
#include "formats/result_json.hpp"

namespace benchkit::testing {

// A run of these benchmarks, its context empty.
inline RunResult run_of(std::vector<BenchmarkResult> benchmarks) {
  RunResult run;
  run.benchmarks = std::move(benchmarks);
  return run;
}

// A micro benchmark's result: `count` samples of 100 iterations of about `ns` each (a spread of
// up to 0.3%), its estimates computed.
inline BenchmarkResult micro_result(const std::string& name, double ns, std::size_t count = 30) {
  BenchmarkResult b;
  b.name = name;
  for (std::size_t i = 0; i < count; ++i) {
    Sample s;
    s.iters = 100;
    s.ns = 100 * ns * (1.0 + 0.0005 * static_cast<double>(i % 7));
    b.samples.push_back(s);
  }
  analysis::compute_estimates(b);
  return b;
}

// A sample of ten iterations that took `ns` in all.
inline Sample ten_iteration_sample(double ns) {
  Sample one;
  one.iters = 10;
  one.ns = ns;
  return one;
}

// A run of one benchmark, `name`, with three samples of one iteration (100, 101 and 102 ns), as
// result JSON: what a fake worker serves for it in the session tests.
inline std::string served(const std::string& name) {
  RunResult run;
  BenchmarkResult result;
  result.name = name;
  for (int i = 0; i < 3; ++i) {
    Sample sample;
    sample.iters = 1;
    sample.ns = 100.0 + i;
    result.samples.push_back(sample);
  }
  run.benchmarks.push_back(result);
  return formats::to_json(run);
}

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
  // A rate shown in base 1024 (64 bytes per iteration: "1.19 Gi/s" at its median) and a label.
  hash.counters["bytes"] = 64;
  hash.counter_kinds["bytes"] = counter::rate | counter::base_1024;
  hash.label = "text payload";
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

// sample_run() followed by two scenario runs: one run of three phases with every resource and
// a counter, and three runs of two phases whose check failed.
inline RunResult sample_run_with_scenarios() {
  RunResult run = sample_run();
  // cpu_share: CPU time over wall time of each run (the last value repeats).
  auto phase = [](const std::string& name, std::vector<double> wall_ns,
                  std::vector<double> cpu_share, std::int64_t peak, std::int64_t change) {
    BenchmarkResult result;
    result.name = name;
    result.kind = "scenario";
    for (std::size_t i = 0; i < wall_ns.size(); ++i) {
      const double ns = wall_ns[i];
      const double share = cpu_share[std::min(i, cpu_share.size() - 1)];
      Sample sample;
      sample.ns = ns;
      Resources resources;
      resources.user_ns = ns * share * 0.9;
      resources.system_ns = ns * share * 0.1;
      resources.peak_rss_bytes = peak;
      resources.rss_change_bytes = change;
      resources.minor_faults = change > 0 ? change / 4096 : 12;
      resources.major_faults = 0;
      sample.resources = resources;
      result.samples.push_back(sample);
    }
    result.memory.peak_rss_bytes = peak;
    result.memory.peak_rss_method = "VmHWM after reset by /proc/self/clear_refs";
    return result;
  };
  const std::int64_t mib = 1 << 20;
  BenchmarkResult load =
      phase("scaling/payload=text/items=1000000/load", {812e6}, {0.97}, 150 * mib, 72 * mib);
  BenchmarkResult recover =
      phase("scaling/payload=text/items=1000000/recover", {31.5e6}, {0.99}, 150 * mib, 0);
  BenchmarkResult drain =
      phase("scaling/payload=text/items=1000000/drain", {205e6}, {1.0}, 151 * mib, -70 * mib);
  for (BenchmarkResult* p : {&load, &recover, &drain}) {
    p->params = {{"payload", "text"}, {"items", "1000000"}};
    p->items_per_iteration = 1'000'000;
    p->bytes_per_iteration = 64'000'000;
    p->counters = {{"compression_ratio", 3.4121}, {"segments", 70}};
  }
  recover.items_per_iteration.reset();
  recover.bytes_per_iteration.reset();
  BenchmarkResult parse =
      phase("convert/workers=2/parse", {1.1e9, 1.3e9, 1.2e9}, {1.9}, 900 * mib, 400 * mib);
  BenchmarkResult encode = phase("convert/workers=2/encode", {500e6, 520e6, 480e6}, {1.2, 1.9, 1.9},
                                 1200 * mib, 300 * mib);
  for (BenchmarkResult* p : {&parse, &encode}) {
    p->items_per_iteration = 4'000'000;
    p->failures = {"repetition 2 of 3: check failed after phase encode: 4000000 rows read back"};
  }
  for (BenchmarkResult* p : {&load, &recover, &drain, &parse, &encode}) {
    analysis::compute_estimates(*p);
    run.benchmarks.push_back(*p);
  }
  return run;
}

}  // namespace benchkit::testing
