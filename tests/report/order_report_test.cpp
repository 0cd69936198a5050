#include "report/order_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

analysis::OrderReport two_moves() {
  analysis::OrderReport report;
  report.threshold = 0.001;
  report.benchmarks = {{"alloc_heavy", 1000.0, 1200.0, 0.2, true}, {"add", 50.0, 50.0, 0.0, false}};
  report.missing = {"crashes"};
  return report;
}

TEST(OrderReport, TheTableMarksWhatMovedAndNamesWhatIsMissing) {
  const std::string text = render_order_report(two_moves(), Format::console);
  EXPECT_THAT(text, HasSubstr("alloc_heavy"));
  EXPECT_THAT(text, HasSubstr("+20.000%  order-dependent"));
  EXPECT_THAT(text, HasSubstr("1 of 2 benchmarks moved by more than 0.1%"));
  EXPECT_THAT(text, HasSubstr("An order-dependent count depends on what ran before it"));
  EXPECT_THAT(text, HasSubstr("crashes: counted in one order only"));
}

TEST(OrderReport, NothingMovedNeedsNoExplanation) {
  analysis::OrderReport report = two_moves();
  report.benchmarks.erase(report.benchmarks.begin());
  EXPECT_THAT(render_order_report(report, Format::console), Not(HasSubstr("An order-dependent")));
}

TEST(OrderReport, JsonHoldsEveryBenchmark) {
  const auto json = nlohmann::json::parse(render_order_report(two_moves(), Format::json));
  EXPECT_EQ(json["benchkit_order_dependence"], 1);
  EXPECT_EQ(json["moved"], 1);
  ASSERT_EQ(json["benchmarks"].size(), 2u);
  EXPECT_EQ(json["benchmarks"][0]["name"], "alloc_heavy");
  EXPECT_EQ(json["missing"][0], "crashes");
}

}  // namespace
}  // namespace benchkit::report
