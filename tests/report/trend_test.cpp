// `history trend` rendered: the HTML chart data of each benchmark (its points, intervals, hover
// text and change points), the page around it, and the JSON and console forms.
#include "report/trend.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "report/history_snapshot.hpp"

namespace benchkit::report {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

analysis::HistoryPoint point(std::string commit, std::string date, double median) {
  return {.run_id = "0123456789abcdef0123456789abcdef",
          .commit = std::move(commit),
          .date = std::move(date),
          .median = median,
          .lower = median * 0.99,
          .upper = median * 1.01};
}

// The change column's text is fmt's {:+.1f}% bit for bit: seeded random changes of every
// magnitude, exact ties of the last digit (0.25%, 0.35%... as binary doubles round them), zeros
// of both signs, and what is not finite.
TEST(TrendText, ChangePercentIsWhatFmtWrites) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> exponent(-12, 6);
  std::vector<double> changes = {0.0,
                                 -0.0,
                                 0.0025,
                                 -0.0025,
                                 0.0035,
                                 0.00049999,
                                 0.0005,
                                 -0.0005,
                                 1e-300,
                                 -1e300,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN()};
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = std::pow(10.0, exponent(random));
    changes.push_back(random() % 2 == 0 ? magnitude : -magnitude);
  }
  for (int tenths = -2000; tenths <= 2000; ++tenths) changes.push_back(tenths * 0.0005);
  for (const double change : changes) {
    ASSERT_EQ(change_percent(change), fmt::format("{:+.1f}%", change * 100.0)) << change;
  }
}

analysis::Trend made_trend() {
  analysis::BenchmarkTrend parse{.name = "parse", .points = {}};
  parse.points.push_back(point("aaaaaaaaaaaaaaaa1111", "2026-11-01T00:00:00Z", 100));
  parse.points.push_back(point("bbbbbbbbbbbbbbbb2222", "2026-11-02T00:00:00Z", 101));
  parse.points.push_back(point("", "2026-11-03T00:00:00Z", 110));
  parse.points[1].change = 0.01;
  parse.points[2].change = 110.0 / 101.0 - 1.0;
  parse.points[2].change_point = true;
  parse.points[2].p_value = 0.0001;
  analysis::BenchmarkTrend hostile{.name = "</script><img src=x onerror=alert(1)>", .points = {}};
  hostile.points.push_back(point("cccccccccccccccc3333", "2026-11-01T00:00:00Z", 5));
  return {.machine = "m1", .branch = "main", .benchmarks = {parse, hostile}};
}

TEST(TrendCharts, AChartPerBenchmarkAPointPerCommitChangePointsMarked) {
  const html::ChartSection section = trend_charts(made_trend());
  EXPECT_EQ(section.id, "history");
  EXPECT_THAT(section.intro, HasSubstr("machine m1 on branch main"));
  ASSERT_EQ(section.charts.size(), 2u);
  const html::LineChart& chart = section.charts[0];
  EXPECT_EQ(chart.title, "parse");
  EXPECT_EQ(chart.y_unit, html::Unit::nanoseconds);
  // The axis: 7 hex digits of each commit; a run without a commit by its identity.
  EXPECT_THAT(chart.categories, ElementsAre("aaaaaaa", "bbbbbbb", "run 0123456"));
  ASSERT_EQ(chart.series.size(), 1u);
  const auto& points = chart.series[0].points;
  ASSERT_EQ(points.size(), 3u);
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].x, static_cast<double>(i));
  EXPECT_EQ(points[1].y, 101);
  EXPECT_DOUBLE_EQ(*points[1].lower, 101 * 0.99);
  EXPECT_DOUBLE_EQ(*points[1].upper, 101 * 1.01);
  EXPECT_FALSE(points[0].marked);
  EXPECT_FALSE(points[1].marked);
  EXPECT_TRUE(points[2].marked);
  // The hover text: 12 hex digits of the commit, the date, the change, a change point's p.
  EXPECT_EQ(points[0].label, "aaaaaaaaaaaa · 2026-11-01T00:00:00Z");
  EXPECT_EQ(points[1].label, "bbbbbbbbbbbb · 2026-11-02T00:00:00Z · +1.0%");
  EXPECT_EQ(points[2].label,
            "(run 01234567) · 2026-11-03T00:00:00Z · +8.9% · change point (p=0.0001)");
}

TEST(TrendCharts, SaysWhenNoBenchmarkMatches) {
  const html::ChartSection section = trend_charts({.machine = "m1", .branch = "main"});
  EXPECT_TRUE(section.charts.empty());
  EXPECT_EQ(section.intro, "No benchmark matches.");
}

// The page's data element, parsed back as the page's script parses it.
nlohmann::json page_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"benchkit-data\">";
  const std::size_t start = page.find(open);
  EXPECT_NE(start, std::string::npos);
  const std::size_t end = page.find("</script>", start);
  return nlohmann::json::parse(page.substr(start + open.size(), end - start - open.size()));
}

TEST(TrendPage, CarriesTheChartsAsEscapedData) {
  const std::string page = render_trend(made_trend(), Format::html);
  EXPECT_THAT(page, Not(HasSubstr("<img")));
  const nlohmann::json data = page_data(page);
  ASSERT_EQ(data["line_sections"].size(), 1u);
  const nlohmann::json& section = data["line_sections"][0];
  EXPECT_EQ(section["id"], "history");
  ASSERT_EQ(section["charts"].size(), 2u);
  EXPECT_EQ(section["charts"][1]["title"], "</script><img src=x onerror=alert(1)>");
  const nlohmann::json& points = section["charts"][0]["series"][0]["points"];
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2]["marked"], true);
  EXPECT_FALSE(points[1].contains("marked"));
  EXPECT_EQ(points[1]["lo"], 99.99);
  EXPECT_EQ(points[1]["label"], "bbbbbbbbbbbb · 2026-11-02T00:00:00Z · +1.0%");
  EXPECT_EQ(section["charts"][0]["categories"][2], "run 0123456");
  EXPECT_TRUE(data["summary"].empty());  // a trend alone has no summary table
}

TEST(TrendPage, TheSnapshotAddsTheComparisonAndNamesTheRunsCompared) {
  analysis::HistorySnapshot snapshot;
  snapshot.since = "2026-11-01";
  snapshot.machine = "m1";
  snapshot.branch = "main";
  snapshot.runs = {{.id = "11111111111111111111", .date = "2026-11-01", .commit = "aaaa"},
                   {.id = "22222222222222222222", .date = "2026-11-03", .commit = ""}};
  snapshot.trend = made_trend();
  analysis::BenchmarkComparison compared;
  compared.name = "parse";
  compared.verdict = analysis::Verdict::regressed;
  snapshot.comparison.benchmarks.push_back(compared);
  const nlohmann::json data = page_data(render_snapshot_html(snapshot));
  EXPECT_EQ(data["compared"], true);
  ASSERT_EQ(data["summary"].size(), 1u);
  EXPECT_EQ(data["summary"][0]["verdict"], "regressed");
  const nlohmann::json& section = data["line_sections"][0];
  EXPECT_EQ(section["title"], "History since 2026-11-01");
  const std::string intro = section["intro"];
  EXPECT_THAT(intro, HasSubstr("run 111111111111 (commit aaaa, 2026-11-01)"));
  EXPECT_THAT(intro, HasSubstr("run 222222222222 (commit none, 2026-11-03)"));
  EXPECT_EQ(section["charts"].size(), 2u);
}

TEST(TrendText, JsonAndConsoleMarkTheChangePoint) {
  const auto json = nlohmann::json::parse(render_trend(made_trend(), Format::json));
  EXPECT_EQ(json["schema"], "benchkit/trend");
  const auto& points = json["benchmarks"][0]["points"];
  EXPECT_EQ(points[2]["change_point"], true);
  EXPECT_EQ(points[0]["change"], nullptr);
  const std::string console = render_trend(made_trend(), Format::console);
  EXPECT_THAT(console, HasSubstr("◆ change point (p=0.0001)"));
  EXPECT_THAT(
      console,
      HasSubstr("  bbbbbbbbbbbb    2026-11-02T00:00:00Z  101 ns  100.0 ns … 102 ns   +1.0%\n"));
}

// A benchmark's console table, its cells written into the table with the widths they are known
// to have, is the table render_table makes of the same cells measured one by one: every unit
// (µ two bytes, one column), not-a-number, numbers too long for the digits' buffer, dates and
// commits of other widths (UTF-8, empty, run identities), changes and change points; seeded.
TEST(TrendText, TheConsoleTableIsTheTableOfItsCellsMeasured) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> exponent(-2, 13);
  const std::vector<std::string> commits = {"aaaaaaaaaaaaaaaa1111", "", "ééééééé", "abc"};
  const std::vector<std::string> dates = {"2026-11-01T00:00:00Z", "", "2026-11-01 ünïcode"};
  for (int round = 0; round < 200; ++round) {
    analysis::BenchmarkTrend benchmark{.name = fmt::format("b{}", round), .points = {}};
    std::vector<std::vector<std::string>> rows;
    for (int i = 0; i < 1 + round % 30; ++i) {
      const double median = std::pow(10.0, exponent(random));
      analysis::HistoryPoint one =
          point(commits[random() % commits.size()], dates[random() % dates.size()], median);
      if (random() % 17 == 0) one.upper = std::numeric_limits<double>::quiet_NaN();
      if (random() % 29 == 0) one.lower = 1e300;
      if (i > 0) one.change = std::pow(10.0, exponent(random) - 8) * (random() % 2 ? 1 : -1);
      if (random() % 5 == 0) {
        one.change_point = true;
        one.p_value = std::pow(10.0, -exponent(random));
      }
      std::string commit =
          one.commit.empty() ? "(run " + one.run_id.substr(0, 8) + ")" : one.commit.substr(0, 12);
      rows.push_back(
          {commit, one.date, format_duration(one.median),
           format_duration(one.lower) + " … " + format_duration(one.upper),
           one.change ? change_percent(*one.change) : "",
           one.change_point ? fmt::format("◆ change point (p={:.2g})", one.p_value) : ""});
      benchmark.points.push_back(std::move(one));
    }
    const std::string expected =
        fmt::format("\n{} ({} commit{})\n", benchmark.name, benchmark.points.size(),
                    benchmark.points.size() == 1 ? "" : "s") +
        render_table({"commit", "date", "median", "95% CI", "change", ""}, rows,
                     {false, false, true, true, true, false}, "  ");
    ASSERT_EQ(trend_part(benchmark, Format::console), expected) << round;
  }
}

// A benchmark named like a formula is a text cell with a ' in front (OWASP's CSV injection); a
// fall in speed, a negative change, stays a number a spreadsheet can sum.
TEST(TrendCsv, AFormulaNameIsTextANegativeChangeANumber) {
  analysis::BenchmarkTrend trend{.name = "=1+1", .points = {}};
  trend.points.push_back(point("aaaa", "2026-11-01T00:00:00Z", 100));
  trend.points.push_back(point("bbbb", "2026-11-02T00:00:00Z", 97));
  trend.points[1].change = -0.03;
  const std::string csv =
      render_trend({.machine = "m1", .branch = "main", .benchmarks = {trend}}, Format::csv);
  EXPECT_THAT(csv, HasSubstr("\n\"'=1+1\",aaaa,"));
  EXPECT_THAT(csv, HasSubstr(",-0.03,false\n"));
  EXPECT_THAT(csv, Not(HasSubstr("'-")));
}

}  // namespace
}  // namespace benchkit::report
