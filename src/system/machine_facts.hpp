// The facts about this machine that identify it (its fingerprint) and that a result's context
// stores; unlike the checks, they say what the machine is, not what to change.
#pragma once

#include <map>
#include <string>

#include "system/machine_files.hpp"

namespace benchkit::system {

// Stable facts about the machine for the fingerprint and the run context, keyed:
// "cpu_model", "logical_cpus", "physical_cores", "memory" (total, rounded to whole GiB so that
// a few MiB reserved by a new kernel do not count as another machine), "kernel_release",
// "virtualization" ("none", or what runs it: "KVM", "docker", "KVM, docker"), "caches".
// A fact the machine does not report is absent.
std::map<std::string, std::string> machine_facts(const MachineFiles& files);

}  // namespace benchkit::system
