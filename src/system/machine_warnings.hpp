// The once-per-run warnings about the machine (frequency scaling, turbo, high load, virtual
// machine): typed values with advice, derived from the checks, printed once per run and
// silenced with --no-machine-warnings or BENCHKIT_NO_MACHINE_WARNINGS=1.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "system/checks.hpp"
#include "system/machine_files.hpp"

namespace benchkit::system {

// The warnings are model values (model/machine_check.hpp), rendered by report/.
using MachineWarningKind = model::MachineWarningKind;
using MachineWarning = model::MachineWarning;

// One warning per check among frequency_governor, turbo, load and virtual_machine whose status
// is `warning`, in that order. Checks that are `ok` or `unknown` give none.
std::vector<MachineWarning> machine_warnings(const std::vector<Check>& checks);

// Reads the four checks from `files` (RootedMachineFiles("/") for this machine) and returns
// their warnings.
std::vector<MachineWarning> machine_warnings(const MachineFiles& files);

// As Diagnostics with codes "machine_<kind>" and severity "warning", for a result's context.
std::vector<Diagnostic> to_diagnostics(const std::vector<MachineWarning>& warnings);

// Whether BENCHKIT_NO_MACHINE_WARNINGS, given its value (nullptr when unset), silences the
// warnings: any value but "", "0", "false", "no" and "off" does.
bool machine_warnings_silenced(const char* environment_value);

// machine_warnings_silenced(getenv("BENCHKIT_NO_MACHINE_WARNINGS")).
bool machine_warnings_silenced_by_environment();

// The warnings of `checks` as diagnostics for a run's context, none when the environment
// silences them (machine_warnings_silenced_by_environment).
std::vector<Diagnostic> machine_warnings_unless_silenced(const std::vector<Check>& checks);

}  // namespace benchkit::system
