// The files profilers write, read into model::Profile parts (docs/profiling.md): callgrind's
// profile format (also valgrind's xtree files), massif's snapshots, strace's trace cut to the
// measured region, perf script's stacks, and heaptrack_print's summary.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"
#include "model/profile.hpp"

namespace benchkit::formats {

// A call profile in callgrind's format: per function its exclusive and inclusive cost of
// `event` (Ir for instructions), its hottest line, and the call arcs between functions.
struct CallProfile {
  std::vector<model::ProfileFunction> functions;  // by exclusive cost, largest first
  struct Call {
    std::string caller;
    std::string callee;
    double cost = 0.0;  // inclusive cost of the calls along this arc
  };
  std::vector<Call> calls;
  double total = 0.0;  // the sum of exclusive costs
};
model::Result<CallProfile> parse_callgrind_profile(std::string_view text,
                                                   const std::string& event = "Ir");

// Folded stacks drawn from a call graph: callgrind records arcs, not whole stacks, so each
// function's inclusive cost is split among its callees in proportion to the arcs (as gprof2dot
// and kcachegrind's call graph do); a stack stops at recursion, at `max_depth`, and at a cost
// under `min_share` of the total.
std::vector<model::FoldedStack> fold_call_graph(const CallProfile& profile,
                                                std::size_t max_depth = 48,
                                                double min_share = 0.001);

// The allocation site that stands for the benchmark's routine itself: the stack's first frame
// outside the library and the allocator is benchkit's call of the routine, so the allocating
// code was inlined into the routine's lambda and the binary's debug information (none, or
// without inlined frames) cannot tell it apart (docs/profiling.md).
inline constexpr std::string_view kRoutineSite = "(the routine, with what it inlined)";

// massif's peak: the heap at the peak snapshot (useful bytes, without the allocator's extra),
// and the allocation sites behind it, each the innermost frame that is not an allocation
// function, a standard-library internal or benchkit's harness (or kRoutineSite).
struct HeapPeak {
  double bytes = 0.0;
  std::vector<model::AllocationSite> sites;
};
model::Result<HeapPeak> parse_massif_peak(std::string_view text);

// strace -f -T -o FILE: the system calls between the line holding `begin` and the one holding
// `end` (both excluded), counted per name with their errors and -T times.
model::Result<std::vector<model::SystemCallRow>> parse_strace_region(std::string_view text,
                                                                     std::string_view begin,
                                                                     std::string_view end);

// perf script's samples as folded stacks (root first), and the functions they hold: exclusive =
// samples with it innermost, inclusive = samples with it anywhere on the stack.
struct SampledProfile {
  std::vector<model::FoldedStack> stacks;
  std::vector<model::ProfileFunction> functions;
  double total = 0.0;
};
SampledProfile parse_perf_script(std::string_view text);

// heaptrack_print's text: the peak heap, the number of allocation calls, and the peak
// consumers (bytes and function).
struct HeaptrackSummary {
  std::optional<double> peak_bytes;
  std::optional<double> allocation_calls;
  std::vector<model::AllocationSite> peak_sites;
};
HeaptrackSummary parse_heaptrack_print(std::string_view text);

// "12.5K", "3.20M", "1.00G" (heaptrack's sizes and counts) as a number; nothing if not one.
std::optional<double> parse_scaled_number(std::string_view text);

}  // namespace benchkit::formats
