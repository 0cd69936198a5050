#include "model/machine_check.hpp"

#include <gtest/gtest.h>

namespace benchkit::model {
namespace {

TEST(MachineCheck, StatusNames) {
  EXPECT_EQ(to_string(CheckStatus::ok), "ok");
  EXPECT_EQ(to_string(CheckStatus::warning), "warning");
  EXPECT_EQ(to_string(CheckStatus::unknown), "unknown");
}

TEST(MachineCheck, StatusIsUnknownUntilARuleSetsIt) {
  EXPECT_EQ(MachineCheck{}.status, CheckStatus::unknown);
}

TEST(MachineWarning, KindNames) {
  EXPECT_EQ(to_string(MachineWarningKind::frequency_scaling), "frequency_scaling");
  EXPECT_EQ(to_string(MachineWarningKind::turbo), "turbo");
  EXPECT_EQ(to_string(MachineWarningKind::high_load), "high_load");
  EXPECT_EQ(to_string(MachineWarningKind::virtual_machine), "virtual_machine");
}

}  // namespace
}  // namespace benchkit::model
