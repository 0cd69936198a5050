#include <algorithm>

#include "benchkit/result.hpp"

namespace benchkit {

std::vector<double> BenchmarkResult::per_iteration_ns() const {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const Sample& sample : samples) {
    const double iterations = static_cast<double>(std::max<std::uint64_t>(sample.iters, 1));
    const double corrected = sample.ns - overhead_ns_per_sample - overhead_ns_per_iter * iterations;
    values.push_back(std::max(0.0, corrected) / iterations);
  }
  return values;
}

}  // namespace benchkit
