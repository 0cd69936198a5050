#include <sys/resource.h>

#include "measure/usage.hpp"

namespace benchkit::measure {
namespace {

double to_ns(const timeval& time) {
  return static_cast<double>(time.tv_sec) * 1e9 + static_cast<double>(time.tv_usec) * 1e3;
}

std::optional<UsageTotals> read_usage(int who) {
  rusage usage{};
  if (getrusage(who, &usage) != 0) return std::nullopt;
  UsageTotals totals;
  totals.user_ns = to_ns(usage.ru_utime);
  totals.system_ns = to_ns(usage.ru_stime);
  totals.minor_faults = usage.ru_minflt;
  totals.major_faults = usage.ru_majflt;
  totals.voluntary_switches = usage.ru_nvcsw;
  totals.involuntary_switches = usage.ru_nivcsw;
  return totals;
}

class PosixProcessUsage final : public ProcessUsage {
 public:
  std::optional<UsageTotals> read() override { return read_usage(RUSAGE_SELF); }
};

class PosixThreadUsage final : public ProcessUsage {
 public:
  std::optional<UsageTotals> read() override {
#ifdef RUSAGE_THREAD
    return read_usage(RUSAGE_THREAD);
#else
    return std::nullopt;
#endif
  }
};

}  // namespace

ProcessUsage& process_usage() {
  static PosixProcessUsage instance;
  return instance;
}

ProcessUsage& thread_usage() {
  static PosixThreadUsage instance;
  return instance;
}

}  // namespace benchkit::measure
