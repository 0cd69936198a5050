#include "system/machine_parse.hpp"

#include <gtest/gtest.h>

namespace benchkit::system {
namespace {

TEST(ParseCpuList, ReadsSinglesRangesAndStrides) {
  EXPECT_EQ(parse_cpu_list("0-3,8"), (std::set<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpu_list("5\n"), (std::set<int>{5}));
  EXPECT_EQ(parse_cpu_list(""), std::set<int>{});
  // Of each block of 4 CPUs in 0..7, the first 2 (kernel-parameters.txt, "cpu lists").
  EXPECT_EQ(parse_cpu_list("0-7:2/4"), (std::set<int>{0, 1, 4, 5}));
}

TEST(ParseCpuList, RejectsMalformedAndMachineDependentLists) {
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("1,,2"));
  EXPECT_FALSE(parse_cpu_list("N"));
  EXPECT_FALSE(parse_cpu_list("all"));
  EXPECT_FALSE(parse_cpu_list("0-7:3/2"));
  EXPECT_FALSE(parse_cpu_list("0-7:1"));
  EXPECT_FALSE(parse_cpu_list("0-2000000000"));  // garbage, not a machine
}

TEST(KernelParameter, FindsValuesAndBareFlags) {
  const std::string line = "BOOT_IMAGE=/vmlinuz ro quiet isolcpus=2-3 nohz_full=\"2,3\"\n";
  EXPECT_EQ(kernel_parameter(line, "isolcpus"), "2-3");
  EXPECT_EQ(kernel_parameter(line, "quiet"), "");
  EXPECT_EQ(kernel_parameter(line, "nohz_full"), "2,3");
  EXPECT_FALSE(kernel_parameter(line, "isol"));
  EXPECT_FALSE(kernel_parameter(line, "rcu_nocbs"));
}

TEST(KernelParameter, LastOneWinsAndInitArgumentsAreIgnored) {
  EXPECT_EQ(kernel_parameter("isolcpus=1 isolcpus=2", "isolcpus"), "2");
  EXPECT_FALSE(kernel_parameter("ro -- isolcpus=2", "isolcpus"));
}

TEST(BracketedChoice, ReturnsTheSelectedWord) {
  EXPECT_EQ(bracketed_choice("always [madvise] never\n"), "madvise");
  EXPECT_EQ(bracketed_choice("[always] madvise never"), "always");
  EXPECT_FALSE(bracketed_choice("always madvise never"));
  EXPECT_FALSE(bracketed_choice("always [madvise"));
}

TEST(MeminfoBytes, ConvertsKilobytesToBytes) {
  const std::string text = "MemTotal:       32775320 kB\nHugePages_Total:       7\n";
  EXPECT_EQ(meminfo_bytes(text, "MemTotal"), 32775320ULL * 1024);
  EXPECT_EQ(meminfo_bytes(text, "HugePages_Total"), 7u);
  EXPECT_FALSE(meminfo_bytes(text, "MemFree"));
  EXPECT_FALSE(meminfo_bytes(text, "Mem"));
}

TEST(ParseLoadavg, ReadsAllFields) {
  const auto load = parse_loadavg("0.08 1.50 10.25 3/612 48213\n");
  ASSERT_TRUE(load);
  EXPECT_DOUBLE_EQ(load->one_minute, 0.08);
  EXPECT_DOUBLE_EQ(load->five_minutes, 1.50);
  EXPECT_DOUBLE_EQ(load->fifteen_minutes, 10.25);
  EXPECT_EQ(load->runnable, 3);
  EXPECT_EQ(load->total, 612);
  EXPECT_FALSE(parse_loadavg("0.08 1.50"));
  EXPECT_FALSE(parse_loadavg("0.08 1.50 1.0 3 1"));
}

TEST(ParseCpuinfo, SplitsProcessorsAtBlankLines) {
  const auto processors =
      parse_cpuinfo("processor\t: 0\nmodel name\t: X  \n\nprocessor\t: 1\nno colon here\n\n\n");
  ASSERT_EQ(processors.size(), 2u);
  EXPECT_EQ(processors[0].at("model name"), "X");
  EXPECT_EQ(processors[1].at("processor"), "1");
  EXPECT_EQ(processors[1].size(), 1u);
}

TEST(ParseInteger, AcceptsOnlyWholeNumbers) {
  EXPECT_EQ(parse_integer(" -1\n"), -1);
  EXPECT_EQ(parse_integer("200000"), 200000);
  EXPECT_FALSE(parse_integer("2.5"));
  EXPECT_FALSE(parse_integer(""));
  EXPECT_FALSE(parse_integer("max"));
}

TEST(Format, BytesAndFrequencies) {
  EXPECT_EQ(format_bytes(2147479552ULL), "2.0 GiB");
  EXPECT_EQ(format_bytes(512ULL * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(format_bytes(0), "0 KiB");
  EXPECT_EQ(format_khz(800000), "800 MHz");
  EXPECT_EQ(format_khz(3201000), "3201 MHz");
}

}  // namespace
}  // namespace benchkit::system
