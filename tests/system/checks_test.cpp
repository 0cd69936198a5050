// Every check against three hand-written machines (tests/fixtures/system/) and, for the
// boundaries and the rarer markers, against an in-memory machine.
#include "system/checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "system/check_ids.hpp"

#include <sched.h>

#include <cerrno>
#include <set>

#include "system/fake_machine_files.hpp"

namespace benchkit::system {
namespace {

using testing::FakeMachineFiles;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string fixture(const std::string& machine) {
  return std::string(BENCHKIT_TEST_FIXTURES) + "/system/" + machine;
}

CounterProbe probe_that(bool opened, int error_number, std::string detail) {
  return [=] { return CounterProbeResult{opened, error_number, detail}; };
}

const std::vector<std::string>& kAllIds = kDocumentedCheckIds;

// The check with `id`; fails the test (and returns an empty check) when it is missing.
Check get(const std::vector<Check>& checks, const std::string& id) {
  const Check* check = find_check(checks, id);
  EXPECT_NE(check, nullptr) << id;
  return check ? *check : Check{};
}

void expect(const std::vector<Check>& checks, const std::string& id, Status status,
            const std::string& value) {
  const Check check = get(checks, id);
  EXPECT_EQ(check.status, status) << id << ": " << check.value;
  EXPECT_EQ(check.value, value) << id;
}

class BareMetalIntel : public ::testing::Test {
 protected:
  RootedMachineFiles files{fixture("bare-metal-intel")};
  std::vector<Check> checks =
      run_checks(files, probe_that(true, 0, "instructions counter opened and counted"));
};

TEST_F(BareMetalIntel, RunsEveryCheckOnceInTheDocumentedOrder) {
  std::vector<std::string> ids;
  for (const Check& check : checks) ids.push_back(check.id);
  EXPECT_EQ(ids, kAllIds);
}

TEST_F(BareMetalIntel, Cpu) {
  expect(checks, "cpu_model", Status::ok, "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz");
  expect(checks, "logical_cpus", Status::ok, "16 (online 0-15)");
  expect(checks, "physical_cores", Status::ok, "8 in 1 package");
  expect(checks, "smt", Status::warning, "on (control: on)");
  EXPECT_THAT(get(checks, "smt").advice,
              HasSubstr("echo off | sudo tee /sys/devices/system/cpu/smt/control"));
  expect(checks, "cpu_caches", Status::ok, "L1d 32K, L1i 32K, L2 256K, L3 16384K (of CPU 0)");
}

TEST_F(BareMetalIntel, FrequencyIsScaledAndTurboIsOn) {
  expect(checks, "frequency_governor", Status::warning, "powersave (16 cpufreq policies)");
  EXPECT_THAT(get(checks, "frequency_governor").advice,
              HasSubstr("sudo cpupower frequency-set --governor performance"));
  expect(checks, "frequency_driver", Status::ok, "intel_pstate (intel_pstate mode: active)");
  EXPECT_THAT(get(checks, "frequency_driver").advice, IsEmpty());
  expect(checks, "turbo", Status::warning, "on (intel_pstate/no_turbo = 0)");
  EXPECT_THAT(get(checks, "turbo").advice,
              HasSubstr("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"));
  expect(checks, "frequency_range", Status::ok,
         "800 MHz to 5000 MHz (hardware 800 MHz to 5000 MHz), policy0");
}

TEST_F(BareMetalIntel, NoIsolation) {
  expect(checks, "isolcpus", Status::warning, "none");
  EXPECT_THAT(get(checks, "isolcpus").advice, HasSubstr("isolcpus=LIST"));
  EXPECT_THAT(get(checks, "isolcpus").advice, HasSubstr("sudo update-grub"));
  expect(checks, "nohz_full", Status::ok, "not set");
  expect(checks, "rcu_nocbs", Status::ok, "not set");
}

TEST_F(BareMetalIntel, KernelSettingsLoadAndVirtualisation) {
  expect(checks, "aslr", Status::ok, "2 (full randomisation)");
  expect(checks, "load", Status::ok,
         "load average 0.08 0.12 0.10 (1, 5, 15 min); 1 of 612 tasks runnable now");
  EXPECT_THAT(get(checks, "load").advice, IsEmpty());
  expect(checks, "virtual_machine", Status::ok, "none");
  expect(checks, "container", Status::ok, "none");
  expect(checks, "cpu_quota", Status::ok, "no CPU quota");
  expect(checks, "perf_event_paranoid", Status::ok, "2 (user-space counting allowed)");
  expect(checks, "hardware_counters", Status::ok, "instructions counter opened and counted");
}

TEST_F(BareMetalIntel, MemoryAndPower) {
  expect(checks, "swap", Status::ok, "2.0 GiB, 0 KiB in use");
  expect(checks, "memory", Status::ok, "28.5 GiB available of 31.3 GiB");
  expect(checks, "transparent_hugepages", Status::ok, "madvise");
  expect(checks, "power_supply", Status::ok, "mains (AC: Mains online=1)");
}

TEST_F(BareMetalIntel, Facts) {
  const auto facts = machine_facts(files);
  EXPECT_EQ(facts.at("cpu_model"), "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz");
  EXPECT_EQ(facts.at("logical_cpus"), "16");
  EXPECT_EQ(facts.at("physical_cores"), "8");
  EXPECT_EQ(facts.at("memory"), "31 GiB");
  EXPECT_EQ(facts.at("kernel_release"), "6.1.0-13-amd64");
  EXPECT_EQ(facts.at("virtualization"), "none");
  EXPECT_EQ(facts.at("caches"), "L1d 32K, L1i 32K, L2 256K, L3 16384K");
}

class AmdVirtualMachine : public ::testing::Test {
 protected:
  RootedMachineFiles files{fixture("amd-vm")};
  std::vector<Check> checks = run_checks(
      files, probe_that(false, ENOENT, "perf_event_open(instructions) failed: No such file"));
};

TEST_F(AmdVirtualMachine, Cpu) {
  expect(checks, "cpu_model", Status::ok, "AMD EPYC 7763 64-Core Processor");
  expect(checks, "logical_cpus", Status::ok, "4 (online 0-3)");
  expect(checks, "physical_cores", Status::ok, "2 in 1 package");
  expect(checks, "smt", Status::warning, "on (control: on)");
}

TEST_F(AmdVirtualMachine, WithoutCpufreqTheFrequencyChecksAreUnknown) {
  expect(checks, "frequency_governor", Status::unknown, "no cpufreq governor reported");
  EXPECT_THAT(get(checks, "frequency_governor").advice, HasSubstr("No cpufreq interface"));
  expect(checks, "frequency_driver", Status::unknown, "no cpufreq driver reported");
  expect(checks, "turbo", Status::unknown,
         "neither intel_pstate/no_turbo nor cpufreq boost reported");
  EXPECT_THAT(get(checks, "turbo").advice, HasSubstr("the host or the firmware decides"));
  expect(checks, "frequency_range", Status::unknown, "no cpufreq limits reported");
}

TEST_F(AmdVirtualMachine, IsolatedCpusWithoutTheirTick) {
  expect(checks, "isolcpus", Status::ok, "2-3");
  EXPECT_THAT(get(checks, "isolcpus").advice, HasSubstr("taskset -c 2-3"));
  // The fixture's nohz_full=2-3 comes after "--": an argument of init, not of the kernel.
  expect(checks, "nohz_full", Status::warning, "not set; isolated CPUs 2-3 not covered");
  EXPECT_THAT(get(checks, "nohz_full").advice, HasSubstr("Add nohz_full=2-3"));
  expect(checks, "rcu_nocbs", Status::ok, "rcu_nocbs=2-3");
}

TEST_F(AmdVirtualMachine, BusyVirtualMachineWithoutCounters) {
  expect(checks, "load", Status::warning,
         "load average 3.52 2.10 1.05 (1, 5, 15 min); 5 of 230 tasks runnable now");
  EXPECT_THAT(get(checks, "load").advice, HasSubstr("uptime"));
  const Check machine = get(checks, "virtual_machine");
  EXPECT_EQ(machine.status, Status::warning);
  EXPECT_EQ(machine.value,
            "QEMU (KVM) (hypervisor flag in /proc/cpuinfo; DMI: QEMU Standard PC (Q35 + ICH9, "
            "2009); clock source kvm-clock)");
  EXPECT_THAT(machine.advice, HasSubstr("bare metal"));
  expect(checks, "container", Status::ok, "none");
  expect(checks, "perf_event_paranoid", Status::warning,
         "3 (unprivileged processes may not count events)");
  EXPECT_THAT(get(checks, "perf_event_paranoid").advice,
              HasSubstr("sudo sysctl kernel.perf_event_paranoid=2"));
  const Check counters = get(checks, "hardware_counters");
  EXPECT_EQ(counters.status, Status::warning);
  EXPECT_THAT(counters.advice, HasSubstr("enable the virtual PMU"));
}

TEST_F(AmdVirtualMachine, MemoryAndPower) {
  expect(checks, "swap", Status::ok, "off");
  expect(checks, "memory", Status::warning, "1.0 GiB available of 15.6 GiB");
  EXPECT_THAT(get(checks, "memory").advice, HasSubstr("ps aux --sort=-rss"));
  expect(checks, "transparent_hugepages", Status::warning, "always");
  EXPECT_THAT(get(checks, "transparent_hugepages").advice,
              HasSubstr("echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled"));
  expect(checks, "power_supply", Status::unknown,
         "not reported (no mains adapter or battery in /sys/class/power_supply)");
}

TEST_F(AmdVirtualMachine, Facts) {
  const auto facts = machine_facts(files);
  EXPECT_EQ(facts.at("virtualization"), "QEMU (KVM)");
  EXPECT_EQ(facts.at("memory"), "16 GiB");
  EXPECT_EQ(facts.at("physical_cores"), "2");
}

class DockerContainer : public ::testing::Test {
 protected:
  RootedMachineFiles files{fixture("container")};
  std::vector<Check> checks = run_checks(
      files, probe_that(false, EACCES, "perf_event_open(instructions) failed: Permission denied"));
};

TEST_F(DockerContainer, CpuAndFrequency) {
  expect(checks, "physical_cores", Status::ok, "4 in 1 package");
  expect(checks, "smt", Status::ok, "off (control: notsupported)");
  expect(checks, "frequency_governor", Status::ok, "performance (4 cpufreq policies)");
  EXPECT_THAT(get(checks, "frequency_governor").advice, IsEmpty());
  expect(checks, "frequency_driver", Status::ok, "acpi-cpufreq");
  expect(checks, "turbo", Status::warning, "on (cpufreq/boost = 1)");
  EXPECT_THAT(get(checks, "turbo").advice,
              HasSubstr("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"));
}

TEST_F(DockerContainer, ContainerAndItsQuota) {
  expect(checks, "virtual_machine", Status::ok, "none");
  expect(checks, "container", Status::ok, "docker (/.dockerenv)");
  expect(checks, "cpu_quota", Status::warning,
         "2.00 CPUs (/sys/fs/cgroup/cpu.max = 200000 100000)");
  EXPECT_THAT(get(checks, "cpu_quota").advice, HasSubstr("--cpus"));
}

TEST_F(DockerContainer, KernelSettings) {
  expect(checks, "aslr", Status::warning, "0 (off for every process)");
  EXPECT_THAT(get(checks, "aslr").advice, HasSubstr("sudo sysctl kernel.randomize_va_space=2"));
  EXPECT_THAT(get(checks, "aslr").advice, HasSubstr("setarch -R"));
  expect(checks, "perf_event_paranoid", Status::warning,
         "4 (unprivileged processes may not count events)");
  const Check counters = get(checks, "hardware_counters");
  EXPECT_EQ(counters.status, Status::warning);
  EXPECT_EQ(counters.value, "perf_event_open(instructions) failed: Permission denied");
  EXPECT_THAT(counters.advice, HasSubstr("sudo sysctl kernel.perf_event_paranoid=2"));
  expect(checks, "load", Status::ok,
         "load average 0.42 0.37 0.30 (1, 5, 15 min); 2 of 318 tasks runnable now");
}

TEST_F(DockerContainer, MemoryAndPower) {
  expect(checks, "swap", Status::warning, "2.0 GiB, 512.0 MiB in use");
  EXPECT_THAT(get(checks, "swap").advice, HasSubstr("sudo swapoff -a && sudo swapon -a"));
  expect(checks, "memory", Status::ok, "3.3 GiB available of 7.7 GiB");
  expect(checks, "transparent_hugepages", Status::ok, "never");
  expect(checks, "power_supply", Status::unknown,
         "not reported (no mains adapter or battery in /sys/class/power_supply)");
}

TEST_F(DockerContainer, Facts) {
  const auto facts = machine_facts(files);
  EXPECT_EQ(facts.at("virtualization"), "docker");
  EXPECT_EQ(facts.at("memory"), "8 GiB");
}

// ---- An empty or broken machine ------------------------------------------------------------

TEST(EmptyMachine, EveryCheckIsUnknown) {
  const FakeMachineFiles files;
  const auto checks = run_checks(files);
  ASSERT_EQ(checks.size(), kAllIds.size());
  for (const Check& check : checks) {
    EXPECT_EQ(check.status, Status::unknown) << check.id << ": " << check.value;
    EXPECT_FALSE(check.value.empty()) << check.id;
  }
  EXPECT_TRUE(machine_facts(files).empty());
}

TEST(BrokenMachine, GarbageInEveryFileGivesNoCrashAndNoFalseOk) {
  FakeMachineFiles files;
  for (const char* path :
       {"/proc/cpuinfo", "/proc/cmdline", "/proc/loadavg", "/proc/meminfo",
        "/proc/sys/kernel/randomize_va_space", "/proc/sys/kernel/perf_event_paranoid",
        "/proc/self/cgroup", "/sys/devices/system/cpu/online",
        "/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq",
        "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq",
        "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/fs/cgroup/cgroup.controllers",
        "/sys/fs/cgroup/cpu.max", "/sys/class/power_supply/X/type"}) {
    files.set(path, "\x01garbage :: [ -- 9-2 ,,\n");
  }
  const auto checks = run_checks(files);
  for (const char* id : {"aslr", "load", "perf_event_paranoid", "swap", "memory",
                         "transparent_hugepages", "frequency_range", "power_supply"}) {
    EXPECT_EQ(get(checks, id).status, Status::unknown) << id;
  }
}

// ---- Rules, one file at a time ---------------------------------------------------------------

TEST(TurboRule, NoTurboOneAndBoostZeroAreOff) {
  EXPECT_EQ(get(run_checks(
                    FakeMachineFiles().set("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")),
                "turbo")
                .status,
            Status::ok);
  const auto boost_off =
      run_checks(FakeMachineFiles().set("/sys/devices/system/cpu/cpufreq/boost", "0\n"));
  expect(boost_off, "turbo", Status::ok, "off (cpufreq/boost = 0)");
  // amd-pstate on newer kernels: one boost file per policy.
  const auto per_policy =
      run_checks(FakeMachineFiles()
                     .set("/sys/devices/system/cpu/cpufreq/policy0/"
                          "scaling_governor",
                          "performance\n")
                     .set("/sys/devices/system/cpu/cpufreq/policy0/boost", "1\n"));
  expect(per_policy, "turbo", Status::warning, "on (cpufreq/policy0/boost = 1)");
  EXPECT_THAT(get(per_policy, "turbo").advice,
              HasSubstr("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/policy0/boost"));
}

TEST(GovernorRule, MixedGovernorsWarnAndAreCounted) {
  const auto checks = run_checks(
      FakeMachineFiles()
          .set("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "performance\n")
          .set("/sys/devices/system/cpu/cpufreq/policy4/scaling_governor", "schedutil\n"));
  expect(checks, "frequency_governor", Status::warning,
         "performance on 1 of 2, schedutil on 1 of 2 (2 cpufreq policies)");
}

TEST(GovernorRule, OldKernelsWithoutPolicyFoldersUseCpu0) {
  const auto checks = run_checks(FakeMachineFiles().set(
      "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n"));
  expect(checks, "frequency_governor", Status::ok, "performance (1 cpufreq policy)");
}

TEST(SmtRule, WithoutTheSmtFolderThreadsAreComparedWithCores) {
  const std::string two_threads_one_core =
      "processor : 0\nphysical id : 0\ncore id : 0\n\nprocessor : 1\nphysical id : 0\ncore id : "
      "0\n";
  expect(run_checks(FakeMachineFiles().set("/proc/cpuinfo", two_threads_one_core)), "smt",
         Status::warning, "on (2 threads on 1 cores)");
  const std::string two_cores =
      "processor : 0\nphysical id : 0\ncore id : 0\n\nprocessor : 1\nphysical id : 0\ncore id : "
      "1\n";
  expect(run_checks(FakeMachineFiles().set("/proc/cpuinfo", two_cores)), "smt", Status::ok,
         "off (one thread per core)");
}

TEST(IsolationRule, RcuNocbsMustCoverTheIsolatedCpus) {
  const auto partly = run_checks(
      FakeMachineFiles().set("/proc/cmdline", "ro isolcpus=nohz,domain,2-3 rcu_nocbs=2\n"));
  expect(partly, "isolcpus", Status::ok, "2-3");
  expect(partly, "rcu_nocbs", Status::warning, "rcu_nocbs=2; isolated CPUs 3 not covered");
  EXPECT_THAT(get(partly, "rcu_nocbs").advice, HasSubstr("Add rcu_nocbs=2-3"));
  expect(partly, "nohz_full", Status::warning, "not set; isolated CPUs 2-3 not covered");
  // nohz_full CPUs are offloaded from RCU callbacks as well.
  const auto tickless =
      run_checks(FakeMachineFiles().set("/proc/cmdline", "isolcpus=2,3 nohz_full=2-3\n"));
  expect(tickless, "nohz_full", Status::ok, "nohz_full=2-3");
  expect(tickless, "rcu_nocbs", Status::ok, "nohz_full=2-3");
  const auto unparsable =
      run_checks(FakeMachineFiles().set("/proc/cmdline", "isolcpus=2,3 nohz_full=1-N\n"));
  EXPECT_EQ(get(unparsable, "nohz_full").status, Status::unknown);
}

TEST(AslrRule, PartialIsFineAndUndocumentedValuesAreUnknown) {
  expect(run_checks(FakeMachineFiles().set("/proc/sys/kernel/randomize_va_space", "1\n")), "aslr",
         Status::ok, "1 (stack, mmap and vDSO; not the heap)");
  EXPECT_EQ(
      get(run_checks(FakeMachineFiles().set("/proc/sys/kernel/randomize_va_space", "7")), "aslr")
          .status,
      Status::unknown);
}

TEST(LoadRule, OneMinuteLoadOfOneIsTheThreshold) {
  auto load = [](const std::string& text) {
    return get(run_checks(FakeMachineFiles().set("/proc/loadavg", text)), "load").status;
  };
  EXPECT_EQ(load("0.99 5.00 5.00 1/100 1\n"), Status::ok);
  EXPECT_EQ(load("1.00 0.00 0.00 1/100 1\n"), Status::warning);
}

TEST(MemoryRule, AvailableBelowATenthWarns) {
  auto memory = [](std::uint64_t available_kib) {
    const std::string text =
        "MemTotal: 1000000 kB\nMemAvailable: " + std::to_string(available_kib) +
        " kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n";
    return get(run_checks(FakeMachineFiles().set("/proc/meminfo", text)), "memory").status;
  };
  EXPECT_EQ(memory(100000), Status::ok);
  EXPECT_EQ(memory(99999), Status::warning);
}

TEST(SwapRule, MoreThanOnePercentOfMemorySwappedWarns) {
  auto swap = [](std::uint64_t used_kib) {
    const std::string text =
        "MemTotal: 1000000 kB\nMemAvailable: 900000 kB\nSwapTotal: 500000 "
        "kB\nSwapFree: " +
        std::to_string(500000 - used_kib) + " kB\n";
    return get(run_checks(FakeMachineFiles().set("/proc/meminfo", text)), "swap").status;
  };
  EXPECT_EQ(swap(10000), Status::ok);
  EXPECT_EQ(swap(10001), Status::warning);
}

TEST(PerfParanoidRule, TwoAndBelowAllowCounting) {
  auto paranoid = [](const std::string& level) {
    return get(run_checks(
                   FakeMachineFiles().set("/proc/sys/kernel/perf_event_paranoid", level + "\n")),
               "perf_event_paranoid")
        .status;
  };
  EXPECT_EQ(paranoid("-1"), Status::ok);
  EXPECT_EQ(paranoid("2"), Status::ok);
  EXPECT_EQ(paranoid("3"), Status::warning);
}

TEST(HardwareCounterRule, AdviceFollowsTheError) {
  const FakeMachineFiles files;
  EXPECT_THAT(
      get(run_checks(files, probe_that(false, EPERM, "denied")), "hardware_counters").advice,
      HasSubstr("sudo sysctl kernel.perf_event_paranoid=2"));
  EXPECT_THAT(get(run_checks(files, probe_that(false, ENOSYS, "no")), "hardware_counters").advice,
              HasSubstr("CONFIG_PERF_EVENTS"));
  EXPECT_THAT(
      get(run_checks(files, probe_that(false, 0, "counted nothing")), "hardware_counters").advice,
      HasSubstr("Another tool may hold the counters"));
  expect(run_checks(files), "hardware_counters", Status::unknown, "not probed");
}

TEST(PowerRule, OnBatteryWarns) {
  const auto discharging =
      run_checks(FakeMachineFiles()
                     .set("/sys/class/power_supply/BAT0/type", "Battery\n")
                     .set("/sys/class/power_supply/BAT0/status", "Discharging\n"));
  expect(discharging, "power_supply", Status::warning, "on battery (BAT0: Battery Discharging)");
  EXPECT_THAT(get(discharging, "power_supply").advice,
              HasSubstr("powerprofilesctl set performance"));
  const auto unplugged = run_checks(FakeMachineFiles()
                                        .set("/sys/class/power_supply/AC/type", "Mains\n")
                                        .set("/sys/class/power_supply/AC/online", "0\n"));
  EXPECT_EQ(get(unplugged, "power_supply").status, Status::warning);
  const auto charging = run_checks(FakeMachineFiles()
                                       .set("/sys/class/power_supply/BAT0/type", "Battery\n")
                                       .set("/sys/class/power_supply/BAT0/status", "Charging\n"));
  expect(charging, "power_supply", Status::ok, "not discharging (BAT0: Battery Charging)");
}

TEST(VirtualMachineRule, DmiNamesAndBareMetalCloudInstances) {
  const std::string plain_cpu = "processor : 0\nflags : fpu tsc\n";
  const std::string guest_cpu = "processor : 0\nflags : fpu tsc hypervisor\n";
  // VMware's DMI is proof enough, even on a CPU (ARM) that has no hypervisor flag.
  const auto vmware =
      run_checks(FakeMachineFiles()
                     .set("/sys/class/dmi/id/sys_vendor", "VMware, Inc.\n")
                     .set("/sys/class/dmi/id/product_name", "VMware Virtual Platform\n"));
  EXPECT_EQ(get(vmware, "virtual_machine").status, Status::warning);
  EXPECT_THAT(get(vmware, "virtual_machine").value, HasSubstr("VMware ("));
  // An EC2 bare-metal instance has Amazon's DMI and no hypervisor flag.
  const auto metal = run_checks(FakeMachineFiles()
                                    .set("/proc/cpuinfo", plain_cpu)
                                    .set("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n")
                                    .set("/sys/class/dmi/id/product_name", "m5.metal\n"));
  expect(metal, "virtual_machine", Status::ok, "none");
  const auto nitro = run_checks(
      FakeMachineFiles()
          .set("/proc/cpuinfo", guest_cpu)
          .set("/sys/class/dmi/id/sys_vendor", "Amazon EC2\n")
          .set("/sys/class/dmi/id/product_name", "m5.large\n")
          .set("/sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n"));
  EXPECT_THAT(get(nitro, "virtual_machine").value, HasSubstr("Amazon EC2 (KVM) ("));
  const auto unnamed = run_checks(FakeMachineFiles().set("/proc/cpuinfo", guest_cpu));
  expect(unnamed, "virtual_machine", Status::warning,
         "an unidentified hypervisor (hypervisor flag in /proc/cpuinfo)");
  const auto xen = run_checks(FakeMachineFiles().set("/sys/hypervisor/type", "xen\n"));
  EXPECT_THAT(get(xen, "virtual_machine").value, HasSubstr("Xen ("));
}

TEST(ContainerRule, EachMarkerNamesItsEngine) {
  auto container = [](FakeMachineFiles files) {
    files.set("/proc/self/cgroup", "0::/user.slice/session-1.scope\n");
    return get(run_checks(files), "container").value;
  };
  EXPECT_EQ(container(FakeMachineFiles().set("/run/systemd/container", "systemd-nspawn\n")),
            "systemd-nspawn (/run/systemd/container)");
  EXPECT_EQ(container(FakeMachineFiles().set("/run/.containerenv", "")),
            "podman (/run/.containerenv)");
  EXPECT_EQ(container(FakeMachineFiles().set("/proc/1/cgroup",
                                             "0::/kubepods.slice/kubepods-pod1.slice/x\n")),
            "kubernetes (kubepods in /proc/*/cgroup)");
  EXPECT_EQ(container(FakeMachineFiles().set("/proc/1/cgroup", "12:cpu,cpuacct:/docker/0123\n")),
            "docker (docker in /proc/*/cgroup)");
  EXPECT_EQ(container(FakeMachineFiles()), "none");
  expect(run_checks(FakeMachineFiles().set("/proc/self/cgroup", "0::/\n")), "container", Status::ok,
         "an unidentified container (cgroup namespace (/proc/self/cgroup is 0::/))");
}

TEST(CpuQuotaRule, CgroupV1QuotaAndNoLimit) {
  const std::string cgroup = "12:cpu,cpuacct:/docker/abc\n0::/\n";
  const auto limited =
      run_checks(FakeMachineFiles()
                     .set("/proc/self/cgroup", cgroup)
                     .set("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000\n")
                     .set("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n"));
  expect(limited, "cpu_quota", Status::warning,
         "1.50 CPUs (/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us = 150000)");
  const auto unlimited =
      run_checks(FakeMachineFiles()
                     .set("/proc/self/cgroup", cgroup)
                     .set("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
                     .set("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n"));
  expect(unlimited, "cpu_quota", Status::ok, "no CPU quota");
}

TEST(CpuQuotaRule, CgroupV2TakesTheTightestAncestor) {
  const auto checks = run_checks(FakeMachineFiles()
                                     .set("/proc/self/cgroup", "0::/a/b\n")
                                     .set("/sys/fs/cgroup/cgroup.controllers", "cpu\n")
                                     .set("/sys/fs/cgroup/a/b/cpu.max", "max 100000\n")
                                     .set("/sys/fs/cgroup/a/cpu.max", "50000 100000\n"));
  expect(checks, "cpu_quota", Status::warning,
         "0.50 CPUs (/sys/fs/cgroup/a/cpu.max = 50000 100000)");
}

TEST(ThisMachine, EveryCheckRunsAndSaysSomething) {
  const RootedMachineFiles files;
  const auto checks = run_checks(files, probe_hardware_counters);
  ASSERT_EQ(checks.size(), kAllIds.size());
  for (const Check& check : checks) {
    EXPECT_FALSE(check.value.empty()) << check.id;
    if (check.status == Status::warning) {
      EXPECT_FALSE(check.advice.empty()) << check.id;
    }
  }
  // Every Linux machine has /proc/cpuinfo and /proc/loadavg.
  EXPECT_NE(get(checks, "logical_cpus").status, Status::unknown);
  EXPECT_NE(get(checks, "load").status, Status::unknown);
}

// A probe that reports `ns` (turns × CPUs) for CPUs 0, 1, ...
CpuSpeedProbe speeds_that(std::vector<std::vector<double>> ns) {
  return [ns] {
    CpuSpeeds speeds;
    for (std::size_t k = 0; k < (ns.empty() ? 2 : ns[0].size()); ++k) {
      speeds.cpus.push_back(static_cast<int>(k));
    }
    speeds.ns = ns;
    return speeds;
  };
}

Check cpu_speeds(const CpuSpeedProbe& probe) {
  return get(run_checks(FakeMachineFiles(), {}, probe), "cpu_speeds");
}

TEST(CpuSpeedsRule, ACpuSlowerInEveryTurnIsAWarningThatNamesIt) {
  // CPU 1 about 40% slower in every turn (as this project's VM was on 2026-12-06).
  const Check check = cpu_speeds(speeds_that(
      {{4.0e6, 5.6e6}, {4.1e6, 5.7e6}, {4.0e6, 5.5e6}, {3.9e6, 5.6e6}, {4.0e6, 5.6e6}}));
  EXPECT_EQ(check.status, Status::warning);
  EXPECT_EQ(check.value, "CPU 0 4.00 ms, CPU 1 5.60 ms a loop (medians of 5 turns): 40.0% apart");
  EXPECT_THAT(check.advice, HasSubstr("CPU 1 ran the same loop 40% slower than CPU 0 in 5 of 5"));
  EXPECT_THAT(check.advice, HasSubstr("taskset -c N"));
  // One turn the other way round still says so; two do not.
  EXPECT_EQ(
      cpu_speeds(
          speeds_that(
              {{4.0e6, 5.6e6}, {5.9e6, 5.7e6}, {4.0e6, 5.5e6}, {3.9e6, 5.6e6}, {4.0e6, 5.6e6}}))
          .status,
      Status::warning);
  EXPECT_EQ(
      cpu_speeds(
          speeds_that(
              {{4.0e6, 5.6e6}, {5.9e6, 5.7e6}, {5.8e6, 5.5e6}, {3.9e6, 5.6e6}, {4.0e6, 5.6e6}}))
          .status,
      Status::ok);
}

TEST(CpuSpeedsRule, CpusWithinFivePercentAreOk) {
  const Check check = cpu_speeds(
      speeds_that({{4.00e6, 4.10e6}, {4.02e6, 4.12e6}, {4.01e6, 4.15e6}, {3.99e6, 4.11e6}}));
  EXPECT_EQ(check.status, Status::ok);
  EXPECT_THAT(check.value, HasSubstr("2.7% apart"));
  EXPECT_THAT(check.advice, IsEmpty());
}

TEST(CpuSpeedsRule, WithoutAProbeOneCpuOrNoTurnsItSaysWhy) {
  EXPECT_EQ(get(run_checks(FakeMachineFiles()), "cpu_speeds").value, "not probed");
  EXPECT_EQ(get(run_checks(FakeMachineFiles()), "cpu_speeds").status, Status::unknown);
  const Check one = cpu_speeds([] { return CpuSpeeds{{3}, {}}; });
  EXPECT_EQ(one.status, Status::ok);
  EXPECT_EQ(one.value, "one CPU: nothing to compare");
  const Check stuck = cpu_speeds([] { return CpuSpeeds{{0, 1}, {}}; });
  EXPECT_EQ(stuck.status, Status::unknown);
  EXPECT_EQ(stuck.value, "this thread could not be moved from CPU to CPU");
  // Many CPUs: the fastest and the slowest are named.
  std::vector<double> turn(12, 4.0e6);
  turn[7] = 4.4e6;
  const Check many = cpu_speeds(speeds_that({turn, turn, turn}));
  EXPECT_EQ(many.status, Status::warning);
  EXPECT_EQ(many.value,
            "fastest CPU 0 4.00 ms, slowest CPU 7 4.40 ms (of 12 CPUs) a loop (medians of 3 "
            "turns): 10.0% apart");
}

TEST(CpuSpeedsProbe, TimesEveryCpuInEveryTurnAndGivesTheThreadItsCpusBack) {
  cpu_set_t before;
  CPU_ZERO(&before);
  ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
  const CpuSpeeds speeds = probe_cpu_speeds(3);
  cpu_set_t after;
  CPU_ZERO(&after);
  ASSERT_EQ(sched_getaffinity(0, sizeof(after), &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
  ASSERT_EQ(speeds.cpus.size(), static_cast<std::size_t>(CPU_COUNT(&before)));
  if (speeds.cpus.size() < 2) GTEST_SKIP() << "one CPU: nothing to time";
  ASSERT_EQ(speeds.ns.size(), 3u);
  for (const std::vector<double>& turn : speeds.ns) {
    ASSERT_EQ(turn.size(), speeds.cpus.size());
    for (const double ns : turn) EXPECT_GT(ns, 0.0);
  }
}

TEST(RunTimeChecks, AreTheFourBehindTheRunWarnings) {
  const RootedMachineFiles files(fixture("amd-vm"));
  std::vector<std::string> ids;
  for (const Check& check : run_run_time_checks(files)) ids.push_back(check.id);
  EXPECT_EQ(ids,
            (std::vector<std::string>{"frequency_governor", "turbo", "load", "virtual_machine"}));
}

TEST(Output, StatusNamesAndSummary) {
  EXPECT_EQ(to_string(Status::ok), "ok");
  EXPECT_EQ(to_string(Status::warning), "warning");
  EXPECT_EQ(to_string(Status::unknown), "unknown");
  const std::vector<Check> checks = {
      {"load", "Load", Status::warning, "busy", "Stop the other work now please."},
      {"aslr", "ASLR", Status::ok, "2", ""}};
  EXPECT_EQ(check_summary(checks),
            (std::map<std::string, std::string>{{"load", "warning: busy"}, {"aslr", "ok: 2"}}));
}

}  // namespace
}  // namespace benchkit::system
