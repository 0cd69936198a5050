#include "model/counters.hpp"
#include "model/threads.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace benchkit::model {
namespace {

// A benchmark whose median is `median_ns` per iteration, that ran `warm_up` iterations before
// two samples of `per_sample` iterations, with one counter `name` of `value` and `kind`.
BenchmarkResult with_counter(double value, counter::Kind kind, double median_ns = 250.0,
                             std::uint64_t warm_up = 600, std::uint64_t per_sample = 200) {
  BenchmarkResult b;
  b.name = "b";
  b.warm_up_iters = warm_up;
  b.samples = {
      Sample{per_sample, median_ns * static_cast<double>(per_sample), {}, 0, {}, {}, {}, {}},
      Sample{per_sample, median_ns * static_cast<double>(per_sample), {}, 0, {}, {}, {}, {}}};
  b.estimates.median = {median_ns, median_ns, median_ns, 0.95};
  b.counters["c"] = value;
  if (kind != counter::plain) b.counter_kinds["c"] = kind;
  return b;
}

TEST(Counters, APlainCounterIsTheValueAsSet) {
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(2.5, counter::plain), "c"), 2.5);
  EXPECT_FALSE(counter_value(with_counter(2.5, counter::plain), "absent"));
}

TEST(Counters, ARateIsTheValueOverTheSecondsOfTheMeasuredTimePerIteration) {
  // 64 bytes in 250 ns: 64 / 250e-9 s = 256e6 per second.
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(64, counter::rate), "c"), 256e6);
  // At another time per iteration (a repetition's, as Google Benchmark's rows): that time.
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(64, counter::rate), "c", 1e9), 64.0);
}

TEST(Counters, PerIterationDividesATotalByEveryIterationRun) {
  // 600 warm-up iterations and 2 × 200 sampled: 1000 in all.
  const BenchmarkResult b = with_counter(3000, counter::per_iteration);
  EXPECT_EQ(iterations_run(b), 1000u);
  EXPECT_DOUBLE_EQ(*counter_value(b, "c"), 3.0);
  // A total per second, Google Benchmark's kIsRate: 3 per iteration of 250 ns.
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(3000, counter::per_iteration | counter::rate), "c"),
                   3.0 / 250e-9);
}

TEST(Counters, PerThreadDividesByTheThreadCountOneUntilSet) {
  BenchmarkResult b = with_counter(8, counter::per_thread);
  EXPECT_EQ(model::thread_count(b), 1u);
  EXPECT_DOUBLE_EQ(*counter_value(b, "c"), 8.0);
  b.threads = 4;
  EXPECT_DOUBLE_EQ(*counter_value(b, "c"), 2.0);
}

TEST(Counters, InvertComesLast) {
  // 2 items per iteration of 250 ns: 8e6 items per second, 125 ns per item.
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(2, counter::rate | counter::invert), "c"), 125e-9);
}

TEST(Counters, Base1024ChangesOnlyTheDisplay) {
  EXPECT_DOUBLE_EQ(*counter_value(with_counter(4096, counter::base_1024), "c"), 4096.0);
}

TEST(Counters, AKindThatCannotBeAppliedGivesNothing) {
  // No time per iteration: no samples, no median.
  EXPECT_FALSE(counter_value(with_counter(64, counter::rate, 0.0), "c"));
  // A count is no time (--mode instructions).
  BenchmarkResult counted = with_counter(64, counter::rate);
  counted.metric = "instructions";
  EXPECT_FALSE(counter_value(counted, "c"));
  EXPECT_TRUE(counter_value(with_counter(64, counter::plain), "c"));
  // No iteration run at all.
  EXPECT_FALSE(counter_value(with_counter(64, counter::per_iteration, 250.0, 0, 0), "c"));
  EXPECT_FALSE(counter_value(with_counter(0, counter::invert), "c"));
}

TEST(Counters, KindNamesRoundTripAndAnUnknownNameIsRefused) {
  const counter::Kind kind = counter::rate | counter::base_1024 | counter::per_thread;
  const std::vector<std::string> names = counter_kind_names(kind);
  EXPECT_EQ(names, (std::vector<std::string>{"rate", "per_thread", "base_1024"}));
  EXPECT_EQ(counter_kind_from_names(names), kind);
  EXPECT_TRUE(counter_kind_names(counter::plain).empty());
  const std::vector<std::string> unknown = {"rate", "per_second"};
  EXPECT_FALSE(counter_kind_from_names(unknown));
}

}  // namespace
}  // namespace benchkit::model
