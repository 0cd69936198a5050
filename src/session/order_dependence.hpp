// Counts that depend on the order of the benchmarks (benchkit noise --mode instructions,
// docs/instructions.md): the bench binary's counted suite run twice in one valgrind process
// each, in the chosen order and reversed, and compared by analysis/order_dependence.hpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/order_dependence.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

using analysis::compare_orders;
using analysis::OrderMove;
using analysis::OrderReport;

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
