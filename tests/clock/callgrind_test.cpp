#include "clock/callgrind.hpp"

#include <gtest/gtest.h>

namespace benchkit::clock {
namespace {

TEST(CallgrindTotals, ReadsTheSummaryByTheEventNames) {
  const auto events = parse_callgrind_totals(
      "version: 1\ncreator: callgrind-3.19.0\ndesc: Trigger: Client Request: steady (sample 1)\n"
      "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw sysCount sysTime\n"
      "fn=(1) churn\n0 12\nsummary: 1000 300 200 10 20 5 2 3 1\ntotals: 1 2 3\n");
  ASSERT_TRUE(events);
  EXPECT_EQ(events->at("Ir"), 1000.0);
  EXPECT_EQ(events->at("DLmw"), 1.0);
  // Trailing zeros are left out by callgrind.
  EXPECT_EQ(events->at("sysCount"), 0.0);
}

TEST(CallgrindTotals, FallsBackToTotalsAndRefusesTextWithoutEvents) {
  const auto events = parse_callgrind_totals("events: Ir\ntotals: 77\n");
  ASSERT_TRUE(events);
  EXPECT_EQ(events->at("Ir"), 77.0);
  EXPECT_FALSE(parse_callgrind_totals("summary: 5\n"));
  EXPECT_FALSE(parse_callgrind_totals("events: Ir\n"));
  EXPECT_FALSE(parse_callgrind_totals("events: Ir\nsummary: 1 2\n"));  // more values than names
  EXPECT_FALSE(parse_callgrind_totals("events: Ir\nsummary: x\n"));
}

TEST(CountedMetrics, SplitsAccessesByWhereTheyHitAndEstimatesCycles) {
  const CountedMetrics m = counted_metrics({{"Ir", 1000},
                                            {"Dr", 300},
                                            {"Dw", 200},
                                            {"I1mr", 10},
                                            {"D1mr", 20},
                                            {"D1mw", 5},
                                            {"ILmr", 2},
                                            {"DLmr", 3},
                                            {"DLmw", 1},
                                            {"sysCount", 4}});
  EXPECT_EQ(m.instructions, 1000.0);
  EXPECT_EQ(m.ram_hits, 6.0);           // last-level misses
  EXPECT_EQ(m.ll_hits, 35.0 - 6.0);     // first-level misses that the last level served
  EXPECT_EQ(m.l1_hits, 1500.0 - 35.0);  // every access that did not miss the first level
  EXPECT_EQ(m.estimated_cycles, 1465.0 + 5.0 * 29.0 + 35.0 * 6.0);
  EXPECT_EQ(m.system_calls, 4.0);
}

TEST(Callgrind, NotUnderValgrindInTheTests) {
  // The unit tests run natively (and under ASan, which valgrind cannot run).
  EXPECT_FALSE(running_on_valgrind());
}

}  // namespace
}  // namespace benchkit::clock
