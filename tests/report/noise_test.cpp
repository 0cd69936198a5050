#include "report/noise.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cmath>

#include <nlohmann/json.hpp>

#include "support/golden.hpp"

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A benchmark whose process p has the single sample `medians[p]` ns (one iteration).
BenchmarkResult benchmark(const std::string& name, const std::vector<double>& medians) {
  BenchmarkResult result;
  result.name = name;
  for (std::size_t p = 0; p < medians.size(); ++p) {
    Sample sample;
    sample.ns = medians[p];
    sample.process = static_cast<std::uint32_t>(p);
    result.samples.push_back(sample);
  }
  return result;
}

// Ten processes: a steady benchmark (±0.2%), one that moves a few percent, one that cannot be
// analysed.
NoiseReport fixed_report() {
  RunResult run;
  run.benchmarks.push_back(
      benchmark("steady", {1000, 1001, 999, 1002, 998, 1000.5, 999.5, 1001.5, 998.5, 1000}));
  run.benchmarks.push_back(benchmark(
      "moving|pipe", {20e3, 20.6e3, 19.5e3, 21e3, 20.2e3, 19.8e3, 20.4e3, 19.9e3, 20.1e3, 20.8e3}));
  run.benchmarks.push_back(benchmark("single", {5}));
  run.context.warnings.push_back({"virtual_machine", "warning", "running in a virtual machine"});
  NoiseReport report;
  report.subject = "./my_bench";
  report.example = "./my_bench --baseline NAME";
  report.analysis = analysis::analyse_noise(run);
  report.warnings = run.context.warnings;
  return report;
}

TEST(NoiseReport, ConsoleGolden) {
  testing::expect_golden("noise.txt", render_noise(fixed_report(), Format::console));
}

TEST(NoiseReport, MarkdownGolden) {
  testing::expect_golden("noise.md", render_noise(fixed_report(), Format::markdown));
}

TEST(NoiseReport, JsonGolden) {
  testing::expect_golden("noise.json", render_noise(fixed_report(), Format::json));
}

TEST(NoiseReport, CsvGolden) {
  testing::expect_golden("noise.csv", render_noise(fixed_report(), Format::csv));
}

TEST(NoiseReport, TheTableAndSummaryAgreeWithTheAnalysis) {
  const NoiseReport report = fixed_report();
  const std::string text = render_noise(report, Format::console);
  const auto& suite = *report.analysis.recommendation;
  const std::string flags =
      fmt::format("--processes {} --noise-threshold {:.3f}", suite.processes, suite.threshold);
  EXPECT_THAT(text, HasSubstr("./my_bench --baseline NAME " + flags));
  EXPECT_EQ(suite.set_by, "moving|pipe");
  const auto& moving = report.analysis.benchmarks[1];
  EXPECT_THAT(text, HasSubstr(fmt::format("{:.1f}%", moving.spread * 100.0)));
  EXPECT_THAT(
      text, HasSubstr(fmt::format("±{:.1f}%",
                                  analysis::round_threshold_up(moving.at(3)->threshold) * 100.0)));
  EXPECT_THAT(text, HasSubstr("single: ran in a single process"));
  EXPECT_THAT(text, HasSubstr("warning: running in a virtual machine"));

  const auto document = nlohmann::json::parse(render_noise(report, Format::json));
  EXPECT_EQ(document["schema"], "benchkit/noise");
  EXPECT_EQ(document["version"], 1);
  EXPECT_EQ(document["processes"], 10);
  EXPECT_EQ(document["recommendation"]["processes"], suite.processes);
  EXPECT_DOUBLE_EQ(document["recommendation"]["noise_threshold"].get<double>(), suite.threshold);
  EXPECT_EQ(document["benchmarks"][0]["thresholds"].size(), 4u);  // 1, 2, 3, 5
  EXPECT_EQ(document["benchmarks"][0]["thresholds"][0]["splits"], 45);
  EXPECT_FALSE(document["benchmarks"][2].contains("thresholds"));
}

TEST(NoiseReport, SummarySaysWhenTheTargetIsMet) {
  RunResult run;
  run.benchmarks.push_back(benchmark("steady", {1000, 1001, 999, 1000.5, 999.5, 1000}));
  NoiseReport report;
  report.subject = "./b";
  report.analysis = analysis::analyse_noise(run);
  const std::string summary = noise_summary(report);
  EXPECT_THAT(summary, HasSubstr("compare with --processes 1 --noise-threshold 0.00"));
  EXPECT_THAT(summary, HasSubstr("1 process a side is the fewest"));
  EXPECT_THAT(summary, Not(HasSubstr("quieter machine")));
}

TEST(NoiseReport, SummaryRefusesThresholdsAComparisonCannotTake) {
  RunResult run;
  run.benchmarks.push_back(benchmark("wild", {1000, 3000, 500, 2000, 800}));
  NoiseReport report;
  report.subject = "./b";
  report.example = "./b --baseline NAME";
  report.analysis = analysis::analyse_noise(run);
  ASSERT_GT(report.analysis.recommendation->threshold, 1.0);
  std::string summary = noise_summary(report);
  EXPECT_THAT(summary, HasSubstr("wild needs a threshold of >±1000%"));
  EXPECT_THAT(summary, HasSubstr("No threshold a comparison accepts"));
  EXPECT_THAT(summary, Not(HasSubstr("--noise-threshold")));
  EXPECT_THAT(summary, HasSubstr("quieter machine"));
  // Past 1000% the text caps the digits; the JSON keeps the number.
  ASSERT_GT(report.analysis.benchmarks[0].at(1)->threshold, 10.0);
  EXPECT_THAT(render_noise(report, Format::console), HasSubstr(">±1000%"));
  const auto document = nlohmann::json::parse(render_noise(report, Format::json));
  EXPECT_GT(document["benchmarks"][0]["thresholds"][0]["noise_threshold"].get<double>(), 10.0);

  // With a steady benchmark beside it: the flags for the rest of the suite.
  run.benchmarks.push_back(benchmark("steady", {1000, 1001, 999, 1000.5, 999.5}));
  report.analysis = analysis::analyse_noise(run);
  summary = noise_summary(report);
  EXPECT_THAT(summary, HasSubstr("(the others ±"));
  EXPECT_THAT(summary, HasSubstr("Without it, compare with ./b --baseline NAME --processes 3 "
                                 "--noise-threshold 0.0"));
}

// The processes of a Google Benchmark suite: its builds are compared side by side, which the
// summary says instead of flags such a binary does not have.
TEST(NoiseReport, AGoogleBenchmarkSuiteIsToldToCompareSideBySide) {
  RunResult run;
  run.benchmarks.push_back(benchmark("BM_Raw_Decode", {1000, 1400, 1000, 1390, 1010}));
  NoiseReport report;
  report.subject = "fb_run.json";
  report.example = "BENCH_BINARY --baseline NAME";
  report.side_by_side = true;
  report.analysis = analysis::analyse_noise(run);
  const std::string summary = noise_summary(report);
  EXPECT_THAT(summary, HasSubstr("compared side by side (benchkit compare OLD_BINARY "
                                 "NEW_BINARY)"));
  EXPECT_THAT(summary, Not(HasSubstr("--baseline")));
  EXPECT_THAT(summary, Not(HasSubstr("--processes 3")));
  EXPECT_THAT(summary, Not(HasSubstr("quieter machine")));
}

TEST(NoiseReport, NothingToAnalyseIsSaid) {
  RunResult run;
  run.benchmarks.push_back(benchmark("single", {5}));
  NoiseReport report;
  report.subject = "./b";
  report.analysis = analysis::analyse_noise(run);
  EXPECT_THAT(noise_summary(report), HasSubstr("--processes 3 or more"));
  EXPECT_THAT(render_noise(report, Format::console), HasSubstr("see note"));
}

}  // namespace
}  // namespace benchkit::report
