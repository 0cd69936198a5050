#include "system/machine_facts.hpp"

#include <cmath>
#include <vector>

#include "system/machine_detectors.hpp"
#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system {

std::map<std::string, std::string> machine_facts(const MachineFiles& files) {
  std::map<std::string, std::string> facts;
  const detail::Topology topology = detail::read_topology(files);
  if (topology.model) facts["cpu_model"] = *topology.model;
  if (topology.logical) facts["logical_cpus"] = std::to_string(*topology.logical);
  if (topology.physical) facts["physical_cores"] = std::to_string(*topology.physical);
  if (auto text = files.read("/proc/meminfo")) {
    if (auto total = meminfo_bytes(*text, "MemTotal")) {
      constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
      facts["memory"] =
          std::to_string(static_cast<long long>(std::llround(static_cast<double>(*total) / kGiB))) +
          " GiB";
    }
  }
  if (auto release = detail::read_trimmed(files, "/proc/sys/kernel/osrelease")) {
    facts["kernel_release"] = *release;
  }
  const detail::VirtualMachine machine = detail::detect_virtual_machine(files, topology);
  const detail::Container container = detail::detect_container(files);
  std::vector<std::string> layers;
  if (machine.detected) layers.push_back(machine.name);
  if (!container.name.empty()) layers.push_back(container.name);
  if (!layers.empty()) {
    facts["virtualization"] = detail::join(layers, ", ");
  } else if (machine.known && container.known) {
    facts["virtualization"] = "none";
  }
  if (std::string caches = detail::cache_sizes(files); !caches.empty()) facts["caches"] = caches;
  return facts;
}

}  // namespace benchkit::system
