// The rules: each turns what the detectors read (machine_detectors.hpp) or a machine file into
// one Check with its status, value and advice. One file per area, named rules_<area>.cpp;
// run_checks() (checks.cpp) calls them in the documented order. Every rule and threshold is
// documented in docs/system-checks.md.
#pragma once

#include <string>
#include <vector>

#include "system/checks.hpp"
#include "system/counter_probe.hpp"
#include "system/cpu_speed_probe.hpp"
#include "system/machine_detectors.hpp"
#include "system/machine_files.hpp"

namespace benchkit::system::detail {

// ---- rules_cpu.cpp: the CPU and its topology ------------------------------------------------

Check check_cpu_model(const Topology& topology);
Check check_logical_cpus(const Topology& topology);
Check check_physical_cores(const Topology& topology);
Check check_smt(const MachineFiles& files, const Topology& topology);
Check check_cpu_caches(const MachineFiles& files);

// ---- rules_frequency.cpp: the clock speed ---------------------------------------------------

// `folders` are the cpufreq folders (cpufreq_folders()).
Check check_governor(const MachineFiles& files, const std::vector<std::string>& folders);
Check check_driver(const MachineFiles& files, const std::vector<std::string>& folders);
Check check_turbo(const MachineFiles& files, const std::vector<std::string>& folders);
Check check_frequency_range(const MachineFiles& files, const std::vector<std::string>& folders);
Check check_power_supply(const MachineFiles& files);

// ---- rules_isolation.cpp: what competes for the benchmark's CPU -----------------------------

Check check_isolcpus(const CommandLine& line);
// nohz_full= or rcu_nocbs= (`id`), which should cover every isolated CPU; `effect` says what an
// uncovered CPU still does, `covering_parameters` are the parameters whose lists count.
Check check_isolation_companion(const CommandLine& line, const std::string& id,
                                const std::string& title, const std::string& effect,
                                const std::vector<std::string>& covering_parameters);
Check check_load(const MachineFiles& files);
// Calls `probe`; an empty probe leaves the check `unknown`. A warning when one CPU ran the loop
// at least 5% slower than another in every turn but one.
Check check_cpu_speeds(const CpuSpeedProbe& probe);
Check check_cpu_quota(const MachineFiles& files);

// ---- rules_memory.cpp: memory layout, swap, available memory, huge pages --------------------

Check check_aslr(const MachineFiles& files);
Check check_swap(const MachineFiles& files);
Check check_memory(const MachineFiles& files);
Check check_transparent_hugepages(const MachineFiles& files);

// ---- rules_virtualisation.cpp: what the machine runs in -------------------------------------

Check check_virtual_machine(const VirtualMachine& machine);
Check check_container(const Container& container);

// ---- rules_counters.cpp: hardware performance counters --------------------------------------

Check check_perf_paranoid(const MachineFiles& files);
// Calls `probe`; an empty probe leaves the check `unknown`.
Check check_hardware_counters(const CounterProbe& probe);

}  // namespace benchkit::system::detail
