#include "analysis/order_dependence.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace benchkit::analysis {

std::size_t OrderReport::moved() const {
  return static_cast<std::size_t>(std::count_if(benchmarks.begin(), benchmarks.end(),
                                                [](const OrderMove& move) { return move.moved; }));
}

OrderReport compare_orders(const RunResult& forward, const RunResult& reverse, double threshold) {
  OrderReport report;
  report.threshold = threshold;
  std::map<std::string, const BenchmarkResult*> reversed;
  for (const BenchmarkResult& benchmark : reverse.benchmarks) {
    if (!benchmark.failure && !benchmark.metric.empty()) reversed[benchmark.name] = &benchmark;
  }
  for (const BenchmarkResult& benchmark : forward.benchmarks) {
    if (benchmark.metric.empty() && !benchmark.failure) continue;
    const auto found = reversed.find(benchmark.name);
    if (benchmark.failure || found == reversed.end()) {
      report.missing.push_back(benchmark.name);
      continue;
    }
    OrderMove move;
    move.name = benchmark.name;
    move.forward = benchmark.estimates.median.value;
    move.reverse = found->second->estimates.median.value;
    move.change = move.forward != 0.0 ? move.reverse / move.forward - 1.0 : 0.0;
    move.moved = std::fabs(move.change) > threshold;
    report.benchmarks.push_back(move);
    reversed.erase(found);
  }
  for (const auto& [name, benchmark] : reversed) report.missing.push_back(name);
  return report;
}

}  // namespace benchkit::analysis
