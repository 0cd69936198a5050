#include "model/machine_check.hpp"

namespace benchkit::model {

std::string_view to_string(CheckStatus status) {
  switch (status) {
    case CheckStatus::ok:
      return "ok";
    case CheckStatus::warning:
      return "warning";
    case CheckStatus::unknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view to_string(MachineWarningKind kind) {
  switch (kind) {
    case MachineWarningKind::frequency_scaling:
      return "frequency_scaling";
    case MachineWarningKind::turbo:
      return "turbo";
    case MachineWarningKind::high_load:
      return "high_load";
    case MachineWarningKind::virtual_machine:
      return "virtual_machine";
  }
  return "unknown";
}

}  // namespace benchkit::model
