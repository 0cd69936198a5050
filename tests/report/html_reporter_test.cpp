// The HTML page as text: what data it carries, how it is escaped, which sweeps it finds. The
// browser test (tests/browser/report_test.mjs) checks what a browser draws from it.
#include "report/html_reporter.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "report/reporter.hpp"
#include "support/sample_run.hpp"

namespace benchkit::report::html {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The JSON of the <script type="application/json" id="ID"> element.
nlohmann::json script_data(const std::string& page, const std::string& id) {
  const std::string open = "<script type=\"application/json\" id=\"" + id + "\">";
  const std::size_t start = page.find(open);
  EXPECT_NE(start, std::string::npos) << id;
  if (start == std::string::npos) return {};
  const std::size_t begin = start + open.size();
  const std::size_t end = page.find("</script>", begin);
  return nlohmann::json::parse(page.substr(begin, end - begin));
}

BenchmarkResult micro(const std::string& name, double ns_per_iteration, int count = 8) {
  BenchmarkResult b;
  b.name = name;
  for (int i = 0; i < count; ++i) {
    Sample s;
    s.iters = 10;
    s.ns = 10 * ns_per_iteration * (1.0 + 0.001 * i);
    b.samples.push_back(s);
  }
  analysis::compute_estimates(b);
  return b;
}

const char* const kHostile = "</script><img src=x onerror=alert(1)>";

TEST(HtmlReport, EscapesWhatCouldCloseTheScriptElement) {
  EXPECT_EQ(escape_for_script(R"({"name":"</script><b>&"})"),
            R"({"name":"\u003c/script\u003e\u003cb\u003e\u0026"})");
  EXPECT_EQ(escape_for_script("\"\xe2\x80\xa8\xe2\x80\xa9\""), "\"\\u2028\\u2029\"");
  EXPECT_EQ(escape_for_script("\"µ\""), "\"µ\"");
}

TEST(HtmlReport, AHostileNameAppearsOnlyEscapedAndReadsBackWhole) {
  RunResult run = testing::sample_run();
  run.benchmarks.push_back(micro(kHostile, 100));
  const std::string page = make_reporter(Format::html)->render(run);
  EXPECT_THAT(page, Not(HasSubstr("<img")));
  EXPECT_THAT(page, Not(HasSubstr("onerror=alert(1)>")));
  const auto data = script_data(page, "benchkit-data");
  bool found = false;
  for (const auto& row : data["summary"]) found = found || row["name"] == kHostile;
  EXPECT_TRUE(found);
  EXPECT_EQ(script_data(page, "benchkit-detail-2")["name"], kHostile);
}

TEST(HtmlReport, IsOnePageThatLoadsNothing) {
  const std::string page = make_reporter(Format::html)->render(testing::sample_run());
  EXPECT_THAT(page, ::testing::StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(page, HasSubstr("default-src 'none'"));
  EXPECT_THAT(page, Not(HasSubstr("src=\"http")));
  EXPECT_THAT(page, Not(HasSubstr("href=\"http")));
  // The one script runs by its nonce.
  const std::size_t policy = page.find("'nonce-");
  ASSERT_NE(policy, std::string::npos);
  const std::string nonce = page.substr(policy + 7, 16);
  EXPECT_THAT(page, HasSubstr("<script nonce=\"" + nonce + "\">"));
}

TEST(HtmlReport, CarriesTheSamplesOfEachBenchmarkInItsOwnElement) {
  const RunResult run = testing::sample_run();
  const std::string page = make_reporter(Format::html)->render(run);
  const auto data = script_data(page, "benchkit-data");
  EXPECT_EQ(data["details"], 2);
  EXPECT_EQ(data["summary"].size(), 2u);
  EXPECT_EQ(data["summary"][0]["name"], "hash/size=64");
  const auto hash = script_data(page, "benchkit-detail-0");
  ASSERT_EQ(hash["t"].size(), 12u);
  // Per iteration, overhead subtracted: (20 + 50,000) ns - 20 ns over 1,000 iterations.
  EXPECT_DOUBLE_EQ(hash["t"][0].get<double>(), 50.0);
  EXPECT_EQ(hash["fences"].size(), 4u);
  EXPECT_EQ(hash["memory"]["peak_rss_bytes"], 8 << 20);
  // The user counters as every report shows them (the kind applied, with units) and the label.
  EXPECT_EQ(hash["counters"]["bytes"], "1.17 Gi/s");
  EXPECT_EQ(hash["label"], "text payload");
  const auto sort = script_data(page, "benchkit-detail-1");
  EXPECT_EQ(sort["counters"]["ratio"], "2.5");
  EXPECT_FALSE(sort.contains("label"));
  EXPECT_EQ(sort["diagnostics"][0]["code"], "few_samples");
  // The median of (1e6 + i) / 2 over i = 0..5, at six significant digits.
  EXPECT_EQ(sort["per_iteration"]["instructions"], 500001.0);
}

TEST(HtmlReport, MarksTheSamplesTakenWhileTheMachineRanSlow) {
  RunResult run;
  BenchmarkResult b = micro("probed", 100, 20);
  for (std::size_t i = 0; i < b.samples.size(); ++i) {
    b.samples[i].probe_ns = i == 3 || i == 7 ? 1500.0 : 1000.0;
  }
  analysis::compute_estimates(b);
  run.benchmarks.push_back(b);
  const auto detail = script_data(make_reporter(Format::html)->render(run), "benchkit-detail-0");
  EXPECT_EQ(detail["slow"], nlohmann::json::array({3, 7}));
  EXPECT_EQ(detail["estimates"]["slow_samples"], 2);
}

TEST(HtmlReport, PutsRegressionsFirstWithTheirRatios) {
  RunResult base;
  RunResult candidate;
  for (const char* name : {"a", "b", "c"}) {
    base.benchmarks.push_back(micro(name, 100, 30));
    candidate.benchmarks.push_back(micro(name, std::string(name) == "c" ? 150 : 100, 30));
  }
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  const std::string page =
      make_reporter(Format::html)->render({.results = &candidate, .comparison = &comparison});
  const auto data = script_data(page, "benchkit-data");
  EXPECT_EQ(data["summary"][0]["name"], "c");
  EXPECT_EQ(data["summary"][0]["verdict"], "regressed");
  EXPECT_NEAR(data["summary"][0]["ratio"].get<double>(), 1.5, 0.01);
  EXPECT_EQ(data["summary"][0]["detail"], 2);
  EXPECT_EQ(data["comparison"]["benchmarks"][0]["name"], "c");
  EXPECT_EQ(data["comparison"]["threshold"], 0.02);
}

TEST(HtmlReport, AComparisonAloneGivesItsOwnRows) {
  RunResult base;
  base.benchmarks.push_back(micro("only", 100, 30));
  const analysis::Comparison comparison = analysis::compare(base, base);
  const auto data = script_data(make_reporter(Format::html)->render({.comparison = &comparison}),
                                "benchkit-data");
  ASSERT_EQ(data["summary"].size(), 1u);
  EXPECT_EQ(data["summary"][0]["verdict"], "unchanged");
  EXPECT_EQ(data["summary"][0]["detail"], -1);
  EXPECT_EQ(data["details"], 0);
  // The new build's diagnostics are its flags (an empty loop's below_resolution).
  analysis::Comparison flagged = comparison;
  flagged.benchmarks[0].candidate_diagnostics = {"below_resolution"};
  const auto page =
      script_data(make_reporter(Format::html)->render({.comparison = &flagged}), "benchkit-data");
  EXPECT_EQ(page["summary"][0]["flags"], nlohmann::json::array({"below_resolution"}));
}

TEST(HtmlReport, PairedRoundsReachThePlotAsRatios) {
  RunResult base;
  RunResult candidate;
  BenchmarkResult a = micro("paired", 100, 12);
  BenchmarkResult b = micro("paired", 110, 12);
  for (std::size_t i = 0; i < 12; ++i) {
    a.samples[i].round = static_cast<std::uint32_t>(i);
    b.samples[i].round = static_cast<std::uint32_t>(i);
  }
  base.benchmarks.push_back(a);
  candidate.benchmarks.push_back(b);
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  ASSERT_EQ(comparison.benchmarks[0].round_ratios.size(), 12u);
  const auto data = script_data(make_reporter(Format::html)->render({.comparison = &comparison}),
                                "benchkit-data");
  const auto& rounds = data["comparison"]["benchmarks"][0]["rounds"];
  ASSERT_EQ(rounds.size(), 12u);
  EXPECT_NEAR(rounds[0].get<double>(), 1.1, 1e-4);
  EXPECT_FALSE(data["comparison"]["benchmarks"][0].contains("first"));
}

TEST(HtmlReport, RoundsComparedByOrderReachThePlotWithTheirOrders) {
  // Twelve rounds in alternating order, the second process of a round 20% faster.
  RunResult base;
  RunResult candidate;
  BenchmarkResult a = micro("ordered", 100, 12);
  BenchmarkResult b = micro("ordered", 100, 12);
  for (std::uint32_t i = 0; i < 12; ++i) {
    a.samples[i].round = b.samples[i].round = i;
    a.samples[i].turn = i % 2;
    b.samples[i].turn = 1 - i % 2;
    (i % 2 == 0 ? b : a).samples[i].ns *= 0.8;
  }
  base.benchmarks.push_back(a);
  candidate.benchmarks.push_back(b);
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  ASSERT_EQ(comparison.benchmarks[0].baseline_first.size(), 12u);
  const auto data = script_data(make_reporter(Format::html)->render({.comparison = &comparison}),
                                "benchkit-data");
  const auto& row = data["comparison"]["benchmarks"][0];
  ASSERT_EQ(row["first"].size(), 12u);
  EXPECT_TRUE(row["first"][0].get<bool>());
  EXPECT_FALSE(row["first"][1].get<bool>());
  EXPECT_NEAR(row["order"].get<double>(), 0.8, 0.01);
}

TEST(HtmlReport, RendersEveryPartOfADocument) {
  const RunResult run = testing::sample_run();
  const std::vector<model::MachineWarning> warnings = {
      {model::MachineWarningKind::high_load, "the load is high", "wait for it"}};
  const auto data =
      script_data(make_reporter(Format::html)->render({.results = &run, .warnings = &warnings}),
                  "benchkit-data");
  ASSERT_EQ(data["warnings"].size(), 2u);  // the run's own, then the machine's
  EXPECT_EQ(data["warnings"][1]["advice"], "wait for it");
  // The run's own carry their severity: a note ("info") is not shown as a warning.
  EXPECT_EQ(data["warnings"][0]["severity"], run.context.warnings.at(0).severity);
  RunResult noted = run;
  noted.context.warnings = {{"one_process_repetitions", "info", "one process"}};
  const auto note =
      script_data(make_reporter(Format::html)->render({.results = &noted}), "benchkit-data");
  EXPECT_EQ(note["warnings"][0]["severity"], "info");
  bool commit = false;
  for (const auto& row : data["context"]) commit = commit || row[0] == "commit";
  EXPECT_TRUE(commit);
  // The tool of an imported file is named as it is, not as a version of benchkit.
  const auto tool_of = [](const RunResult& r) {
    const auto page =
        script_data(make_reporter(Format::html)->render({.results = &r}), "benchkit-data");
    for (const auto& row : page["context"]) {
      if (row[0] == "tool") return row[1].get<std::string>();
    }
    return std::string();
  };
  RunResult imported = run;
  imported.context.tool_version = "Google Benchmark";
  EXPECT_EQ(tool_of(imported), "Google Benchmark");
  imported.context.tool_version = "0.1.0";
  EXPECT_EQ(tool_of(imported), "benchkit 0.1.0");
}

TEST(Sweeps, OneLinePerValueOfTheOtherParameterAgainstTheNumericOne) {
  RunResult run;
  for (const char* kind : {"text", "random"}) {
    for (int size : {64, 4096, 512}) {
      BenchmarkResult b = micro(fmt::format("hash/kind={}/size={}", kind, size), size);
      b.bytes_per_iteration = static_cast<std::uint64_t>(size);
      analysis::compute_estimates(b);
      run.benchmarks.push_back(b);
    }
  }
  run.benchmarks.push_back(micro("alone/size=1", 1));  // one member: no sweep
  run.benchmarks.push_back(micro("plain", 1));
  const std::vector<LineChart> charts = sweep_charts(run);
  ASSERT_EQ(charts.size(), 2u);  // time and throughput
  const LineChart& time = charts[0];
  EXPECT_EQ(time.title, "hash: time per iteration");
  EXPECT_EQ(time.x_label, "size");
  EXPECT_TRUE(time.log_x);  // 64 to 4096
  ASSERT_EQ(time.series.size(), 2u);
  EXPECT_EQ(time.series[0].name, "kind=text");
  ASSERT_EQ(time.series[0].points.size(), 3u);
  EXPECT_EQ(time.series[0].points[0].x, 64);  // in order of x
  EXPECT_EQ(time.series[0].points[1].x, 512);
  EXPECT_NEAR(time.series[0].points[2].y, 4096 * 1.0035, 0.5);  // the median sample
  EXPECT_EQ(time.series[0].points[2].label, "hash/kind=text/size=4096");
  EXPECT_EQ(charts[1].y_unit, Unit::bytes_per_second);
  ASSERT_TRUE(charts[1].series[0].points[0].lower);
  EXPECT_LT(*charts[1].series[0].points[0].lower, charts[1].series[0].points[0].y);
}

TEST(Sweeps, AParameterThatIsNotANumberIsACategory) {
  RunResult run;
  for (const char* codec : {"zstd", "lz4", "none"}) {
    run.benchmarks.push_back(micro(fmt::format("compress/codec={}", codec), 10));
  }
  const std::vector<LineChart> charts = sweep_charts(run);
  ASSERT_EQ(charts.size(), 1u);  // no work declared: no throughput chart
  EXPECT_EQ(charts[0].categories, (std::vector<std::string>{"zstd", "lz4", "none"}));
  EXPECT_FALSE(charts[0].log_x);
  ASSERT_EQ(charts[0].series.size(), 1u);
  EXPECT_EQ(charts[0].series[0].name, "");
  EXPECT_EQ(charts[0].series[0].points[1].x, 1);
}

TEST(Sweeps, LeavesOutScenarioPhasesAndFailedBenchmarks) {
  RunResult run;
  run.benchmarks.push_back(micro("s/items=1/load", 1));
  run.benchmarks.push_back(micro("s/items=2/load", 2));
  for (BenchmarkResult& b : run.benchmarks) b.kind = "scenario";
  BenchmarkResult failed = micro("f/n=1", 1);
  failed.failures.push_back("verify failed");
  run.benchmarks.push_back(failed);
  run.benchmarks.push_back(micro("f/n=2", 1));
  EXPECT_TRUE(sweep_charts(run).empty());
}

TEST(HtmlReport, ExtraChartSectionsAreCarriedAfterTheSweeps) {
  const RunResult run = testing::sample_run();
  ChartSection trend{"history", "History", "one line per benchmark", {}, {}, {}, {}};
  LineChart chart;
  chart.title = "hash/size=64";
  chart.categories = {"abc123", "def456"};
  chart.series.push_back({"", {{0, 50, 49, 51, "abc123", false}, {1, 60, 59, 61, "def456", true}}});
  trend.charts.push_back(chart);
  const auto data = script_data(render_page({.results = &run}, {trend}), "benchkit-data");
  ASSERT_EQ(data["line_sections"].size(), 1u);  // sample_run has no sweep
  const auto& section = data["line_sections"][0];
  EXPECT_EQ(section["id"], "history");
  EXPECT_EQ(section["charts"][0]["series"][0]["points"][1]["marked"], true);
  EXPECT_EQ(section["charts"][0]["categories"][1], "def456");
}

TEST(HtmlReport, ScenarioPhasesCarryCpuShareAndPeakMemory) {
  const RunResult run = testing::sample_run_with_scenarios();
  const auto data = script_data(make_reporter(Format::html)->render(run), "benchkit-data");
  ASSERT_FALSE(data["scenarios"].empty());
  const auto& phases = data["scenarios"][0]["phases"];
  ASSERT_FALSE(phases.empty());
  EXPECT_TRUE(phases[0].contains("cpu_share"));
  EXPECT_TRUE(phases[0].contains("peak_rss_bytes"));
}

}  // namespace
}  // namespace benchkit::report::html
