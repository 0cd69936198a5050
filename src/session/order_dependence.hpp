// Counts that depend on the order of the benchmarks (benchkit noise --mode instructions,
// docs/instructions.md): the bench binary's counted suite run twice in one valgrind process
// each, in the chosen order and reversed; a benchmark whose count per iteration differs between
// the two depends on what ran before it in the process (allocator state, caches, statics, lazy
// initialisation done by another benchmark).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

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

// Counts the suite once in one process in `order` ("forward" or "reverse"); the error names
// the order that failed to run.
using CountInOrder = std::function<model::Result<RunResult>(const std::string& order)>;

// The real one: `binary --mode instructions --counted-order ORDER` with `flags`, its result read
// from a file in `folder`.
CountInOrder count_in_order(const std::string& binary, const std::vector<std::string>& flags,
                            const std::string& folder);

// Counts both ways with `count` and compares them.
model::Result<OrderReport> measure_order_dependence(const CountInOrder& count, double threshold);

// Runs `binary` (with `flags`) both ways and compares them. The error names the order that
// failed to run.
model::Result<OrderReport> measure_order_dependence(const std::string& binary,
                                                    const std::vector<std::string>& flags,
                                                    double threshold);

}  // namespace benchkit::session
