#include "system/fingerprint.hpp"

#include <gtest/gtest.h>

namespace benchkit::system {
namespace {

Context machine(const std::string& cpu, const std::string& kernel) {
  Context context;
  context.cpu_model = cpu;
  context.logical_cpus = 16;
  context.kernel = kernel;
  context.compiler = "GNU 12.2.0";
  context.build_type = "Release";
  context.library_flags = "-O3 -DNDEBUG";
  return context;
}

const std::map<std::string, std::string> kFacts = {
    {"memory", "31 GiB"}, {"virtualization", "none"}, {"caches", "ignored by the fingerprint"}};

TEST(MachineFingerprint, HoldsTheFiveMachineFields) {
  const Fingerprint fingerprint = machine_fingerprint(machine("i9", "Linux 6.1"), kFacts);
  EXPECT_EQ(fingerprint.fields, (std::map<std::string, std::string>{{"cpu_model", "i9"},
                                                                    {"kernel", "Linux 6.1"},
                                                                    {"logical_cpus", "16"},
                                                                    {"memory", "31 GiB"},
                                                                    {"virtualization", "none"}}));
}

TEST(MachineFingerprint, LeavesOutWhatIsNotKnown) {
  const Fingerprint fingerprint = machine_fingerprint(Context{});
  EXPECT_TRUE(fingerprint.fields.empty());
}

TEST(MachineFingerprint, AGoogleBenchmarkFilesHostTellsTwoMachinesApart) {
  // Google Benchmark writes the host name and CPU count, no CPU model or kernel: two machines of
  // 8 CPUs each (a Windows desktop and a Mac) must not be one.
  Context windows;
  windows.hostname = "LEGION";
  windows.logical_cpus = 8;
  Context mac = windows;
  mac.hostname = "Frank-Rosner-D3P6L20M92";
  EXPECT_EQ(machine_fingerprint(windows).fields,
            (std::map<std::string, std::string>{{"host", "LEGION"}, {"logical_cpus", "8"}}));
  EXPECT_NE(machine_fingerprint(windows).id(), machine_fingerprint(mac).id());
  // benchkit's own context knows the CPU model and kernel: the host name stays out (a fleet of
  // identical runners is one machine).
  Context runner = machine("i9", "Linux 6.1");
  runner.hostname = "runner-1";
  Context other = runner;
  other.hostname = "runner-2";
  EXPECT_EQ(machine_fingerprint(runner).id(), machine_fingerprint(other).id());
}

TEST(BuildFingerprint, HoldsCompilerFlagsAndBuildType) {
  Context context = machine("i9", "Linux 6.1");
  context.assertions = true;
  EXPECT_EQ(build_fingerprint(context).fields,
            (std::map<std::string, std::string>{{"assertions", "yes"},
                                                {"build_type", "Release"},
                                                {"compiler", "GNU 12.2.0"},
                                                {"flags", "-O3 -DNDEBUG"},
                                                {"optimized", "yes"}}));
  EXPECT_TRUE(build_fingerprint(Context{}).fields.empty());
}

TEST(FingerprintId, IsStableAndChangesWithAnyField) {
  const Fingerprint fingerprint = machine_fingerprint(machine("i9", "Linux 6.1"), kFacts);
  const std::string id = fingerprint.id();
  EXPECT_EQ(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(machine_fingerprint(machine("i9", "Linux 6.1"), kFacts).id(), id);
  EXPECT_NE(machine_fingerprint(machine("i9", "Linux 6.2"), kFacts).id(), id);
  // Field boundaries count: moving a character from one value to the next changes the id.
  Fingerprint left;
  left.fields = {{"a", "xy"}, {"b", "z"}};
  Fingerprint right;
  right.fields = {{"a", "x"}, {"b", "yz"}};
  EXPECT_NE(left.id(), right.id());
}

TEST(CompareContexts, SameMachineAndBuildHaveNoDifferences) {
  const auto differences =
      compare_contexts(machine("i9", "Linux 6.1"), machine("i9", "Linux 6.1"), kFacts, kFacts);
  EXPECT_TRUE(differences.empty());
  EXPECT_EQ(describe_differences(differences), "");
}

TEST(CompareContexts, NamesEachDifferingField) {
  Context right = machine("EPYC", "Linux 6.2");
  right.build_type = "Debug";
  auto right_facts = kFacts;
  right_facts["virtualization"] = "KVM";
  const auto differences = compare_contexts(machine("i9", "Linux 6.1"), right, kFacts, right_facts);
  ASSERT_EQ(differences.size(), 4u);
  EXPECT_EQ(differences[0].fingerprint, "machine");
  EXPECT_EQ(differences[0].field, "cpu_model");
  EXPECT_EQ(differences[0].left, "i9");
  EXPECT_EQ(differences[0].right, "EPYC");
  EXPECT_EQ(differences[3].fingerprint, "build");
  EXPECT_EQ(differences[3].field, "build_type");
  EXPECT_EQ(describe_differences(differences),
            "results differ in machine (cpu_model: i9 vs EPYC; kernel: Linux 6.1 vs Linux 6.2; "
            "virtualization: none vs KVM) and build (build_type: Release vs Debug): compare like "
            "with like, or treat the verdict with caution");
}

TEST(CompareContexts, AFieldKnownOnOneSideOnlyIsNotADifference) {
  Context old_file = machine("i9", "");
  const auto differences = compare_contexts(old_file, machine("i9", "Linux 6.1"), {}, kFacts);
  EXPECT_TRUE(differences.empty());
}

}  // namespace
}  // namespace benchkit::system
