// The rendering of `benchkit system` and of the once-per-run machine warnings, from values (the
// checks themselves are tested in tests/system/).
#include "report/machine_checks.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

using model::CheckStatus;
using model::MachineCheck;
using model::MachineWarning;
using model::MachineWarningKind;

const std::vector<MachineCheck> kTwoChecks = {
    {"load", "Load", CheckStatus::warning, "busy", "Stop the other work now please."},
    {"aslr", "ASLR", CheckStatus::ok, "2", ""}};

TEST(ChecksTable, OneLinePerCheckAndTheAdviceIndentedBelow) {
  EXPECT_EQ(render_checks_table(kTwoChecks),
            "status   check  value\n"
            "warning  Load   busy\n"
            "           Stop the other work now please.\n"
            "ok       ASLR   2\n");
}

TEST(ChecksTable, LongAdviceIsWrappedWithinOneHundredColumns) {
  const std::vector<MachineCheck> checks = {
      {"x", "X", CheckStatus::warning, "v", std::string(60, 'a') + " " + std::string(60, 'b')}};
  const std::string table = render_checks_table(checks);
  std::size_t start = 0;
  int lines = 0;
  while (start < table.size()) {
    const auto end = table.find('\n', start);
    EXPECT_LE(end - start, 100u);
    start = end + 1;
    ++lines;
  }
  EXPECT_EQ(lines, 4);
}

TEST(MachineWarningLines, WarningThenIndentedAdvice) {
  const std::vector<MachineWarning> warnings = {
      {MachineWarningKind::high_load, "the machine is busy: load average 2.00", "Stop it."},
      {MachineWarningKind::turbo, "turbo is on", ""}};
  EXPECT_EQ(format_machine_warnings(warnings),
            "warning: the machine is busy: load average 2.00\n  Stop it.\n"
            "warning: turbo is on\n");
  EXPECT_EQ(format_machine_warnings({}), "");
}

SystemReport two_check_report() {
  return {kTwoChecks,
          {{"cpu_model", "Test CPU"}, {"memory", "16 GiB"}},
          "0123456789abcdef",
          {{"kernel", "6.1.0"}, {"logical_cpus", "8"}},
          "1.2.3"};
}

TEST(SystemReportConsole, TableThenTheFingerprint) {
  EXPECT_EQ(render_system_console(two_check_report()),
            render_checks_table(kTwoChecks) + "\nmachine fingerprint 0123456789abcdef\n");
}

TEST(SystemReportJson, TheVersionedDocumentWithKeysInOrder) {
  EXPECT_EQ(render_system_json(two_check_report()), R"({
  "schema": "benchkit/system",
  "version": 1,
  "tool_version": "1.2.3",
  "checks": [
    {
      "id": "load",
      "title": "Load",
      "status": "warning",
      "value": "busy",
      "advice": "Stop the other work now please."
    },
    {
      "id": "aslr",
      "title": "ASLR",
      "status": "ok",
      "value": "2",
      "advice": ""
    }
  ],
  "facts": {
    "cpu_model": "Test CPU",
    "memory": "16 GiB"
  },
  "fingerprint": {
    "machine": {
      "id": "0123456789abcdef",
      "fields": {
        "kernel": "6.1.0",
        "logical_cpus": "8"
      }
    }
  }
}
)");
}

TEST(SystemReportJson, EmptyFactsAndFieldsAreObjects) {
  const std::string json = render_system_json({});
  EXPECT_NE(json.find("\"facts\": {}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fields\": {}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"checks\": []"), std::string::npos) << json;
}

}  // namespace
}  // namespace benchkit::report
