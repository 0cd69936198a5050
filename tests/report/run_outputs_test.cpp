#include "report/run_outputs.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(RouteRunOutputs, AMachineFormatOnStdoutCarriesTheComparison) {
  for (const Format format : {Format::json, Format::csv, Format::markdown}) {
    const RunOutputs route = route_run_outputs(format, true, false);
    EXPECT_TRUE(route.comparison_on_stdout) << to_string(format);
    EXPECT_FALSE(route.both_in_one) << to_string(format);
  }
}

TEST(RouteRunOutputs, WithoutAComparisonOrWithOutStdoutCarriesTheResults) {
  EXPECT_FALSE(route_run_outputs(Format::json, false, false).comparison_on_stdout);
  EXPECT_FALSE(route_run_outputs(Format::json, true, true).comparison_on_stdout);
  EXPECT_FALSE(route_run_outputs(Format::console, true, false).comparison_on_stdout);
}

TEST(RouteRunOutputs, HtmlAndJunitHoldBothInOneDocument) {
  for (const Format format : {Format::html, Format::junit}) {
    const RunOutputs route = route_run_outputs(format, true, false);
    EXPECT_TRUE(route.both_in_one) << to_string(format);
    EXPECT_FALSE(route.comparison_on_stdout) << to_string(format);
  }
  EXPECT_FALSE(route_run_outputs(Format::json, true, false).both_in_one);
}

TEST(RouteRunOutputs, AFormatWithNoFormForAComparisonLeavesItToTheConsole) {
  for (const Format format : {Format::gbench, Format::bmf, Format::github_action}) {
    const RunOutputs route = route_run_outputs(format, true, false);
    EXPECT_FALSE(route.comparison_on_stdout) << to_string(format);
    EXPECT_FALSE(route.both_in_one) << to_string(format);
  }
}

}  // namespace
}  // namespace benchkit::report
