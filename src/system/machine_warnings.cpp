#include "system/machine_warnings.hpp"

#include <cstdlib>
#include <utility>

namespace benchkit::system {

std::vector<MachineWarning> machine_warnings(const std::vector<Check>& checks) {
  struct Source {
    const char* check_id;
    MachineWarningKind kind;
    const char* subject;
  };
  constexpr Source kSources[] = {
      {"frequency_governor", MachineWarningKind::frequency_scaling,
       "CPU frequency scaling is on: governor"},
      {"turbo", MachineWarningKind::turbo, "turbo is"},
      {"load", MachineWarningKind::high_load, "the machine is busy:"},
      {"virtual_machine", MachineWarningKind::virtual_machine, "running in a virtual machine:"},
  };
  std::vector<MachineWarning> warnings;
  for (const Source& source : kSources) {
    const Check* check = find_check(checks, source.check_id);
    if (!check || check->status != Status::warning) continue;
    warnings.push_back(
        {source.kind, std::string(source.subject) + " " + check->value, check->advice});
  }
  return warnings;
}

std::vector<MachineWarning> machine_warnings(const MachineFiles& files) {
  return machine_warnings(run_run_time_checks(files));
}

std::vector<Diagnostic> to_diagnostics(const std::vector<MachineWarning>& warnings) {
  std::vector<Diagnostic> diagnostics;
  for (const MachineWarning& warning : warnings) {
    diagnostics.push_back({"machine_" + std::string(to_string(warning.kind)), "warning",
                           warning.message + ". " + warning.advice});
  }
  return diagnostics;
}

bool machine_warnings_silenced(const char* environment_value) {
  if (environment_value == nullptr) return false;
  const std::string value = environment_value;
  return !(value.empty() || value == "0" || value == "false" || value == "no" || value == "off");
}

bool machine_warnings_silenced_by_environment() {
  return machine_warnings_silenced(std::getenv("BENCHKIT_NO_MACHINE_WARNINGS"));
}

std::vector<Diagnostic> machine_warnings_unless_silenced(const std::vector<Check>& checks) {
  if (machine_warnings_silenced_by_environment()) return {};
  return to_diagnostics(machine_warnings(checks));
}

}  // namespace benchkit::system
