// The ids of the 24 machine checks, in order: the documented contract (docs/system-checks.md)
// that both the unit tests and the command's integration test hold the code to.
#pragma once

#include <string>
#include <vector>

namespace benchkit::system {

inline const std::vector<std::string> kDocumentedCheckIds = {
    "cpu_model",
    "logical_cpus",
    "physical_cores",
    "smt",
    "cpu_caches",
    "frequency_governor",
    "frequency_driver",
    "turbo",
    "frequency_range",
    "isolcpus",
    "nohz_full",
    "rcu_nocbs",
    "aslr",
    "load",
    "cpu_speeds",
    "virtual_machine",
    "container",
    "cpu_quota",
    "perf_event_paranoid",
    "hardware_counters",
    "swap",
    "memory",
    "transparent_hugepages",
    "power_supply",
};

}  // namespace benchkit::system
