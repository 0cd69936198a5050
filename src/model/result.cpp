#include <algorithm>

#include "benchkit/result.hpp"

namespace benchkit {

std::vector<double> BenchmarkResult::per_iteration_ns() const {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const Sample& sample : samples) {
    const double iterations = static_cast<double>(std::max<std::uint64_t>(sample.iters, 1));
    values.push_back(std::max(0.0, sample.ns - overhead_ns_per_sample) / iterations);
  }
  return values;
}

}  // namespace benchkit
