// `benchkit run --mode instructions -- CMD` (docs/instructions.md): a whole command counted
// under valgrind's callgrind, its children too (--trace-children=yes), from its first
// instruction to its exit, in fresh runs with address randomisation off and the fixed
// environment of counted runs (session/counted.hpp).
#pragma once

#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "clock/callgrind.hpp"
#include "model/error.hpp"

namespace benchkit::session {

struct CountedCommandRequest {
  std::vector<std::string> argv;  // argv[0] searched in PATH when it has no '/'
  std::string name;               // "" = the command line
  std::size_t runs = 3;
  std::vector<std::string> keep_env;  // passed besides the fixed variables
};

// The command's result: kind "command", metric "instructions", one sample per run holding the
// instructions of every process it started (counters: the cache hits, estimated cycles, system
// calls and `processes`), with the counted diagnostics. A run that fails (exit status not 0)
// makes the result failed, with valgrind's log tail.
model::Result<BenchmarkResult> count_command(const CountedCommandRequest& request);

// The totals of every callgrind dump in `folder` whose name starts with `prefix` (one per
// process of a run), and how many there were.
struct CountedTotals : clock::CountedMetrics {
  std::size_t processes = 0;
};
CountedTotals sum_callgrind_dumps(const std::string& folder, const std::string& prefix);

}  // namespace benchkit::session
