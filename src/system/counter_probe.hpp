// Whether hardware performance counters actually open on this machine: a permission setting
// (perf_event_paranoid) says what is allowed, only opening one says what works (virtual
// machines often expose no PMU at all).
#pragma once

#include <functional>
#include <string>

namespace benchkit::system {

struct CounterProbeResult {
  bool opened = false;   // an instructions counter opened, ran and counted
  int error_number = 0;  // errno of perf_event_open when it failed; 0 otherwise
  std::string detail;    // what happened, e.g. "perf_event_open: Permission denied"
};

// Injectable so that the checks can be tested without this machine's PMU.
using CounterProbe = std::function<CounterProbeResult()>;

// Opens a user-space instructions counter for this thread with perf_event_open, counts a short
// loop, and closes it. Never throws.
CounterProbeResult probe_hardware_counters();

}  // namespace benchkit::system
