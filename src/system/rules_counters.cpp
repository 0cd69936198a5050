// Hardware performance counters: perf_event_paranoid and whether a counter opens.
#include "system/rules.hpp"

#include <cerrno>
#include <cstdint>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

Check check_perf_paranoid(const MachineFiles& files) {
  const std::string title = "perf_event_paranoid";
  const auto text = read_trimmed(files, "/proc/sys/kernel/perf_event_paranoid");
  const auto level = text ? parse_integer(*text) : std::nullopt;
  if (!level) {
    return make_check("perf_event_paranoid", title, Status::unknown,
                      "/proc/sys/kernel/perf_event_paranoid not readable",
                      "The kernel was built without perf events, or /proc/sys is hidden.");
  }
  // Up to 2 an unprivileged process may count its own user-space events, which is all that
  // benchkit's instruction mode asks for (Documentation/admin-guide/sysctl/kernel.rst). Debian
  // and Ubuntu add levels 3 and 4 that forbid perf to unprivileged users altogether.
  constexpr std::int64_t kHighestUserCounting = 2;
  if (*level <= kHighestUserCounting) {
    return make_check("perf_event_paranoid", title, Status::ok,
                      *text + " (user-space counting allowed)");
  }
  return make_check("perf_event_paranoid", title, Status::warning,
                    *text + " (unprivileged processes may not count events)",
                    "Hardware counters (--mode instructions, instruction counts in results) "
                    "need it at 2 or below: sudo sysctl kernel.perf_event_paranoid=2");
}

Check check_hardware_counters(const CounterProbe& probe) {
  const std::string title = "Hardware counters";
  if (!probe) return make_check("hardware_counters", title, Status::unknown, "not probed");
  const CounterProbeResult result = probe();
  if (result.opened) return make_check("hardware_counters", title, Status::ok, result.detail);
  std::string advice =
      "Without them, --mode instructions is unavailable and results carry no instruction "
      "counts; timing works as usual. ";
  if (result.error_number == EACCES || result.error_number == EPERM) {
    advice += "Allow user-space counting: sudo sysctl kernel.perf_event_paranoid=2";
  } else if (result.error_number == ENOENT || result.error_number == ENODEV ||
             result.error_number == EOPNOTSUPP) {
    advice +=
        "This CPU or virtual machine exposes no counters; on a virtual machine, enable "
        "the virtual PMU (e.g. QEMU -cpu host,pmu=on).";
  } else if (result.error_number == ENOSYS) {
    advice += "The kernel was built without perf events (CONFIG_PERF_EVENTS).";
  } else {
    advice += "Another tool may hold the counters, or the virtual PMU does not count.";
  }
  return make_check("hardware_counters", title, Status::warning, result.detail, advice);
}

}  // namespace benchkit::system::detail
