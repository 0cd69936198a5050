// The CPU and its topology: model, logical CPUs, physical cores, SMT, caches.
#include "system/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

Check check_cpu_model(const Topology& topology) {
  if (!topology.model) {
    return make_check(
        "cpu_model", "CPU model", Status::unknown,
        topology.cpuinfo_read ? "not named in /proc/cpuinfo" : "/proc/cpuinfo not readable");
  }
  return make_check("cpu_model", "CPU model", Status::ok, *topology.model);
}

Check check_logical_cpus(const Topology& topology) {
  if (!topology.logical) {
    return make_check("logical_cpus", "Logical CPUs", Status::unknown,
                      "neither /sys/devices/system/cpu/online nor /proc/cpuinfo readable");
  }
  return make_check("logical_cpus", "Logical CPUs", Status::ok,
                    std::to_string(*topology.logical) + " (" + topology.logical_source + ")");
}

Check check_physical_cores(const Topology& topology) {
  if (!topology.physical) {
    return make_check("physical_cores", "Physical cores", Status::unknown,
                      "/proc/cpuinfo has no physical id / core id");
  }
  return make_check("physical_cores", "Physical cores", Status::ok,
                    std::to_string(*topology.physical) + " in " +
                        std::to_string(topology.packages) +
                        (topology.packages == 1 ? " package" : " packages"));
}

Check check_smt(const MachineFiles& files, const Topology& topology) {
  const std::string title = "SMT (hyper-threading)";
  const std::string advice =
      "A sibling hardware thread shares the core's execution units and caches with the "
      "benchmark. Keep the siblings of the benchmark's CPU idle (they are listed in "
      "/sys/devices/system/cpu/cpuN/topology/thread_siblings_list), or turn SMT off until "
      "the next boot: echo off | sudo tee /sys/devices/system/cpu/smt/control";
  const auto active = read_trimmed(files, std::string(kCpu) + "/smt/active");
  const auto control = read_trimmed(files, std::string(kCpu) + "/smt/control");
  const std::string control_note = control ? " (control: " + *control + ")" : "";
  if (active == "1") return make_check("smt", title, Status::warning, "on" + control_note, advice);
  if (active == "0") return make_check("smt", title, Status::ok, "off" + control_note);
  // Older kernels have no smt/ folder: compare threads with cores.
  if (topology.logical && topology.physical) {
    if (*topology.logical > *topology.physical) {
      return make_check("smt", title, Status::warning,
                        "on (" + std::to_string(*topology.logical) + " threads on " +
                            std::to_string(*topology.physical) + " cores)",
                        advice);
    }
    return make_check("smt", title, Status::ok, "off (one thread per core)");
  }
  return make_check("smt", title, Status::unknown,
                    "neither /sys/devices/system/cpu/smt nor core ids in /proc/cpuinfo");
}

Check check_cpu_caches(const MachineFiles& files) {
  const std::string sizes = cache_sizes(files);
  if (sizes.empty()) {
    return make_check("cpu_caches", "CPU caches", Status::unknown,
                      "/sys/devices/system/cpu/cpu0/cache not reported");
  }
  return make_check("cpu_caches", "CPU caches", Status::ok, sizes + " (of CPU 0)");
}

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace

Check check_cpu_speeds(const CpuSpeedProbe& probe) {
  const std::string title = "CPU speeds";
  if (!probe) return make_check("cpu_speeds", title, Status::unknown, "not probed");
  const CpuSpeeds speeds = probe();
  if (speeds.cpus.size() < 2) {
    return make_check("cpu_speeds", title, Status::ok, "one CPU: nothing to compare");
  }
  const std::size_t count = speeds.cpus.size();
  const bool complete = !speeds.ns.empty() && std::all_of(speeds.ns.begin(), speeds.ns.end(),
                                                          [&](const std::vector<double>& turn) {
                                                            return turn.size() == count;
                                                          });
  if (!complete) {
    return make_check("cpu_speeds", title, Status::unknown,
                      "this thread could not be moved from CPU to CPU");
  }
  std::vector<double> medians;
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<double> times;
    for (const std::vector<double>& turn : speeds.ns) times.push_back(turn[k]);
    medians.push_back(median_of(times));
  }
  const std::size_t fast =
      static_cast<std::size_t>(std::min_element(medians.begin(), medians.end()) - medians.begin());
  const std::size_t slow =
      static_cast<std::size_t>(std::max_element(medians.begin(), medians.end()) - medians.begin());
  const double apart = medians[slow] / medians[fast] - 1.0;
  std::size_t slower_turns = 0;
  for (const std::vector<double>& turn : speeds.ns) slower_turns += turn[slow] > turn[fast];
  const std::size_t turns = speeds.ns.size();
  std::string value;
  if (count <= 8) {
    for (std::size_t k = 0; k < count; ++k) {
      value +=
          fmt::format("{}CPU {} {:.2f} ms", k == 0 ? "" : ", ", speeds.cpus[k], medians[k] / 1e6);
    }
  } else {
    value = fmt::format("fastest CPU {} {:.2f} ms, slowest CPU {} {:.2f} ms (of {} CPUs)",
                        speeds.cpus[fast], medians[fast] / 1e6, speeds.cpus[slow],
                        medians[slow] / 1e6, count);
  }
  value += fmt::format(" a loop (medians of {} turns): {:.1f}% apart", turns, 100.0 * apart);
  // Two runs of a few milliseconds on one CPU agree within a percent or two on a quiet machine;
  // 5% in the same direction in every turn but one is a difference of the CPUs, not noise.
  constexpr double kApart = 0.05;
  if (turns >= 3 && apart >= kApart && slower_turns + 1 >= turns) {
    return make_check(
        "cpu_speeds", title, Status::warning, value,
        fmt::format(
            "CPU {} ran the same loop {:.0f}% slower than CPU {} in {} of {} turns (on a virtual "
            "machine: another guest busy on the physical core behind it). A process then "
            "measures a different speed depending on where it runs, and a plain run or a saved "
            "baseline keeps that luck. Side-by-side comparisons (compare OLD NEW, --baseline, "
            "ab) run both sides of a round on one CPU; pin a plain run (taskset -c N ./my_bench; "
            "benchkit run --pin N for commands) and compare side by side. The difference comes "
            "and goes: run benchkit system again later.",
            speeds.cpus[slow], 100.0 * apart, speeds.cpus[fast], slower_turns, turns));
  }
  return make_check("cpu_speeds", title, Status::ok, value);
}

}  // namespace benchkit::system::detail
