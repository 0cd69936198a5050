// The detectors: what the machine's files say about its CPUs, its cpufreq policies, its kernel
// command line and what it runs in (a virtual machine, a container). The rules (rules.hpp) and
// machine_facts() both read the machine through them. Reads only; never throws on a missing or
// malformed file.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "system/machine_files.hpp"

namespace benchkit::system::detail {

// ---- CPU and topology -------------------------------------------------------------------

struct Topology {
  bool cpuinfo_read = false;
  std::optional<std::string> model;
  std::optional<int> logical;
  std::string logical_source;
  std::optional<int> physical;
  int packages = 0;
  bool hypervisor_flag = false;
};

// From /proc/cpuinfo and /sys/devices/system/cpu/online.
Topology read_topology(const MachineFiles& files);

// "L1d 32K, L1i 32K, L2 256K, L3 16384K" from cpu0's cache folders; empty when not reported.
std::string cache_sizes(const MachineFiles& files);

// ---- Frequency --------------------------------------------------------------------------

// The cpufreq folders, one per policy (a group of CPUs that share a clock); cpu0's own folder
// on kernels without policy folders. Empty when the kernel has no cpufreq driver (the usual
// case in a virtual machine, whose host sets the frequency).
std::vector<std::string> cpufreq_folders(const MachineFiles& files);

// ---- Kernel command line ------------------------------------------------------------------

struct CommandLine {
  std::optional<std::string> text;
  std::optional<std::set<int>> isolated;  // nullopt when isolcpus= is absent or unparsable
  std::string isolated_text;
};

// /proc/cmdline and its isolcpus= list (without the flags that may precede the CPUs).
CommandLine read_command_line(const MachineFiles& files);

// ---- Virtualisation -----------------------------------------------------------------------

struct VirtualMachine {
  bool known = false;  // enough was readable to say
  bool detected = false;
  std::string name;
  std::vector<std::string> evidence;
};

// From the cpuinfo hypervisor flag, the DMI strings, /sys/hypervisor and the clock source.
VirtualMachine detect_virtual_machine(const MachineFiles& files, const Topology& topology);

struct Container {
  bool known = false;
  std::string name;  // empty when none found
  std::string evidence;
};

// From systemd's /run/systemd/container, the engines' marker files and /proc/*/cgroup.
Container detect_container(const MachineFiles& files);

}  // namespace benchkit::system::detail
