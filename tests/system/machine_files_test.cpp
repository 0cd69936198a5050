#include "system/machine_files.hpp"

#include <gtest/gtest.h>

namespace benchkit::system {
namespace {

const std::string kIntel = std::string(BENCHKIT_TEST_FIXTURES) + "/system/bare-metal-intel";

TEST(RootedMachineFiles, ReadsAbsolutePathsUnderItsRoot) {
  const RootedMachineFiles files(kIntel + "/");
  EXPECT_EQ(files.read("/proc/loadavg"), "0.08 0.12 0.10 1/612 48213\n");
  EXPECT_TRUE(files.exists("/sys/class/power_supply/AC"));
  EXPECT_TRUE(files.exists("/proc/cpuinfo"));
}

TEST(RootedMachineFiles, MissingPathsAndFoldersReadAsNothing) {
  const RootedMachineFiles files(kIntel);
  EXPECT_FALSE(files.read("/proc/does-not-exist"));
  EXPECT_FALSE(files.read("/proc"));  // a folder is not a file
  EXPECT_FALSE(files.exists("/.dockerenv"));
  EXPECT_TRUE(files.list("/no/such/folder").empty());
}

TEST(RootedMachineFiles, ListsFolderEntriesSorted) {
  const RootedMachineFiles files(kIntel);
  const auto entries = files.list("/sys/devices/system/cpu/cpu0/cache");
  EXPECT_EQ(entries, (std::vector<std::string>{"index0", "index1", "index2", "index3"}));
  const auto policies = files.list("/sys/devices/system/cpu/cpufreq");
  ASSERT_EQ(policies.size(), 16u);
  EXPECT_EQ(policies.front(), "policy0");
}

TEST(RootedMachineFiles, TheRealMachineHasAProcFolder) {
  const RootedMachineFiles files;
  EXPECT_TRUE(files.exists("/proc/self"));
  EXPECT_TRUE(files.read("/proc/self/status").has_value());
}

}  // namespace
}  // namespace benchkit::system
