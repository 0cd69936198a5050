#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "system/counter_probe.hpp"

namespace benchkit::system {

CounterProbeResult probe_hardware_counters() {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.disabled = 1;
  // User space only: what benchkit's instruction mode counts, and what perf_event_paranoid=2
  // still allows an unprivileged process.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  CounterProbeResult result;
  const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd < 0) {
    result.error_number = errno;
    result.detail =
        std::string("perf_event_open(instructions) failed: ") + std::strerror(result.error_number);
    return result;
  }
  ioctl(static_cast<int>(fd), PERF_EVENT_IOC_RESET, 0);
  ioctl(static_cast<int>(fd), PERF_EVENT_IOC_ENABLE, 0);
  volatile std::uint64_t sink = 0;
  for (int i = 0; i < 10000; ++i) sink = sink + static_cast<std::uint64_t>(i);
  ioctl(static_cast<int>(fd), PERF_EVENT_IOC_DISABLE, 0);
  std::uint64_t count = 0;
  const ssize_t bytes = ::read(static_cast<int>(fd), &count, sizeof(count));
  close(static_cast<int>(fd));
  // A counter the kernel never schedules (the PMU taken by another tool, or a virtual PMU that
  // does not count) opens fine but reads zero.
  if (bytes != static_cast<ssize_t>(sizeof(count)) || count == 0) {
    result.detail = "the instructions counter opened but counted nothing";
    return result;
  }
  result.opened = true;
  result.detail = "instructions counter opened and counted";
  return result;
}

}  // namespace benchkit::system
