#include "clock/calibration.hpp"

#include <algorithm>
#include <vector>

namespace benchkit::clock {

Calibration calibrate_clock(Clock& source, std::int64_t max_probe_ns, std::int64_t max_reads) {
  Calibration result;
  const std::int64_t begin = source.now_ns();

  // Resolution: the smallest non-zero step between consecutive reads (nanobench, Divan).
  std::int64_t smallest_step = 0;
  std::vector<double> pair_costs;
  pair_costs.reserve(1024);
  std::int64_t reads = 0;
  std::int64_t previous = begin;
  while (reads < max_reads) {
    const std::int64_t a = source.now_ns();
    const std::int64_t b = source.now_ns();
    reads += 2;
    if (b > a && (smallest_step == 0 || b - a < smallest_step)) smallest_step = b - a;
    if (a > previous && (smallest_step == 0 || a - previous < smallest_step)) {
      smallest_step = a - previous;
    }
    if (pair_costs.size() < 1024) pair_costs.push_back(static_cast<double>(b - a));
    previous = b;
    if (b - begin > max_probe_ns) break;
    // Enough evidence: 1024 pairs seen and at least 10 ms spent (or a clock that is not moving).
    if (pair_costs.size() >= 1024 && (b - begin > 10'000'000 || reads > 100'000)) break;
  }
  result.resolution_ns = smallest_step > 0 ? static_cast<double>(smallest_step) : 1.0;
  if (!pair_costs.empty()) {
    auto middle = pair_costs.begin() + static_cast<std::ptrdiff_t>(pair_costs.size() / 2);
    std::nth_element(pair_costs.begin(), middle, pair_costs.end());
    result.read_cost_ns = *middle;
  }
  result.probe_ns = static_cast<double>(source.now_ns() - begin);
  return result;
}

double calibrate_loop_overhead(const std::function<double(std::uint64_t)>& empty_loop) {
  // Two lengths, 5 runs each; the per-iteration cost is the slope between the two minima, so
  // the constant cost of starting and stopping the clock cancels out.
  constexpr std::uint64_t short_run = 10'000;
  constexpr std::uint64_t long_run = 110'000;
  double short_min = -1.0;
  double long_min = -1.0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const double s = empty_loop(short_run);
    const double l = empty_loop(long_run);
    if (short_min < 0 || s < short_min) short_min = s;
    if (long_min < 0 || l < long_min) long_min = l;
  }
  const double slope = (long_min - short_min) / static_cast<double>(long_run - short_run);
  return std::max(0.0, slope);
}

}  // namespace benchkit::clock
