// What competes with the benchmark for its CPU: CPU isolation on the kernel command line
// (isolcpus, nohz_full, rcu_nocbs), the load, and a cgroup CPU quota.
#include "system/rules.hpp"

#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

namespace {

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

}  // namespace

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

}  // namespace benchkit::system::detail
