#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "clock/perf_counters.hpp"

namespace benchkit::clock {
namespace {

long perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd, unsigned long flags) {
  return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

std::string paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  if (in >> value) return value;
  return "unknown";
}

class LinuxCounterGroup final : public CounterGroup {
 public:
  LinuxCounterGroup() {
    constexpr std::array<std::uint64_t, 4> configs = {
        PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
        PERF_COUNT_HW_BRANCH_MISSES};
    for (std::size_t i = 0; i < configs.size(); ++i) {
      perf_event_attr attr;
      std::memset(&attr, 0, sizeof(attr));
      attr.size = sizeof(attr);
      attr.type = PERF_TYPE_HARDWARE;
      attr.config = configs[i];
      attr.disabled = i == 0 ? 1 : 0;
      attr.exclude_kernel = 1;
      attr.exclude_hv = 1;
      attr.read_format =
          PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
      const long fd = perf_event_open(&attr, 0, -1, i == 0 ? -1 : fds_[0], 0);
      if (fd < 0) {
        const int error = errno;
        reason_ = std::string("hardware counters unavailable: perf_event_open(") + names()[i] +
                  ") failed: " + std::strerror(error);
        if (error == EACCES || error == EPERM) {
          reason_ += " (kernel.perf_event_paranoid is " + paranoid_level() +
                     "; `sudo sysctl kernel.perf_event_paranoid=1` allows user-space counting)";
        } else if (error == ENOENT || error == EOPNOTSUPP || error == ENODEV) {
          reason_ +=
              " (this CPU or virtual machine exposes no hardware counters; time is "
              "measured as usual)";
        }
        close_all();
        return;
      }
      fds_[i] = static_cast<int>(fd);
    }
    ioctl(fds_[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    ioctl(fds_[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    // A group the kernel never schedules reads zero forever; treat that as unavailable.
    CounterValues probe = read();
    if (probe.values[0] <= 0.0) {
      reason_ =
          "hardware counters unavailable: the counter group opened but never ran "
          "(the PMU is taken by another tool or not virtualised)";
      close_all();
    }
  }
  ~LinuxCounterGroup() override { close_all(); }

  bool available() const override { return fds_[0] >= 0; }
  const std::string& unavailable_reason() const override { return reason_; }

  CounterValues read() override {
    CounterValues result;
    if (fds_[0] < 0) return result;
    struct {
      std::uint64_t count;
      std::uint64_t time_enabled;
      std::uint64_t time_running;
      std::uint64_t values[4];
    } buffer{};
    if (::read(fds_[0], &buffer, sizeof(buffer)) <
        static_cast<ssize_t>(3 * sizeof(std::uint64_t))) {
      return result;
    }
    // Multiplexed counters ran only part of the time: scale up to the whole interval.
    const double scale = buffer.time_running > 0 ? static_cast<double>(buffer.time_enabled) /
                                                       static_cast<double>(buffer.time_running)
                                                 : 0.0;
    for (std::size_t i = 0; i < 4 && i < buffer.count; ++i) {
      result.values[i] = static_cast<double>(buffer.values[i]) * scale;
    }
    return result;
  }

 private:
  void close_all() {
    for (int& fd : fds_) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
  }
  std::array<int, 4> fds_{-1, -1, -1, -1};
  std::string reason_;
};

}  // namespace

std::unique_ptr<CounterGroup> open_hardware_counters() {
  return std::make_unique<LinuxCounterGroup>();
}

}  // namespace benchkit::clock
