#include "report/counter_text.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace benchkit::report {
namespace {

TEST(CounterText, Base1000PrefixesWithThreeSignificantDigits) {
  EXPECT_EQ(format_counter(64, counter::plain), "64");
  EXPECT_EQ(format_counter(4096, counter::plain), "4.1 k");
  EXPECT_EQ(format_counter(2.5e6, counter::plain), "2.5 M");
  EXPECT_EQ(format_counter(1.234e9, counter::plain), "1.23 G");
  EXPECT_EQ(format_counter(-4096, counter::plain), "-4.1 k");
  EXPECT_EQ(format_counter(0, counter::plain), "0");
  EXPECT_EQ(format_counter(0.0125, counter::plain), "12.5 m");
  EXPECT_EQ(format_counter(125e-9, counter::plain), "125 n");
  // At the edges of a prefix, the rounded value decides (a compression ratio of 0.99997 read
  // "1000 m" before this).
  EXPECT_EQ(format_counter(0.99997, counter::plain), "1");
  EXPECT_EQ(format_counter(999.7, counter::plain), "1 k");
  EXPECT_EQ(format_counter(999.4, counter::plain), "999");
}

TEST(CounterText, Base1024UsesBinaryPrefixes) {
  EXPECT_EQ(format_counter(1024, counter::base_1024), "1 Ki");
  EXPECT_EQ(format_counter(4096, counter::base_1024), "4 Ki");
  EXPECT_EQ(format_counter(1.5 * 1024 * 1024, counter::base_1024), "1.5 Mi");
  EXPECT_EQ(format_counter(3.0 * 1024 * 1024 * 1024, counter::base_1024), "3 Gi");
  // 1000 to 1023 stay below the next prefix, written whole rather than as 1e+03.
  EXPECT_EQ(format_counter(1000, counter::base_1024), "1000");
  EXPECT_EQ(format_counter(0.5, counter::base_1024), "0.5");
}

TEST(CounterText, RatesArePerSecond) {
  EXPECT_EQ(format_counter(256e6, counter::rate), "256 M/s");
  EXPECT_EQ(format_counter(512.0 * 1024 * 1024, counter::rate | counter::base_1024), "512 Mi/s");
  EXPECT_EQ(format_counter(3.5, counter::rate), "3.5 /s");
}

TEST(CounterText, NonFiniteValuesAreNamed) {
  EXPECT_EQ(format_counter(std::numeric_limits<double>::infinity(), counter::plain), "inf");
  EXPECT_EQ(format_counter(std::numeric_limits<double>::quiet_NaN(), counter::rate), "nan /s");
}

TEST(CounterText, ACellAppliesTheKindAndSaysWhenItCannot) {
  BenchmarkResult b;
  b.name = "hash";
  b.samples = {Sample{1000, 50'000.0, {}, 0, {}, {}, {}, {}}};
  b.estimates.median = {50.0, 50.0, 50.0, 0.95};
  b.counters = {{"bytes", 64}, {"size", 4096}};
  b.counter_kinds = {{"bytes", counter::rate | counter::base_1024}};
  // 64 bytes per 50 ns: 1.28e9 bytes per second, 1.19 GiB/s.
  EXPECT_EQ(counter_cell(b, "bytes"), "1.19 Gi/s");
  EXPECT_EQ(counter_cell(b, "size"), "4.1 k");
  EXPECT_EQ(counter_cell(b, "absent"), "");
  b.estimates.median = {};
  EXPECT_EQ(counter_cell(b, "bytes"), "n/a");
}

TEST(CounterText, OnlyBenchmarksWithACounterOrALabelAreListedAndScenariosAreNot) {
  RunResult run;
  BenchmarkResult plain;
  plain.name = "plain";
  BenchmarkResult labelled;
  labelled.name = "labelled";
  labelled.label = "compact";
  BenchmarkResult counted;
  counted.name = "counted";
  counted.counters = {{"z", 1}, {"a", 2}};
  BenchmarkResult phase = counted;
  phase.name = "scenario/load";
  phase.kind = "scenario";
  phase.counters = {{"segments", 70}};
  run.benchmarks = {plain, labelled, counted, phase};
  const std::vector<const BenchmarkResult*> listed = with_counters(run);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0]->name, "labelled");
  EXPECT_EQ(listed[1]->name, "counted");
  EXPECT_EQ(counter_names(listed), (std::vector<std::string>{"a", "z"}));
  EXPECT_TRUE(any_label(listed));
  EXPECT_EQ(counter_row(counted, {"a", "z"}, true),
            (std::vector<std::string>{"counted", "2", "1", ""}));
}

}  // namespace
}  // namespace benchkit::report
