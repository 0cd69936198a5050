#include "system/checks.hpp"

#include "system/machine_detectors.hpp"
#include "system/rules.hpp"

namespace benchkit::system {

std::vector<Check> run_checks(const MachineFiles& files, const CounterProbe& counter_probe,
                              const CpuSpeedProbe& cpu_speed_probe) {
  const detail::Topology topology = detail::read_topology(files);
  const std::vector<std::string> folders = detail::cpufreq_folders(files);
  const detail::CommandLine line = detail::read_command_line(files);
  std::vector<Check> checks;
  checks.push_back(detail::check_cpu_model(topology));
  checks.push_back(detail::check_logical_cpus(topology));
  checks.push_back(detail::check_physical_cores(topology));
  checks.push_back(detail::check_smt(files, topology));
  checks.push_back(detail::check_cpu_caches(files));
  checks.push_back(detail::check_governor(files, folders));
  checks.push_back(detail::check_driver(files, folders));
  checks.push_back(detail::check_turbo(files, folders));
  checks.push_back(detail::check_frequency_range(files, folders));
  checks.push_back(detail::check_isolcpus(line));
  checks.push_back(detail::check_isolation_companion(line, "nohz_full", "Tickless CPUs (nohz_full)",
                                                     "take the scheduler tick", {"nohz_full"}));
  // nohz_full CPUs are offloaded from RCU callbacks too (rcu_init_nohz in kernel/rcu).
  checks.push_back(detail::check_isolation_companion(line, "rcu_nocbs", "RCU offload (rcu_nocbs)",
                                                     "run RCU callbacks",
                                                     {"rcu_nocbs", "nohz_full"}));
  checks.push_back(detail::check_aslr(files));
  checks.push_back(detail::check_load(files));
  checks.push_back(detail::check_cpu_speeds(cpu_speed_probe));
  checks.push_back(detail::check_virtual_machine(detail::detect_virtual_machine(files, topology)));
  checks.push_back(detail::check_container(detail::detect_container(files)));
  checks.push_back(detail::check_cpu_quota(files));
  checks.push_back(detail::check_perf_paranoid(files));
  checks.push_back(detail::check_hardware_counters(counter_probe));
  checks.push_back(detail::check_swap(files));
  checks.push_back(detail::check_memory(files));
  checks.push_back(detail::check_transparent_hugepages(files));
  checks.push_back(detail::check_power_supply(files));
  return checks;
}

std::vector<Check> run_run_time_checks(const MachineFiles& files) {
  const detail::Topology topology = detail::read_topology(files);
  const std::vector<std::string> folders = detail::cpufreq_folders(files);
  return {detail::check_governor(files, folders), detail::check_turbo(files, folders),
          detail::check_load(files),
          detail::check_virtual_machine(detail::detect_virtual_machine(files, topology))};
}

const Check* find_check(const std::vector<Check>& checks, std::string_view id) {
  for (const Check& check : checks) {
    if (check.id == id) return &check;
  }
  return nullptr;
}

std::map<std::string, std::string> check_summary(const std::vector<Check>& checks) {
  std::map<std::string, std::string> summary;
  for (const Check& check : checks) {
    summary[check.id] = std::string(to_string(check.status)) + ": " + check.value;
  }
  return summary;
}

}  // namespace benchkit::system
