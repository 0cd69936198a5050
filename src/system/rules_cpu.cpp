// The CPU and its topology: model, logical CPUs, physical cores, SMT, caches.
#include "system/rules.hpp"

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

}  // namespace benchkit::system::detail
