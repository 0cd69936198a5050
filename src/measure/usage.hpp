// CPU time, page faults and context switches of the whole process, behind an interface.
#pragma once

#include <cstdint>
#include <optional>

namespace benchkit::measure {

// Totals since the process started, over all its threads; the difference of two readings is
// what happened in between.
struct UsageTotals {
  double user_ns = 0.0;
  double system_ns = 0.0;
  std::int64_t minor_faults = 0;
  std::int64_t major_faults = 0;
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
};

class ProcessUsage {
 public:
  virtual ~ProcessUsage() = default;
  // The totals now, or nothing when the system cannot say.
  virtual std::optional<UsageTotals> read() = 0;
};

// getrusage(RUSAGE_SELF): every thread of the process, so work handed to worker threads counts
// (RUSAGE_THREAD would see the calling thread only).
ProcessUsage& process_usage();

// getrusage(RUSAGE_THREAD): the calling thread only. Its involuntary context switches are the
// times the system took the thread off its CPU to run something else: a sample during which that
// happened was stretched by another program's time slice. Where the system cannot tell threads
// apart, read() returns nothing.
ProcessUsage& thread_usage();

}  // namespace benchkit::measure
