// The complexity fits in every output: the console paragraph, the result JSON, Google
// Benchmark's BigO and RMS rows, and the fitted curve of the HTML sweep chart. Golden files:
// console_complexity.txt, markdown_complexity.md, result_complexity.json, gbench_complexity.json
// (regenerate with BENCHKIT_UPDATE_GOLDEN=1 build/tests/benchkit_report_tests).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/complexity.hpp"
#include "analysis/estimates.hpp"
#include "formats/gbench_json.hpp"
#include "formats/result_json.hpp"
#include "report/html_reporter.hpp"
#include "report/reporter.hpp"
#include "support/golden.hpp"

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;

Sample sample(std::uint64_t iters, double ns) {
  Sample s;
  s.iters = iters;
  s.ns = ns;
  return s;
}

// Two sweeps with fixed samples: sort over size (n log n, 5 samples per size, ±1%) and lookup
// over size measured once per size (log n).
RunResult complexity_run() {
  RunResult run;
  run.context.seed = 42;
  const double wobble[] = {1.0, 1.01, 0.99, 1.005, 0.995};
  for (double n = 64; n <= 65536; n *= 4) {
    BenchmarkResult b;
    b.name = fmt::format("sort/size={}", n);
    b.params["size"] = fmt::format("{}", n);
    b.complexity = ComplexityPoint{"sort", "size", n, "auto", std::nullopt};
    for (double w : wobble) b.samples.push_back(sample(100, 100 * 2.0 * n * std::log2(n) * w));
    run.benchmarks.push_back(std::move(b));
  }
  for (double n : {16.0, 1024.0, 65536.0}) {
    BenchmarkResult b;
    b.name = fmt::format("lookup/size={}", n);
    b.params["size"] = fmt::format("{}", n);
    b.complexity = ComplexityPoint{"lookup", "size", n, "lgN", std::nullopt};
    b.samples.push_back(sample(1000, 1000 * 3.0 * std::log2(n)));
    run.benchmarks.push_back(std::move(b));
  }
  analysis::compute_estimates(run);  // and the fits
  return run;
}

TEST(ComplexityOutput, ConsoleMatchesTheGoldenFile) {
  const RunResult run = complexity_run();
  ASSERT_EQ(run.complexity.size(), 2u);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, HasSubstr("sort over size: O(n log n), 2 ns × NlgN"));
  EXPECT_THAT(console, HasSubstr("lookup over size: O(log n), 3 ns × lgN"));
  testing::expect_golden("console_complexity.txt", console);
}

TEST(ComplexityOutput, MarkdownListsEachFitAfterTheTable) {
  const RunResult run = complexity_run();
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_THAT(markdown, HasSubstr("**Complexity**"));
  EXPECT_THAT(markdown, HasSubstr("\n- sort over size: O(n log n), 2 ns × NlgN"));
  EXPECT_THAT(markdown, HasSubstr("\n- lookup over size: O(log n), 3 ns × lgN"));
  // After the table, not inside it.
  EXPECT_GT(markdown.find("**Complexity**"), markdown.rfind("| `lookup/size=65536` |"));
  testing::expect_golden("markdown_complexity.md", markdown);
}

TEST(ComplexityOutput, AnRmsUnderOnePercentIsNotRoundedToNothing) {
  // Google Benchmark's own compare.py input: MyComplexityTest_RMS 0.0045, which read "RMS 0%".
  RunResult run;
  ComplexityResult fit;
  fit.family = "MyComplexityTest";
  fit.param = "N";
  fit.big_o = "N";
  fit.coefficient.value = 6.48;
  fit.rms = 0.004509780251247287;
  fit.source = "Google Benchmark";
  run.complexity.push_back(fit);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, HasSubstr("6.48 ns × N, RMS 0.45% (fitted by Google Benchmark)"));
  run.complexity[0].rms = 0.0521;
  EXPECT_THAT(make_reporter(Format::console)->render(run), HasSubstr("RMS 5% (fitted"));
  // A large coefficient in its unit (less_slow.cpp's sorting sweep read "1.61e+07 ns").
  run.complexity[0].coefficient.value = 1.61e7;
  EXPECT_THAT(make_reporter(Format::console)->render(run), HasSubstr("O(n), 16.1 ms × N"));
}

TEST(ComplexityOutput, ResultJsonCarriesThePointsAndTheFitsAndReadsBack) {
  const RunResult run = complexity_run();
  const std::string json = formats::to_json(run);
  testing::expect_golden("result_complexity.json", json);
  auto back = formats::from_json(json, "result_complexity.json");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->run.complexity.size(), 2u);
  EXPECT_EQ(back->run.complexity[0].big_o, "NlgN");
  EXPECT_DOUBLE_EQ(back->run.complexity[0].coefficient.value, run.complexity[0].coefficient.value);
  ASSERT_TRUE(back->run.benchmarks[0].complexity);
  EXPECT_EQ(back->run.benchmarks[0].complexity->family, "sort");
  EXPECT_EQ(back->run.benchmarks.back().complexity->fit, "lgN");
}

TEST(ComplexityOutput, GbenchWritesBigOAndRmsRowsAfterTheLastSize) {
  const RunResult run = complexity_run();
  const std::string gbench = make_reporter(Format::gbench)->render(run);
  testing::expect_golden("gbench_complexity.json", gbench);
  // Read back as Google Benchmark's: the rows are a fit, not benchmarks.
  auto back = formats::from_gbench_json(gbench, "out.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->benchmarks.size(), run.benchmarks.size());
  ASSERT_EQ(back->complexity.size(), 2u);
  EXPECT_EQ(back->complexity[0].family, "sort");
  EXPECT_EQ(back->complexity[0].big_o, "NlgN");
  EXPECT_NEAR(back->complexity[0].coefficient.value, run.complexity[0].coefficient.value, 1e-9);
  EXPECT_NEAR(back->complexity[0].rms, run.complexity[0].rms, 1e-12);
}

TEST(ComplexityOutput, TheSweepChartHasTheFittedCurve) {
  const RunResult run = complexity_run();
  const std::vector<html::LineChart> charts = html::sweep_charts(run);
  ASSERT_EQ(charts.size(), 2u);  // sort, lookup
  const html::LineChart& sort = charts[0];
  ASSERT_EQ(sort.series.size(), 2u);  // the medians, the fit
  const html::LineSeries& fit = sort.series[1];
  EXPECT_TRUE(fit.fitted);
  EXPECT_EQ(fit.name, "sort fit: O(n log n)");
  // At each size and four points between sizes: 6 sizes, 5 gaps.
  ASSERT_EQ(fit.points.size(), 6u + 5u * 4u);
  EXPECT_NEAR(fit.points.front().y, run.complexity[0].coefficient.value * 64 * 6, 1e-6);
  const std::string page = make_reporter(Format::html)->render(run);
  EXPECT_THAT(page, HasSubstr("\"fitted\":true"));
}

}  // namespace
}  // namespace benchkit::report
