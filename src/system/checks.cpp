#include "system/checks.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "system/machine_parse.hpp"

namespace benchkit::system {
namespace {

constexpr const char* kCpu = "/sys/devices/system/cpu";
constexpr const char* kCpufreq = "/sys/devices/system/cpu/cpufreq";

Check make_check(std::string id, std::string title, Status status, std::string value,
                 std::string advice = {}) {
  return Check{std::move(id), std::move(title), status, std::move(value), std::move(advice)};
}

std::optional<std::string> read_trimmed(const MachineFiles& files, const std::string& path) {
  auto text = files.read(path);
  if (!text) return std::nullopt;
  return trim(*text);
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

std::string format_cpu_set(const std::set<int>& cpus) {
  std::vector<std::string> ranges;
  for (auto it = cpus.begin(); it != cpus.end();) {
    const int first = *it;
    int last = first;
    for (++it; it != cpus.end() && *it == last + 1; ++it) last = *it;
    ranges.push_back(first == last ? std::to_string(first)
                                   : std::to_string(first) + "-" + std::to_string(last));
  }
  return join(ranges, ",");
}

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

Check check_cpu_caches(const MachineFiles& files) {
  const std::string sizes = cache_sizes(files);
  if (sizes.empty()) {
    return make_check("cpu_caches", "CPU caches", Status::unknown,
                      "/sys/devices/system/cpu/cpu0/cache not reported");
  }
  return make_check("cpu_caches", "CPU caches", Status::ok, sizes + " (of CPU 0)");
}

// ---- Frequency --------------------------------------------------------------------------

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

constexpr const char* kNoCpufreq =
    "No cpufreq interface: the hypervisor or the firmware sets the frequency, and nothing can "
    "be changed from here. On a cloud machine, an instance type with dedicated cores is the "
    "steadiest choice.";

Check check_governor(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency governor";
  std::map<std::string, int> governors;
  for (const std::string& folder : folders) {
    if (auto governor = read_trimmed(files, folder + "/scaling_governor")) ++governors[*governor];
  }
  if (governors.empty()) {
    return make_check("frequency_governor", title, Status::unknown, "no cpufreq governor reported",
                      kNoCpufreq);
  }
  std::vector<std::string> parts;
  int total = 0;
  for (const auto& [name, count] : governors) total += count;
  for (const auto& [name, count] : governors) {
    parts.push_back(governors.size() == 1
                        ? name
                        : name + " on " + std::to_string(count) + " of " + std::to_string(total));
  }
  const std::string value = join(parts, ", ") + " (" + std::to_string(total) +
                            (total == 1 ? " cpufreq policy)" : " cpufreq policies)");
  if (governors.size() == 1 && governors.count("performance")) {
    return make_check("frequency_governor", title, Status::ok, value);
  }
  // Any governor but performance moves the clock with the load, so the first samples of a
  // benchmark run slower than the rest and short benchmarks never reach full speed.
  return make_check(
      "frequency_governor", title, Status::warning, value,
      "The clock speed follows the load, so timings depend on what ran just before. Set the "
      "performance governor: sudo cpupower frequency-set --governor performance (or: echo "
      "performance | sudo tee /sys/devices/system/cpu/cpufreq/policy*/scaling_governor)");
}

Check check_driver(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency driver";
  std::optional<std::string> driver;
  if (!folders.empty()) driver = read_trimmed(files, folders.front() + "/scaling_driver");
  if (!driver) {
    return make_check("frequency_driver", title, Status::unknown, "no cpufreq driver reported");
  }
  std::string value = *driver;
  if (auto status = read_trimmed(files, std::string(kCpu) + "/intel_pstate/status")) {
    value += " (intel_pstate mode: " + *status + ")";
  }
  return make_check("frequency_driver", title, Status::ok, value);
}

Check check_turbo(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Turbo / boost";
  // Turbo lets the clock exceed its base speed while power and temperature allow, so the
  // speed of a benchmark depends on how hot the chip is and on how many cores are busy.
  const std::string why =
      "Turbo raises the clock while power and temperature allow, so timings drift as the chip "
      "heats and change with the number of busy cores. ";
  // intel_pstate has its own switch; no_turbo = 1 means turbo is off.
  if (auto no_turbo = read_trimmed(files, std::string(kCpu) + "/intel_pstate/no_turbo")) {
    if (*no_turbo == "1") {
      return make_check("turbo", title, Status::ok, "off (intel_pstate/no_turbo = 1)");
    }
    if (*no_turbo == "0") {
      return make_check("turbo", title, Status::warning, "on (intel_pstate/no_turbo = 0)",
                        why +
                            "Turn it off: echo 1 | sudo tee "
                            "/sys/devices/system/cpu/intel_pstate/no_turbo");
    }
  }
  // acpi-cpufreq and amd-pstate: one global boost switch, or one per policy on newer kernels.
  std::vector<std::string> boost_files = {std::string(kCpufreq) + "/boost"};
  for (const std::string& folder : folders) boost_files.push_back(folder + "/boost");
  for (const std::string& path : boost_files) {
    const auto boost = read_trimmed(files, path);
    if (!boost) continue;
    const std::string where = path.substr(std::string(kCpu).size() + 1);
    if (*boost == "0") return make_check("turbo", title, Status::ok, "off (" + where + " = 0)");
    if (*boost == "1") {
      return make_check("turbo", title, Status::warning, "on (" + where + " = 1)",
                        why + "Turn it off: echo 0 | sudo tee /sys/devices/system/cpu/" + where);
    }
  }
  return make_check("turbo", title, Status::unknown,
                    "neither intel_pstate/no_turbo nor cpufreq boost reported",
                    folders.empty() ? "Without cpufreq, the host or the firmware decides."
                                    : "This driver exposes no turbo switch; the firmware setup "
                                      "(BIOS) may have one.");
}

Check check_frequency_range(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency range";
  if (folders.empty()) {
    return make_check("frequency_range", title, Status::unknown, "no cpufreq limits reported");
  }
  const std::string& folder = folders.front();
  auto khz = [&](const char* name) -> std::optional<std::int64_t> {
    auto text = read_trimmed(files, folder + "/" + name);
    return text ? parse_integer(*text) : std::nullopt;
  };
  const auto low = khz("scaling_min_freq");
  const auto high = khz("scaling_max_freq");
  if (!low || !high) {
    return make_check("frequency_range", title, Status::unknown,
                      "scaling_min_freq / scaling_max_freq not reported");
  }
  std::string value = format_khz(*low) + " to " + format_khz(*high);
  const auto hardware_low = khz("cpuinfo_min_freq");
  const auto hardware_high = khz("cpuinfo_max_freq");
  if (hardware_low && hardware_high) {
    value += " (hardware " + format_khz(*hardware_low) + " to " + format_khz(*hardware_high) + ")";
  }
  value += ", " + folder.substr(folder.rfind('/') + 1);
  // Informational: the governor and turbo checks say whether the clock will move within it.
  return make_check("frequency_range", title, Status::ok, value);
}

// ---- Kernel command line ------------------------------------------------------------------

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

struct CommandLine {
  std::optional<std::string> text;
  std::optional<std::set<int>> isolated;  // nullopt when isolcpus= is absent or unparsable
  std::string isolated_text;
};

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

Check check_isolcpus(const CommandLine& line) {
  const std::string title = "Isolated CPUs (isolcpus)";
  if (!line.text) {
    return make_check("isolcpus", title, Status::unknown, "/proc/cmdline not readable");
  }
  if (line.isolated_text.empty()) {
    // Without isolation, the scheduler may put any other task on the benchmark's CPU.
    return make_check(
        "isolcpus", title, Status::warning, "none",
        "Any other task may be scheduled on the benchmark's CPU. For the steadiest timings, "
        "reserve CPUs at boot: add isolcpus=LIST (e.g. isolcpus=2,3, with nohz_full= and "
        "rcu_nocbs= of the same list) to GRUB_CMDLINE_LINUX in /etc/default/grub, run sudo "
        "update-grub, reboot, and run benchmarks with taskset -c LIST.");
  }
  return make_check("isolcpus", title, Status::ok, line.isolated_text,
                    "Run benchmarks on them: taskset -c " + line.isolated_text + " COMMAND");
}

// nohz_full= and rcu_nocbs= only matter for CPUs that are also isolated: an isolated CPU still
// takes the scheduler tick (nohz_full) and runs RCU callbacks (rcu_nocbs) unless told not to.
Check check_isolation_companion(const CommandLine& line, const std::string& id,
                                const std::string& title, const std::string& effect,
                                const std::vector<std::string>& covering_parameters) {
  if (!line.text) return make_check(id, title, Status::unknown, "/proc/cmdline not readable");
  std::set<int> covered;
  std::vector<std::string> given;
  bool parsed = true;
  for (const std::string& parameter : covering_parameters) {
    const auto value = kernel_parameter(*line.text, parameter);
    if (!value) continue;
    given.push_back(parameter + "=" + *value);
    const auto cpus = parse_cpu_list(*value);
    if (!cpus) {
      parsed = false;
      continue;
    }
    covered.insert(cpus->begin(), cpus->end());
  }
  const std::string value = given.empty() ? "not set" : join(given, " ");
  if (!line.isolated || line.isolated->empty()) {
    return make_check(id, title, Status::ok, value);
  }
  if (!parsed) {
    return make_check(id, title, Status::unknown,
                      value + " (a CPU list benchkit cannot compare with isolcpus)");
  }
  std::set<int> missing;
  for (int cpu : *line.isolated) {
    if (!covered.count(cpu)) missing.insert(cpu);
  }
  if (missing.empty()) return make_check(id, title, Status::ok, value);
  const std::string list = format_cpu_set(*line.isolated);
  return make_check(id, title, Status::warning,
                    value + "; isolated CPUs " + format_cpu_set(missing) + " not covered",
                    "The isolated CPUs still " + effect + ". Add " + id + "=" + list +
                        " to the kernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, "
                        "then sudo update-grub and reboot).");
}

// ---- Kernel settings ----------------------------------------------------------------------

Check check_aslr(const MachineFiles& files) {
  const std::string title = "ASLR";
  const auto text = read_trimmed(files, "/proc/sys/kernel/randomize_va_space");
  const auto level = text ? parse_integer(*text) : std::nullopt;
  if (!level) {
    return make_check("aslr", title, Status::unknown,
                      "/proc/sys/kernel/randomize_va_space not readable");
  }
  // Randomised layouts differ from process to process; benchkit runs several processes, so
  // its results average over layouts instead of reporting the luck of one (Mytkowicz et al.,
  // "Producing wrong data without doing anything obviously wrong", ASPLOS 2009).
  if (*level == 2) return make_check("aslr", title, Status::ok, "2 (full randomisation)");
  if (*level == 1) {
    return make_check("aslr", title, Status::ok, "1 (stack, mmap and vDSO; not the heap)");
  }
  if (*level == 0) {
    return make_check(
        "aslr", title, Status::warning, "0 (off for every process)",
        "Every process gets the same memory layout, so results carry one layout's luck, and "
        "the machine is less safe. Turn it back on: sudo sysctl kernel.randomize_va_space=2; to "
        "fix the layout of one process while investigating, run it under setarch -R instead.");
  }
  return make_check("aslr", title, Status::unknown, *text + " (not a documented value)");
}

Check check_load(const MachineFiles& files) {
  const std::string title = "Load";
  const auto text = files.read("/proc/loadavg");
  const auto load = text ? parse_loadavg(*text) : std::nullopt;
  if (!load) return make_check("load", title, Status::unknown, "/proc/loadavg not readable");
  char value[160];
  std::snprintf(value, sizeof(value),
                "load average %.2f %.2f %.2f (1, 5, 15 min); %d of %d tasks runnable now",
                load->one_minute, load->five_minutes, load->fifteen_minutes, load->runnable,
                load->total);
  // A 1-minute load of 1 means one task was ready to run at every moment on average: a whole
  // CPU's worth of other work competing for the benchmark's CPU, caches, memory bandwidth and
  // turbo budget. Below it, the machine is idle enough.
  constexpr double kHighLoad = 1.0;
  if (load->one_minute >= kHighLoad) {
    return make_check(
        "load", title, Status::warning, value,
        "Other work is running and competes with the benchmark. Stop it (top shows what runs), "
        "or wait until the 1-minute load falls below 1 (uptime); a benchmark that just ran "
        "counts too, for about a minute.");
  }
  return make_check("load", title, Status::ok, value);
}

// ---- Virtualisation -----------------------------------------------------------------------

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

struct VirtualMachine {
  bool known = false;  // enough was readable to say
  bool detected = false;
  std::string name;
  std::vector<std::string> evidence;
};

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

Check check_virtual_machine(const VirtualMachine& machine) {
  const std::string title = "Virtual machine";
  if (!machine.known) {
    return make_check("virtual_machine", title, Status::unknown,
                      "neither /proc/cpuinfo nor DMI readable");
  }
  if (!machine.detected) return make_check("virtual_machine", title, Status::ok, "none");
  // The hypervisor shares the physical cores with other guests and can deschedule this one
  // (steal time), and often hides the frequency controls and the hardware counters.
  return make_check(
      "virtual_machine", title, Status::warning,
      machine.name + " (" + join(machine.evidence, "; ") + ")",
      "The host shares the physical CPU with other guests and may pause this one (see the "
      "'st' column of vmstat 1), so timings vary more than on bare metal. For decisions, "
      "measure on bare metal or on an instance with dedicated cores, and compare only runs "
      "from the same instance type.");
}

struct Container {
  bool known = false;
  std::string name;  // empty when none found
  std::string evidence;
};

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

Check check_container(const Container& container) {
  const std::string title = "Container";
  if (!container.known) {
    return make_check("container", title, Status::unknown, "/proc/self/cgroup not readable");
  }
  if (container.name.empty()) return make_check("container", title, Status::ok, "none");
  // A container runs on the host's kernel at full speed; what it adds is a CPU quota (its own
  // check) and neighbours (the load check sees them: /proc/loadavg is not namespaced).
  return make_check("container", title, Status::ok,
                    container.name + " (" + container.evidence + ")");
}

// ---- cgroup CPU quota ----------------------------------------------------------------------

// The cgroup path of this process for cgroup v2 ("0::/path") or for the v1 cpu controller.
std::optional<std::string> cgroup_path(const std::string& text, bool version2) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (version2 && line.rfind("0::", 0) == 0) return path;
    if (!version2) {
      std::istringstream names(controllers);
      std::string name;
      while (std::getline(names, name, ',')) {
        if (name == "cpu") return path;
      }
    }
  }
  return std::nullopt;
}

// "/a/b" -> {"/a/b", "/a", ""}: the folder suffixes from the process's cgroup up to the root.
std::vector<std::string> cgroup_ancestors(std::string path) {
  while (!path.empty() && path.back() == '/') path.pop_back();
  std::vector<std::string> chain;
  while (true) {
    chain.push_back(path);
    if (path.empty()) break;
    path = path.substr(0, path.rfind('/'));
  }
  return chain;
}

Check check_cpu_quota(const MachineFiles& files) {
  const std::string title = "cgroup CPU quota";
  const auto text = files.read("/proc/self/cgroup");
  if (!text)
    return make_check("cpu_quota", title, Status::unknown, "/proc/self/cgroup not readable");
  std::optional<double> smallest;
  std::string where;
  auto consider = [&](double quota, double period, const std::string& description) {
    if (quota <= 0 || period <= 0) return;
    const double cpus = quota / period;
    if (!smallest || cpus < *smallest) {
      smallest = cpus;
      where = description;
    }
  };
  const bool unified = files.exists("/sys/fs/cgroup/cgroup.controllers");
  if (const auto path = cgroup_path(*text, true); unified && path) {
    for (const std::string& folder : cgroup_ancestors(*path)) {
      const std::string file = "/sys/fs/cgroup" + folder + "/cpu.max";
      const auto limit = read_trimmed(files, file);
      if (!limit) continue;
      std::istringstream fields(*limit);
      std::string quota;
      double period = 0;
      if (!(fields >> quota >> period) || quota == "max") continue;
      if (const auto amount = parse_integer(quota)) {
        consider(static_cast<double>(*amount), period, file + " = " + *limit);
      }
    }
  } else if (const auto v1_path = cgroup_path(*text, false)) {
    for (const char* mount : {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"}) {
      for (const std::string& folder : cgroup_ancestors(*v1_path)) {
        const std::string base = std::string(mount) + folder;
        const auto quota = read_trimmed(files, base + "/cpu.cfs_quota_us");
        const auto period = read_trimmed(files, base + "/cpu.cfs_period_us");
        const auto quota_value = quota ? parse_integer(*quota) : std::nullopt;
        const auto period_value = period ? parse_integer(*period) : std::nullopt;
        if (!quota_value || !period_value) continue;
        consider(static_cast<double>(*quota_value), static_cast<double>(*period_value),
                 base + "/cpu.cfs_quota_us = " + *quota);
      }
    }
  } else {
    return make_check("cpu_quota", title, Status::unknown,
                      "no cgroup v2 or v1 cpu controller in /proc/self/cgroup");
  }
  if (!smallest) return make_check("cpu_quota", title, Status::ok, "no CPU quota");
  char value[64];
  std::snprintf(value, sizeof(value), "%.2f CPUs", *smallest);
  // A cgroup over its quota is stopped until the next period (100 ms by default), which shows
  // as rare, very long samples.
  return make_check(
      "cpu_quota", title, Status::warning, std::string(value) + " (" + where + ")",
      "Once the cgroup uses its quota it is paused until the next period (100 ms by "
      "default), which shows as rare, very long samples. Run without a CPU limit (docker run "
      "without --cpus; in Kubernetes, no CPU limit) or raise cpu.max.");
}

// ---- perf -------------------------------------------------------------------------------

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

// ---- Memory --------------------------------------------------------------------------------

Check check_swap(const MachineFiles& files) {
  const std::string title = "Swap";
  const auto text = files.read("/proc/meminfo");
  const auto total = text ? meminfo_bytes(*text, "SwapTotal") : std::nullopt;
  const auto free = text ? meminfo_bytes(*text, "SwapFree") : std::nullopt;
  if (!total || !free)
    return make_check("swap", title, Status::unknown, "/proc/meminfo not readable");
  if (*total == 0) return make_check("swap", title, Status::ok, "off");
  const std::uint64_t used = *total > *free ? *total - *free : 0;
  const std::string value = format_bytes(*total) + ", " + format_bytes(used) + " in use";
  // A few pages swapped out long ago are harmless; more than 1% of the memory in swap means
  // the machine ran short recently, and a benchmark that touches those pages waits for disk.
  constexpr double kSwappedShare = 0.01;
  const auto memory = meminfo_bytes(*text, "MemTotal");
  const double limit = memory ? kSwappedShare * static_cast<double>(*memory) : 0.0;
  if (static_cast<double>(used) > limit) {
    return make_check("swap", title, Status::warning, value,
                      "The machine ran short of memory recently; pages swapped out come back "
                      "as slow major page faults. Free memory, then bring the pages back: sudo "
                      "swapoff -a && sudo swapon -a");
  }
  return make_check("swap", title, Status::ok, value);
}

Check check_memory(const MachineFiles& files) {
  const std::string title = "Memory";
  const auto text = files.read("/proc/meminfo");
  const auto total = text ? meminfo_bytes(*text, "MemTotal") : std::nullopt;
  const auto available = text ? meminfo_bytes(*text, "MemAvailable") : std::nullopt;
  if (!total || !available || *total == 0) {
    return make_check("memory", title, Status::unknown,
                      "MemTotal / MemAvailable not in /proc/meminfo");
  }
  const std::string value = format_bytes(*available) + " available of " + format_bytes(*total);
  // With less than a tenth of the memory available, the page cache is being reclaimed: file
  // reads and new allocations of a benchmark meet reclaim and page faults.
  constexpr double kLowAvailableShare = 0.10;
  if (static_cast<double>(*available) < kLowAvailableShare * static_cast<double>(*total)) {
    return make_check("memory", title, Status::warning, value,
                      "Little memory is available, so the kernel is reclaiming caches while "
                      "benchmarks run. Close what uses memory (ps aux --sort=-rss | head).");
  }
  return make_check("memory", title, Status::ok, value);
}

Check check_transparent_hugepages(const MachineFiles& files) {
  const std::string title = "Transparent huge pages";
  const auto text = files.read("/sys/kernel/mm/transparent_hugepage/enabled");
  const auto mode = text ? bracketed_choice(*text) : std::nullopt;
  if (!mode) {
    return make_check("transparent_hugepages", title, Status::unknown,
                      "/sys/kernel/mm/transparent_hugepage/enabled not readable");
  }
  // With "always", whether a buffer gets huge pages depends on memory fragmentation and on the
  // khugepaged thread, so one benchmark can run in two speeds from process to process.
  if (*mode == "always") {
    return make_check(
        "transparent_hugepages", title, Status::warning, "always",
        "Whether a buffer gets huge pages depends on fragmentation and on khugepaged, so memory-"
        "bound benchmarks can switch between two speeds. Let programs ask for them instead: "
        "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled");
  }
  return make_check("transparent_hugepages", title, Status::ok, *mode);
}

Check check_power_supply(const MachineFiles& files) {
  const std::string title = "Power supply";
  const std::string folder = "/sys/class/power_supply";
  bool mains_online = false;
  bool mains_offline = false;
  bool discharging = false;
  std::vector<std::string> seen;
  for (const std::string& name : files.list(folder)) {
    const std::string base = folder + "/" + name + "/";
    const auto type = read_trimmed(files, base + "type");
    if (!type) continue;
    if (*type == "Mains" || *type == "USB") {
      const auto online = read_trimmed(files, base + "online");
      if (online == "1") mains_online = true;
      if (online == "0") mains_offline = true;
      seen.push_back(name + ": " + *type + (online ? " online=" + *online : ""));
    } else if (*type == "Battery") {
      const auto status = read_trimmed(files, base + "status");
      if (status == "Discharging") discharging = true;
      seen.push_back(name + ": Battery" + (status ? " " + *status : ""));
    }
  }
  if (seen.empty()) {
    return make_check("power_supply", title, Status::unknown,
                      "not reported (no mains adapter or battery in /sys/class/power_supply)");
  }
  const std::string value = join(seen, "; ");
  if (discharging || (mains_offline && !mains_online)) {
    // On battery, power profiles and firmware cap the power, so clocks are lower and vary.
    return make_check("power_supply", title, Status::warning, "on battery (" + value + ")",
                      "On battery the firmware and the power profile limit the clock speed. Plug "
                      "in the charger and choose the performance profile: powerprofilesctl set "
                      "performance");
  }
  return make_check("power_supply", title, Status::ok,
                    (mains_online ? "mains (" : "not discharging (") + value + ")");
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word;
  std::string line;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string_view to_string(Status status) {
  switch (status) {
    case Status::ok:
      return "ok";
    case Status::warning:
      return "warning";
    case Status::unknown:
      return "unknown";
  }
  return "unknown";
}

std::vector<Check> run_checks(const MachineFiles& files, const CounterProbe& counter_probe) {
  const Topology topology = read_topology(files);
  const std::vector<std::string> folders = cpufreq_folders(files);
  const CommandLine line = read_command_line(files);
  std::vector<Check> checks;
  checks.push_back(check_cpu_model(topology));
  checks.push_back(check_logical_cpus(topology));
  checks.push_back(check_physical_cores(topology));
  checks.push_back(check_smt(files, topology));
  checks.push_back(check_cpu_caches(files));
  checks.push_back(check_governor(files, folders));
  checks.push_back(check_driver(files, folders));
  checks.push_back(check_turbo(files, folders));
  checks.push_back(check_frequency_range(files, folders));
  checks.push_back(check_isolcpus(line));
  checks.push_back(check_isolation_companion(line, "nohz_full", "Tickless CPUs (nohz_full)",
                                             "take the scheduler tick", {"nohz_full"}));
  // nohz_full CPUs are offloaded from RCU callbacks too (rcu_init_nohz in kernel/rcu).
  checks.push_back(check_isolation_companion(line, "rcu_nocbs", "RCU offload (rcu_nocbs)",
                                             "run RCU callbacks", {"rcu_nocbs", "nohz_full"}));
  checks.push_back(check_aslr(files));
  checks.push_back(check_load(files));
  checks.push_back(check_virtual_machine(detect_virtual_machine(files, topology)));
  checks.push_back(check_container(detect_container(files)));
  checks.push_back(check_cpu_quota(files));
  checks.push_back(check_perf_paranoid(files));
  checks.push_back(check_hardware_counters(counter_probe));
  checks.push_back(check_swap(files));
  checks.push_back(check_memory(files));
  checks.push_back(check_transparent_hugepages(files));
  checks.push_back(check_power_supply(files));
  return checks;
}

std::vector<Check> run_run_time_checks(const MachineFiles& files) {
  const Topology topology = read_topology(files);
  const std::vector<std::string> folders = cpufreq_folders(files);
  return {check_governor(files, folders), check_turbo(files, folders), check_load(files),
          check_virtual_machine(detect_virtual_machine(files, topology))};
}

const Check* find_check(const std::vector<Check>& checks, std::string_view id) {
  for (const Check& check : checks) {
    if (check.id == id) return &check;
  }
  return nullptr;
}

std::map<std::string, std::string> machine_facts(const MachineFiles& files) {
  std::map<std::string, std::string> facts;
  const Topology topology = read_topology(files);
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
  if (auto release = read_trimmed(files, "/proc/sys/kernel/osrelease")) {
    facts["kernel_release"] = *release;
  }
  const VirtualMachine machine = detect_virtual_machine(files, topology);
  const Container container = detect_container(files);
  std::vector<std::string> layers;
  if (machine.detected) layers.push_back(machine.name);
  if (!container.name.empty()) layers.push_back(container.name);
  if (!layers.empty()) {
    facts["virtualization"] = join(layers, ", ");
  } else if (machine.known && container.known) {
    facts["virtualization"] = "none";
  }
  if (std::string caches = cache_sizes(files); !caches.empty()) facts["caches"] = caches;
  return facts;
}

std::map<std::string, std::string> check_summary(const std::vector<Check>& checks) {
  std::map<std::string, std::string> summary;
  for (const Check& check : checks) {
    summary[check.id] = std::string(to_string(check.status)) + ": " + check.value;
  }
  return summary;
}

std::string render_checks_table(const std::vector<Check>& checks) {
  std::size_t title_width = 5;
  for (const Check& check : checks) title_width = std::max(title_width, check.title.size());
  constexpr std::size_t kStatusWidth = 9;  // "warning" and two spaces
  // Advice is wrapped to 100 columns, the width benchkit's other tables keep to.
  constexpr std::size_t kLineWidth = 100;
  const std::string indent(kStatusWidth, ' ');
  auto pad = [](std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
  };
  std::string table = pad("status", kStatusWidth) + pad("check", title_width + 2) + "value\n";
  for (const Check& check : checks) {
    table += pad(std::string(to_string(check.status)), kStatusWidth) +
             pad(check.title, title_width + 2) + check.value + "\n";
    for (const std::string& line : wrap_words(check.advice, kLineWidth - kStatusWidth - 2)) {
      table += indent + "  " + line + "\n";
    }
  }
  return table;
}

}  // namespace benchkit::system
