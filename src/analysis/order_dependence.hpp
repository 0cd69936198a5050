// Counts that depend on the order of the benchmarks (benchkit noise --mode instructions,
// docs/instructions.md): two counted runs of one suite, in the chosen order and reversed,
// compared benchmark by benchmark. A benchmark whose count per iteration differs between the
// two depends on what ran before it in the process (allocator state, caches, statics, lazy
// initialisation done by another benchmark). session/order_dependence.hpp measures the runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::analysis {

struct OrderMove {
  std::string name;
  double forward = 0.0;  // instructions per iteration, in the chosen order
  double reverse = 0.0;  // ... in the reversed order
  double change = 0.0;   // reverse / forward - 1
  bool moved = false;    // |change| over the threshold
};

struct OrderReport {
  std::vector<OrderMove> benchmarks;  // in the chosen order
  double threshold = 0.0;
  std::vector<std::string> missing;  // counted in one order only (failed in the other)
  std::size_t moved() const;
};

// The two runs compared (benchmarks with a metric; failed ones are `missing`).
OrderReport compare_orders(const RunResult& forward, const RunResult& reverse, double threshold);

}  // namespace benchkit::analysis
