// Rendering the machine checks of `benchkit system` (a table for the terminal, the
// "benchkit/system" JSON document) and the once-per-run machine warnings. The values come from
// system/ (run_checks, machine_warnings, machine_facts, machine_fingerprint); cli/ wires them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/machine_check.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// A table for the terminal: a header line, one line per check (status, title, value), the
// advice indented on the following line(s) for checks that have some, wrapped within 100
// columns.
std::string render_checks_table(const std::vector<model::MachineCheck>& checks);

// The lines to print once per run: "warning: <message>\n  <advice>\n" for each (the advice line
// only when there is advice); empty for no warnings.
std::string format_machine_warnings(const std::vector<model::MachineWarning>& warnings);

// Everything `benchkit system` prints.
struct SystemReport {
  std::vector<model::MachineCheck> checks;
  std::map<std::string, std::string> facts;  // system::machine_facts()
  std::string fingerprint_id;                // the machine fingerprint's 16 hex digits
  std::map<std::string, std::string> fingerprint_fields;
  std::string tool_version;
};

// The console Reporter renders {.machine_checks = &report} as the checks table, a blank line and
// "machine fingerprint <id>"; the json Reporter as the "benchkit/system" document, version 1
// (keys: schema, version, tool_version, checks[] of {id, title, status, value, advice}, facts,
// fingerprint.machine.{id, fields}), indented by two spaces, with a final newline. These two
// are the same, kept for callers not yet moved to Reporter.
std::string render_system_console(const SystemReport& report);
std::string render_system_json(const SystemReport& report);

}  // namespace benchkit::report
