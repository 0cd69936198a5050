// `benchkit system`: what on this machine adds noise to a measurement, each check with its
// status, the value read and the advice (with the command that fixes it where one exists).
// Every rule and threshold is documented in docs/system-checks.md.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/machine_check.hpp"
#include "system/counter_probe.hpp"
#include "system/cpu_speed_probe.hpp"
#include "system/machine_facts.hpp"
#include "system/machine_files.hpp"

namespace benchkit::system {

// The checks are model values (model/machine_check.hpp): system/ produces them, report/ renders
// them without knowing how they were read.
using Status = model::CheckStatus;
using Check = model::MachineCheck;
using model::to_string;  // "ok", "warning", "unknown"

// Runs every check against `files`, in a fixed order (see docs/system-checks.md). The hardware
// counter check calls `counter_probe` and the CPU speed check `cpu_speed_probe`; an empty probe
// leaves its check `unknown`. Reads only; never throws on a missing or malformed file.
std::vector<Check> run_checks(const MachineFiles& files, const CounterProbe& counter_probe = {},
                              const CpuSpeedProbe& cpu_speed_probe = {});

// Only the checks behind the once-per-run machine warnings (frequency_governor, turbo, load,
// virtual_machine): cheap enough to run before every benchmark run.
std::vector<Check> run_run_time_checks(const MachineFiles& files);

// The check with this id, or nullptr.
const Check* find_check(const std::vector<Check>& checks, std::string_view id);

// Check id -> "status: value", for storing the checks in a result's context.
std::map<std::string, std::string> check_summary(const std::vector<Check>& checks);

}  // namespace benchkit::system
