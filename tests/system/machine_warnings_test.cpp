#include "system/machine_warnings.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>  // setenv, unsetenv

#include <cstdlib>

namespace benchkit::system {
namespace {

using ::testing::HasSubstr;

std::vector<MachineWarningKind> kinds_of(const std::string& machine) {
  const RootedMachineFiles files(std::string(BENCHKIT_TEST_FIXTURES) + "/system/" + machine);
  std::vector<MachineWarningKind> kinds;
  for (const MachineWarning& warning : machine_warnings(files)) kinds.push_back(warning.kind);
  return kinds;
}

TEST(MachineWarnings, ComeFromTheFourRunTimeChecksOfEachFixture) {
  EXPECT_EQ(kinds_of("bare-metal-intel"),
            (std::vector{MachineWarningKind::frequency_scaling, MachineWarningKind::turbo}));
  // No cpufreq in the virtual machine: the governor and turbo are unknown, so no warning.
  EXPECT_EQ(kinds_of("amd-vm"),
            (std::vector{MachineWarningKind::high_load, MachineWarningKind::virtual_machine}));
  EXPECT_EQ(kinds_of("container"), (std::vector{MachineWarningKind::turbo}));
}

TEST(MachineWarnings, CarryTheCheckValueAndAdvice) {
  const RootedMachineFiles files(std::string(BENCHKIT_TEST_FIXTURES) + "/system/bare-metal-intel");
  const auto warnings = machine_warnings(files);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].message,
            "CPU frequency scaling is on: governor powersave (16 cpufreq policies)");
  EXPECT_THAT(warnings[0].advice, HasSubstr("sudo cpupower frequency-set --governor performance"));
  EXPECT_EQ(warnings[1].message, "turbo is on (intel_pstate/no_turbo = 0)");
}

TEST(MachineWarnings, OkAndUnknownChecksGiveNone) {
  const std::vector<Check> checks = {{"frequency_governor", "", Status::ok, "performance", ""},
                                     {"turbo", "", Status::unknown, "?", ""},
                                     {"load", "", Status::warning, "load average 2.00", "Stop it."},
                                     {"smt", "", Status::warning, "on", "not a run-time warning"}};
  const auto warnings = machine_warnings(checks);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].kind, MachineWarningKind::high_load);
  const auto diagnostics = to_diagnostics(warnings);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].code, "machine_high_load");
  EXPECT_EQ(diagnostics[0].severity, "warning");
  EXPECT_EQ(diagnostics[0].message, "the machine is busy: load average 2.00. Stop it.");
}

TEST(MachineWarnings, KindNames) {
  EXPECT_EQ(to_string(MachineWarningKind::frequency_scaling), "frequency_scaling");
  EXPECT_EQ(to_string(MachineWarningKind::turbo), "turbo");
  EXPECT_EQ(to_string(MachineWarningKind::high_load), "high_load");
  EXPECT_EQ(to_string(MachineWarningKind::virtual_machine), "virtual_machine");
}

TEST(MachineWarningsSilenced, ByAnyValueButTheFalseOnes) {
  EXPECT_FALSE(machine_warnings_silenced(nullptr));
  for (const char* off : {"", "0", "false", "no", "off"}) {
    EXPECT_FALSE(machine_warnings_silenced(off)) << off;
  }
  for (const char* on : {"1", "yes", "true"}) EXPECT_TRUE(machine_warnings_silenced(on)) << on;
}

TEST(MachineWarningsSilenced, TheEnvironmentLeavesARunWithoutThem) {
  const char* const before = std::getenv("BENCHKIT_NO_MACHINE_WARNINGS");
  const std::string kept = before ? before : "";
  const std::vector<Check> checks = {
      {"load", "", Status::warning, "load average 2.00", "Stop it."}};
  ::unsetenv("BENCHKIT_NO_MACHINE_WARNINGS");
  const auto shown = machine_warnings_unless_silenced(checks);
  ::setenv("BENCHKIT_NO_MACHINE_WARNINGS", "1", 1);
  const auto silenced = machine_warnings_unless_silenced(checks);
  if (before) {
    ::setenv("BENCHKIT_NO_MACHINE_WARNINGS", kept.c_str(), 1);
  } else {
    ::unsetenv("BENCHKIT_NO_MACHINE_WARNINGS");
  }
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].code, "machine_high_load");
  EXPECT_TRUE(silenced.empty());
}

}  // namespace
}  // namespace benchkit::system
