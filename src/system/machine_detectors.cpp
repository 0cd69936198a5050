#include "system/machine_detectors.hpp"

#include <sstream>
#include <utility>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {
namespace {

// isolcpus= takes optional flags before the CPU list ("isolcpus=nohz,domain,2-3").
std::string isolcpus_list(const std::string& value) {
  std::vector<std::string> kept;
  std::istringstream parts(value);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part == "nohz" || part == "domain" || part == "managed_irq") continue;
    kept.push_back(part);
  }
  return join(kept, ",");
}

struct Hypervisor {
  std::string name;     // empty when not identified
  bool strong = false;  // a marker only a virtual machine has, even without the cpuinfo flag
};

// The virtual machine named by the DMI (SMBIOS) strings. Amazon, Google and OpenStack also
// use their names on bare-metal instances, so those count only with the hypervisor flag.
Hypervisor hypervisor_from_dmi(const std::string& vendor, const std::string& product) {
  const std::string both = lowercase(vendor + " " + product);
  if (contains(both, "kvm")) return {"KVM", true};
  if (contains(both, "qemu")) return {"QEMU", true};
  if (contains(both, "vmware")) return {"VMware", true};
  if (contains(both, "virtualbox") || contains(both, "innotek")) return {"VirtualBox", true};
  if (contains(both, "microsoft corporation") && contains(both, "virtual machine")) {
    return {"Hyper-V", true};
  }
  if (contains(both, "xen")) return {"Xen", true};
  if (contains(both, "bochs")) return {"Bochs", true};
  if (contains(both, "parallels")) return {"Parallels", true};
  if (contains(both, "bhyve")) return {"bhyve", true};
  if (contains(both, "amazon ec2")) return {"Amazon EC2", false};
  if (contains(both, "google compute engine")) return {"Google Compute Engine", false};
  if (contains(both, "openstack")) return {"OpenStack", false};
  return {};
}

}  // namespace

Topology read_topology(const MachineFiles& files) {
  Topology topology;
  std::vector<std::map<std::string, std::string>> processors;
  if (auto text = files.read("/proc/cpuinfo")) {
    topology.cpuinfo_read = true;
    processors = parse_cpuinfo(*text);
  }
  std::set<std::pair<std::string, std::string>> cores;
  std::set<std::string> packages;
  int processor_entries = 0;
  for (const auto& processor : processors) {
    if (processor.count("processor")) ++processor_entries;
    if (!topology.model) {
      // x86 writes "model name"; several ARM kernels write "Model" (the board) instead.
      for (const char* key : {"model name", "Model"}) {
        if (auto it = processor.find(key); it != processor.end() && !it->second.empty()) {
          topology.model = it->second;
          break;
        }
      }
    }
    const auto package = processor.find("physical id");
    const auto core = processor.find("core id");
    if (package != processor.end() && core != processor.end()) {
      cores.emplace(package->second, core->second);
      packages.insert(package->second);
    }
    if (auto flags = processor.find("flags"); flags != processor.end()) {
      std::istringstream words(flags->second);
      std::string word;
      while (words >> word)
        topology.hypervisor_flag = topology.hypervisor_flag || word == "hypervisor";
    }
  }
  if (auto online = read_trimmed(files, std::string(kCpu) + "/online")) {
    if (auto cpus = parse_cpu_list(*online); cpus && !cpus->empty()) {
      topology.logical = static_cast<int>(cpus->size());
      topology.logical_source = "online " + *online;
    }
  }
  if (!topology.logical && processor_entries > 0) {
    topology.logical = processor_entries;
    topology.logical_source = "processors in /proc/cpuinfo";
  }
  if (!cores.empty()) {
    topology.physical = static_cast<int>(cores.size());
    topology.packages = static_cast<int>(packages.size());
  }
  return topology;
}

// "L1d 32K, L1i 32K, L2 256K, L3 16384K" from cpu0's cache folders; empty when not reported.
std::string cache_sizes(const MachineFiles& files) {
  const std::string folder = std::string(kCpu) + "/cpu0/cache";
  std::vector<std::string> caches;
  for (const std::string& index : files.list(folder)) {
    if (index.rfind("index", 0) != 0) continue;
    const std::string base = folder + "/" + index + "/";
    const auto level = read_trimmed(files, base + "level");
    const auto type = read_trimmed(files, base + "type");
    const auto size = read_trimmed(files, base + "size");
    if (!level || !size) continue;
    std::string name = "L" + *level;
    if (type == "Data") name += "d";
    if (type == "Instruction") name += "i";
    caches.push_back(name + " " + *size);
  }
  return join(caches, ", ");
}

// The cpufreq folders, one per policy (a group of CPUs that share a clock); cpu0's own folder
// on kernels without policy folders. Empty when the kernel has no cpufreq driver (the usual
// case in a virtual machine, whose host sets the frequency).
std::vector<std::string> cpufreq_folders(const MachineFiles& files) {
  std::vector<std::string> folders;
  for (const std::string& name : files.list(kCpufreq)) {
    if (name.rfind("policy", 0) == 0) folders.push_back(std::string(kCpufreq) + "/" + name);
  }
  if (folders.empty() && files.exists(std::string(kCpu) + "/cpu0/cpufreq/scaling_governor")) {
    folders.push_back(std::string(kCpu) + "/cpu0/cpufreq");
  }
  return folders;
}

CommandLine read_command_line(const MachineFiles& files) {
  CommandLine line;
  line.text = files.read("/proc/cmdline");
  if (!line.text) return line;
  if (auto isolcpus = kernel_parameter(*line.text, "isolcpus")) {
    line.isolated_text = isolcpus_list(*isolcpus);
    line.isolated = parse_cpu_list(line.isolated_text);
  }
  return line;
}

VirtualMachine detect_virtual_machine(const MachineFiles& files, const Topology& topology) {
  VirtualMachine machine;
  const auto vendor = read_trimmed(files, "/sys/class/dmi/id/sys_vendor");
  const auto product = read_trimmed(files, "/sys/class/dmi/id/product_name");
  const auto hypervisor_type = read_trimmed(files, "/sys/hypervisor/type");
  const auto clocksource =
      read_trimmed(files, "/sys/devices/system/clocksource/clocksource0/current_clocksource");
  machine.known = topology.cpuinfo_read || vendor || product;
  if (topology.hypervisor_flag) machine.evidence.push_back("hypervisor flag in /proc/cpuinfo");
  Hypervisor from_dmi;
  if (vendor || product) {
    from_dmi = hypervisor_from_dmi(vendor.value_or(""), product.value_or(""));
    if (!from_dmi.name.empty()) {
      machine.evidence.push_back("DMI: " + trim(vendor.value_or("") + " " + product.value_or("")));
    }
  }
  std::string from_sysfs;
  if (hypervisor_type && !hypervisor_type->empty()) {
    from_sysfs = *hypervisor_type == "xen" ? "Xen" : *hypervisor_type;
    machine.evidence.push_back("/sys/hypervisor/type: " + *hypervisor_type);
  }
  // Paravirtual clocks exist only inside the matching hypervisor.
  std::string from_clock;
  if (clocksource == "kvm-clock") from_clock = "KVM";
  if (clocksource && clocksource->rfind("hyperv", 0) == 0) from_clock = "Hyper-V";
  if (clocksource == "xen") from_clock = "Xen";
  if (!from_clock.empty()) machine.evidence.push_back("clock source " + *clocksource);
  machine.detected =
      topology.hypervisor_flag || from_dmi.strong || !from_sysfs.empty() || !from_clock.empty();
  if (machine.detected) {
    // The DMI names the product ("QEMU", "Amazon EC2"), the clock the hypervisor under it.
    machine.name = !from_dmi.name.empty() ? from_dmi.name
                   : !from_sysfs.empty()  ? from_sysfs
                   : !from_clock.empty()  ? from_clock
                                          : "an unidentified hypervisor";
    if (!from_dmi.name.empty() && !from_clock.empty() && from_clock != from_dmi.name) {
      machine.name += " (" + from_clock + ")";
    }
    machine.known = true;
  }
  return machine;
}

Container detect_container(const MachineFiles& files) {
  Container container;
  const auto self_cgroup = files.read("/proc/self/cgroup");
  const auto init_cgroup = files.read("/proc/1/cgroup");
  container.known = self_cgroup || init_cgroup;
  auto found = [&](std::string name, std::string evidence) {
    container.known = true;
    container.name = std::move(name);
    container.evidence = std::move(evidence);
    return container;
  };
  // systemd's convention: container managers write their name here (systemd-nspawn, podman,
  // lxc); see systemd's "Container Interface" document.
  if (auto manager = read_trimmed(files, "/run/systemd/container"); manager && !manager->empty()) {
    return found(*manager, "/run/systemd/container");
  }
  if (files.exists("/.dockerenv")) return found("docker", "/.dockerenv");
  if (files.exists("/run/.containerenv")) return found("podman", "/run/.containerenv");
  const std::string cgroups = self_cgroup.value_or("") + "\n" + init_cgroup.value_or("");
  if (contains(cgroups, "kubepods")) return found("kubernetes", "kubepods in /proc/*/cgroup");
  if (contains(cgroups, "/docker") || contains(cgroups, "docker-")) {
    return found("docker", "docker in /proc/*/cgroup");
  }
  if (contains(cgroups, "libpod")) return found("podman", "libpod in /proc/*/cgroup");
  if (contains(cgroups, "/lxc")) return found("lxc", "lxc in /proc/*/cgroup");
  if (contains(cgroups, "containerd")) return found("containerd", "containerd in /proc/*/cgroup");
  // cgroup v2 only, and this process sits at the root of the hierarchy: a cgroup namespace.
  // On a host that runs systemd, every process is in a slice below the root.
  if (self_cgroup && trim(*self_cgroup) == "0::/") {
    return found("an unidentified container", "cgroup namespace (/proc/self/cgroup is 0::/)");
  }
  return container;
}

}  // namespace benchkit::system::detail
