// One machine check of `benchkit system` and the once-per-run machine warnings, as values:
// system/ produces them from the machine's files, report/ turns them into text, cli/ wires the
// two. Every rule behind them is documented in docs/system-checks.md.
#pragma once

#include <string>
#include <string_view>

namespace benchkit::model {

// ok: nothing to do. warning: this adds noise or bias; the advice says what to do.
// unknown: the machine does not report it (a missing file, as on many virtual machines).
enum class CheckStatus { ok, warning, unknown };

// "ok", "warning", "unknown": the spelling used in output and JSON.
std::string_view to_string(CheckStatus status);

struct MachineCheck {
  std::string id;     // stable identifier, e.g. "frequency_governor"
  std::string title;  // for people, e.g. "Frequency governor"
  CheckStatus status = CheckStatus::unknown;
  std::string value;   // what was read, e.g. "powersave on 16 of 16 CPUs"
  std::string advice;  // what to do and the command that does it; may be empty when ok
};

enum class MachineWarningKind { frequency_scaling, turbo, high_load, virtual_machine };

// "frequency_scaling", "turbo", "high_load", "virtual_machine".
std::string_view to_string(MachineWarningKind kind);

// A warning printed once per run, derived from a check whose status is `warning`.
struct MachineWarning {
  MachineWarningKind kind;
  std::string message;  // what was seen, e.g. "CPU frequency scaling: governor powersave ..."
  std::string advice;   // what to do, with the command where there is one
};

}  // namespace benchkit::model
