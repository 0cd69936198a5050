#include "report/run_outputs.hpp"

#include <gtest/gtest.h>

#include "analysis/compare.hpp"

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

// Each output as "TARGET FORMAT PARTS" ("stdout console results", "out.json json results"), or
// "TARGET text" for a line, with " after FILE" when it waits on a file: what a plan says at a
// glance.
std::vector<std::string> described(const std::vector<Output>& outputs) {
  std::vector<std::string> lines;
  for (const Output& output : outputs) {
    std::string line = output.to_file() ? output.path : "stdout";
    const auto parts = output.document.parts();
    if (parts.empty()) {
      line += " text";
    } else {
      line += " " + std::string(to_string(output.format));
      for (const Part part : parts) line += " " + std::string(to_string(part));
    }
    for (const std::string& path : output.only_after) {
      if (!path.empty()) line += " after " + path;
    }
    lines.push_back(line);
  }
  return lines;
}

using Lines = std::vector<std::string>;

TEST(PlanRunReport, WithoutFlagsTheResultsTableGoesToStdout) {
  const RunResult run;
  const RunReport plan = plan_run_report({}, run, nullptr);
  EXPECT_EQ(described(plan.results), Lines{"stdout console results"});
  EXPECT_TRUE(plan.verdicts.empty());
  EXPECT_FALSE(plan.kept_quietly);
}

TEST(PlanRunReport, OutKeepsTheConsoleTableAndSaysWhereTheFileWentOnceWritten) {
  const RunResult run;
  const RunReport plan = plan_run_report({Format::json, "out.json", "page.html"}, run, nullptr);
  EXPECT_EQ(described(plan.results),
            (Lines{"page.html html results", "out.json json results",
                   "stdout console results after out.json", "stdout text after out.json"}));
  EXPECT_EQ(plan.results.back().text, "results written to out.json\n");
  const RunReport quiet = plan_run_report({Format::json, "out.json", "", true}, run, nullptr);
  EXPECT_EQ(described(quiet.results), Lines{"out.json json results"});
  EXPECT_TRUE(quiet.kept_quietly);
}

TEST(PlanRunReport, QuietLeavesOutTheConsoleTableButNotAMachineFormat) {
  const RunResult run;
  EXPECT_TRUE(plan_run_report({.quiet = true}, run, nullptr).results.empty());
  EXPECT_EQ(described(plan_run_report({Format::csv, "", "", true}, run, nullptr).results),
            Lines{"stdout csv results"});
}

TEST(PlanRunReport, AComparisonInAMachineFormatIsStdoutsOneDocument) {
  const RunResult run;
  const analysis::Comparison comparison;
  const RunReport plan = plan_run_report({Format::json}, run, &comparison);
  EXPECT_TRUE(plan.results.empty());
  EXPECT_EQ(described(plan.verdicts), Lines{"stdout json comparison"});
  EXPECT_TRUE(plan.kept_quietly);
  // With --out the file holds the results, and the console shows both tables.
  const RunReport out = plan_run_report({Format::json, "out.json"}, run, &comparison);
  EXPECT_EQ(described(out.verdicts), (Lines{"stdout text", "stdout console comparison"}));
  EXPECT_EQ(out.results.front().document.parts(), std::vector<Part>{Part::results});
}

TEST(PlanRunReport, HtmlHoldsBothPartsInOnePage) {
  const RunResult run;
  const analysis::Comparison comparison;
  const RunReport plan = plan_run_report({Format::html}, run, &comparison);
  EXPECT_EQ(described(plan.results), Lines{"stdout html results comparison"});
  EXPECT_TRUE(plan.verdicts.empty());
  const RunReport out = plan_run_report({Format::junit, "out.xml"}, run, &comparison);
  EXPECT_EQ(described(out.results).front(), "out.xml junit results comparison");
  EXPECT_EQ(described(out.verdicts), (Lines{"stdout text", "stdout console comparison"}));
}

TEST(PlanRunReport, AFormatWithNoFormForAComparisonLeavesItToTheConsole) {
  const RunResult run;
  const analysis::Comparison comparison;
  const RunReport plan = plan_run_report({Format::gbench}, run, &comparison);
  EXPECT_EQ(described(plan.results), Lines{"stdout gbench results"});
  EXPECT_EQ(described(plan.verdicts), (Lines{"stdout text", "stdout console comparison"}));
  EXPECT_TRUE(plan_run_report({Format::gbench, "", "", true}, run, &comparison).verdicts.empty());
}

TEST(PlanComparisonReport, EchoedOutStillShowsTheTableAndSaysWhereTheFileWent) {
  const analysis::Comparison comparison;
  const auto outputs = plan_comparison_report({Format::markdown, "pr.md", "page.html"},
                                              OutStyle::echoed, comparison, nullptr, "TABLE");
  EXPECT_EQ(described(outputs),
            (Lines{"page.html html comparison", "pr.md markdown comparison", "stdout text",
                   "stdout console comparison", "stdout text after pr.md after page.html"}));
  EXPECT_EQ(outputs[2].text, "TABLE\n");
  EXPECT_EQ(outputs.back().text, "written to pr.md\n");
  EXPECT_EQ(described(plan_comparison_report({Format::markdown, "pr.md", "", true},
                                             OutStyle::echoed, comparison, nullptr)),
            Lines{"pr.md markdown comparison"});
}

TEST(PlanComparisonReport, EchoedWithoutOutPrintsTheFormatAloneOrTheConsoleTable) {
  const analysis::Comparison comparison;
  EXPECT_EQ(described(plan_comparison_report({Format::json, "", "", true}, OutStyle::echoed,
                                             comparison, nullptr)),
            Lines{"stdout json comparison"});
  EXPECT_EQ(
      described(plan_comparison_report({Format::console}, OutStyle::echoed, comparison, nullptr)),
      Lines{"stdout console comparison"});
  EXPECT_TRUE(
      plan_comparison_report({.quiet = true}, OutStyle::echoed, comparison, nullptr).empty());
}

TEST(PlanComparisonReport, ReplacedOutTakesStdoutsPlaceAndHtmlShowsTheNewRun) {
  const RunResult run;
  const analysis::Comparison comparison;
  EXPECT_EQ(described(plan_comparison_report({Format::csv, "v.csv", "page.html"},
                                             OutStyle::replaced, comparison, &run)),
            (Lines{"v.csv csv comparison", "page.html html results comparison after v.csv"}));
  EXPECT_EQ(described(plan_comparison_report({Format::html}, OutStyle::replaced, comparison, &run)),
            Lines{"stdout html results comparison"});
  EXPECT_EQ(
      described(plan_comparison_report({Format::console}, OutStyle::replaced, comparison, &run)),
      Lines{"stdout console comparison"});
}

TEST(PlanDocument, TheDocumentGoesToStdoutOrOutAndThePageToHtmlOnceOutWasWritten) {
  const RunResult run;
  const Document document{.results = &run};
  EXPECT_EQ(described(plan_document({Format::markdown}, document, document)),
            Lines{"stdout markdown results"});
  EXPECT_EQ(described(plan_document({Format::csv, "r.csv", "r.html"}, document, document)),
            (Lines{"r.csv csv results", "r.html html results after r.csv"}));
  EXPECT_EQ(described(plan_document({Format::csv, "", "r.html"}, document, document)),
            (Lines{"stdout csv results", "r.html html results"}));
}

TEST(PlanExports, OneFileForEachExportGiven) {
  const RunResult run;
  EXPECT_EQ(described(plan_exports({.json = "r.json", .junit = "r.xml"}, run)),
            (Lines{"r.json json results", "r.xml junit results"}));
  EXPECT_TRUE(plan_exports({}, run).empty());
}

}  // namespace
}  // namespace benchkit::report
