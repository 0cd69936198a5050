// Traces how fast the machine runs, window by window, in one process: the reference loop that
// benchkit times between samples (src/measure/speed_probe.cpp) beside four kinds of work.
// It shows whether the machine switches speed (and for how long), and how much each kind of
// work slows down when the reference loop does: the numbers behind docs/verdicts.md, "Machine
// speed".
//
// It also times a candidate second probe that benchkit does not use yet: a chase of 64
// dependent loads through an 8 MiB ring (L3 and memory), to show how much of what remains,
// once the reference loop says the machine is fast, follows memory rather than the core.
//
// Usage: speed_trace [SECONDS (default 10)] [WINDOW_MS (default 150)]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/machine_speed.hpp"
#include "benchkit/black_box.hpp"
#include "clock/clock.hpp"
#include "measure/speed_probe.hpp"
#include "stats/summary.hpp"
#include "stats/trend.hpp"

namespace {

using benchkit::clock::Clock;

struct Work {
  const char* name;
  void (*run)();
};

std::vector<std::uint32_t> make_source(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::uint64_t state = 88172645463325252ULL;
  for (auto& x : v) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    x = static_cast<std::uint32_t>(state);
  }
  return v;
}

const std::vector<std::uint32_t> sort_source = make_source(2000);
std::vector<std::uint32_t> l2_buffer(32768, 3);         // 128 KiB
std::vector<std::uint64_t> memory_buffer(2u << 20, 1);  // 16 MiB

// A single cycle through 8 MiB in a seeded random order (Sattolo's shuffle).
std::vector<std::uint32_t> make_ring(std::size_t entries) {
  std::vector<std::uint32_t> order(entries);
  std::iota(order.begin(), order.end(), 0u);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = entries - 1; i > 0; --i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    std::swap(order[i], order[state % i]);
  }
  std::vector<std::uint32_t> ring(entries);
  for (std::size_t i = 0; i < entries; ++i) ring[order[i]] = order[(i + 1) % entries];
  return ring;
}
std::vector<std::uint32_t> ring = make_ring((8u << 20) / sizeof(std::uint32_t));
std::uint32_t ring_position = 0;

// Best of 3 chases of 64 dependent loads, in nanoseconds.
double memory_probe(Clock& clock) {
  double best = 1e18;
  for (int run = 0; run < 3; ++run) {
    const std::int64_t start = clock.now_ns();
    std::uint32_t p = ring_position;
    for (int i = 0; i < 64; ++i) p = ring[p];
    ring_position = p;
    benchkit::do_not_optimize(p);
    best = std::min(best, static_cast<double>(clock.now_ns() - start));
  }
  return best;
}

void sort_copy() {
  std::vector<std::uint32_t> v = sort_source;
  std::sort(v.begin(), v.end());
  benchkit::do_not_optimize(v.data());
}
void strings() {
  std::vector<std::string> out;
  out.reserve(200);
  for (int i = 0; i < 200; ++i) out.emplace_back(40, static_cast<char>('a' + i % 26));
  benchkit::do_not_optimize(out.data());
}
void sum_l2() {
  benchkit::do_not_optimize(std::accumulate(l2_buffer.begin(), l2_buffer.end(), std::uint64_t{0}));
}
void sum_memory() {
  benchkit::do_not_optimize(
      std::accumulate(memory_buffer.begin(), memory_buffer.end(), std::uint64_t{0}));
}
void multiply_chain() {
  std::uint64_t x = benchkit::black_box(std::uint64_t{0x9E3779B97F4A7C15ULL});
  for (int i = 0; i < 10000; ++i) {
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
  }
  benchkit::do_not_optimize(x);
}

const Work kWork[] = {{"sort_2000", sort_copy},
                      {"strings", strings},
                      {"sum_128KiB", sum_l2},
                      {"sum_16MiB", sum_memory},
                      {"mul_chain", multiply_chain}};
constexpr std::size_t kKinds = sizeof(kWork) / sizeof(kWork[0]);

double median(const std::vector<double>& v) {
  return v.empty() ? 0.0 : benchkit::stats::median(v);
}

double rank_correlation(const std::vector<double>& x, const std::vector<double>& y) {
  return benchkit::stats::spearman(x, y).coefficient;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  const double window_ms = argc > 2 ? std::atof(argv[2]) : 150.0;
  if (!(seconds > 0) || !(window_ms > 0)) {
    std::fprintf(stderr, "usage: %s [SECONDS > 0] [WINDOW_MS > 0]\n", argv[0]);
    return 2;
  }
  Clock& clock = benchkit::clock::steady_clock();
  auto probe = benchkit::measure::make_reference_probe(clock);
  const std::int64_t start = clock.now_ns();
  const auto window_ns = static_cast<std::int64_t>(window_ms * 1e6);
  std::vector<double> probes;
  std::vector<double> chases;
  std::vector<std::vector<double>> times(kKinds);
  std::printf("%8s %10s %10s", "t (s)", "probe ns", "chase ns");
  for (const Work& w : kWork) std::printf(" %12s", w.name);
  std::printf("   (ns per call, median in the window)\n");
  while (clock.now_ns() - start < static_cast<std::int64_t>(seconds * 1e9)) {
    const std::int64_t window_start = clock.now_ns();
    std::vector<double> readings;
    std::vector<double> chase;
    std::vector<std::vector<double>> calls(kKinds);
    // Round-robin over the kinds so that each sees the whole window.
    while (clock.now_ns() - window_start < window_ns) {
      readings.push_back(probe->read_ns());
      chase.push_back(memory_probe(clock));
      for (std::size_t k = 0; k < kKinds; ++k) {
        const std::int64_t a = clock.now_ns();
        kWork[k].run();
        calls[k].push_back(static_cast<double>(clock.now_ns() - a));
      }
    }
    probes.push_back(median(readings));
    chases.push_back(median(chase));
    std::printf("%8.2f %10.0f %10.0f", static_cast<double>(window_start - start) / 1e9,
                probes.back(), chases.back());
    for (std::size_t k = 0; k < kKinds; ++k) {
      times[k].push_back(median(calls[k]));
      std::printf(" %12.0f", times[k].back());
    }
    std::printf("\n");
  }
  // Windows at the fastest speed the machine held (the same rule as for samples) against the
  // others.
  std::vector<double> sorted = probes;
  std::sort(sorted.begin(), sorted.end());
  double level = sorted.front();
  const std::size_t need =
      std::min<std::size_t>(benchkit::analysis::kMinSteadySamples, sorted.size());
  for (std::size_t i = 0; i + need <= sorted.size(); ++i) {
    if (sorted[i + need - 1] <= sorted[i] * benchkit::analysis::kSlowProbeFactor) {
      level = sorted[i];
      break;
    }
  }
  const double cutoff = level * benchkit::analysis::kSlowProbeFactor;
  std::vector<double> fast_probe;
  std::vector<double> slow_probe;
  for (double p : probes) (p <= cutoff ? fast_probe : slow_probe).push_back(p);
  std::printf("\n%zu windows, %zu slow (reference loop > %.2f× its level of %.0f ns)\n",
              probes.size(), slow_probe.size(), benchkit::analysis::kSlowProbeFactor, level);
  if (fast_probe.empty() || slow_probe.empty()) {
    std::printf("the machine held one speed throughout: nothing to compare\n");
    return 0;
  }
  const double probe_ratio = median(slow_probe) / median(fast_probe);
  std::printf("reference loop, slow / fast windows: %.2f×\n", probe_ratio);
  for (std::size_t k = 0; k < kKinds; ++k) {
    std::vector<double> fast;
    std::vector<double> slow;
    for (std::size_t w = 0; w < probes.size(); ++w)
      (probes[w] <= cutoff ? fast : slow).push_back(times[k][w]);
    const double ratio = median(slow) / median(fast);
    std::printf("%-12s slow / fast windows: %.2f×  (power of the loop's factor: %.2f)\n",
                kWork[k].name, ratio, std::log(ratio) / std::log(probe_ratio));
  }
  // What remains in the fast windows: does it follow the memory chase?
  std::vector<double> fast_chase;
  for (std::size_t w = 0; w < probes.size(); ++w)
    if (probes[w] <= cutoff) fast_chase.push_back(chases[w]);
  std::printf(
      "\nin the %zu fast windows: rank correlation of each kind's time with the memory chase "
      "and with the reference loop, and its spread\n",
      fast_chase.size());
  for (std::size_t k = 0; k < kKinds; ++k) {
    std::vector<double> fast;
    std::vector<double> fast_probe_w;
    for (std::size_t w = 0; w < probes.size(); ++w) {
      if (probes[w] > cutoff) continue;
      fast.push_back(times[k][w]);
      fast_probe_w.push_back(probes[w]);
    }
    double mean = 0;
    for (double t : fast) mean += t / static_cast<double>(fast.size());
    double var = 0;
    for (double t : fast) var += (t - mean) * (t - mean) / static_cast<double>(fast.size() - 1);
    std::printf("%-12s chase %+.2f  reference loop %+.2f  CV %.1f%%\n", kWork[k].name,
                rank_correlation(fast_chase, fast), rank_correlation(fast_probe_w, fast),
                100.0 * std::sqrt(var) / mean);
  }
  return 0;
}
