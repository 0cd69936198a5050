// JUnit XML: golden files for a run, a comparison and a noise report (tests/golden/*.junit.xml;
// tests/scripts/junit_check.py parses them and checks their structure), and what becomes a
// failure and an error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"
#include "support/golden.hpp"
#include "support/sample_run.hpp"

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;

using benchkit::testing::micro_result;

// Regressed, improved, unchanged, invalid, added and removed, with fixed samples.
analysis::Comparison fixed_comparison() {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {micro_result("slower", 100), micro_result("faster", 100),
                     micro_result("same", 100), micro_result("broken", 100),
                     micro_result("gone", 100)};
  candidate.benchmarks = {micro_result("slower", 130), micro_result("faster", 70),
                          micro_result("same", 100), micro_result("broken", 100),
                          micro_result("new<&>", 100)};
  candidate.benchmarks[3].failures.push_back("verify failed: 3 rows missing");
  candidate.benchmarks[0].diagnostics.push_back({"drift", "warning", "times grow"});
  return analysis::compare(base, candidate);
}

TEST(Junit, GoldenResults) {
  RunResult run = testing::sample_run();
  BenchmarkResult crashed;
  crashed.name = "crashes";
  crashed.failure = Failure{Failure::Cause::crashed, 11, std::nullopt, "about to crash\n"};
  crashed.failures.push_back("crashed: SIGSEGV");
  run.benchmarks.push_back(crashed);
  testing::expect_golden("results.junit.xml", make_reporter(Format::junit)->render(run));
}

TEST(Junit, GoldenComparison) {
  const analysis::Comparison comparison = fixed_comparison();
  testing::expect_golden("comparison.junit.xml",
                         make_reporter(Format::junit)->render({.comparison = &comparison}));
}

TEST(Junit, GoldenNoise) {
  RunResult processes;
  BenchmarkResult steady;
  steady.name = "steady";
  for (double ns : {1000.0, 1001.0, 999.0, 1002.0, 998.0, 1000.5}) {
    Sample sample;
    sample.ns = ns;
    sample.process = static_cast<std::uint32_t>(steady.samples.size());
    steady.samples.push_back(sample);
  }
  processes.benchmarks.push_back(steady);
  NoiseReport noise;
  noise.subject = "./my_bench";
  noise.analysis = analysis::analyse_noise(processes);
  testing::expect_golden("noise.junit.xml",
                         make_reporter(Format::junit)->render({.noise = &noise}));
}

TEST(Junit, ARegressionIsAFailureAndAnInvalidResultAnError) {
  const analysis::Comparison comparison = fixed_comparison();
  const std::string xml = make_reporter(Format::junit)->render({.comparison = &comparison});
  EXPECT_THAT(xml, HasSubstr("tests=\"6\" failures=\"1\" errors=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<failure message=\"regressed: +30.0%"));
  EXPECT_THAT(xml, HasSubstr("<error message=\"invalid: "));
  EXPECT_THAT(xml, HasSubstr("name=\"new&lt;&amp;&gt;\""));
}

TEST(Junit, ResultsAndComparisonAreTwoSuitesOfOneDocument) {
  const RunResult run = testing::sample_run();
  const analysis::Comparison comparison = analysis::compare(run, run);
  const std::string xml =
      make_reporter(Format::junit)->render({.results = &run, .comparison = &comparison});
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"benchkit.results\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"benchkit.comparison\""));
  EXPECT_EQ(xml.find("<?xml"), 0u);
}

TEST(Junit, ControlCharactersCannotBreakTheDocument) {
  RunResult run;
  run.benchmarks.push_back(micro_result("bell\x07name", 10));
  const std::string xml = make_reporter(Format::junit)->render(run);
  EXPECT_THAT(xml, HasSubstr("name=\"bell?name\""));
}

// A name that is not UTF-8 made a document no XML parser reads (hostile_input.py); UTF-8 stays.
TEST(Junit, BytesThatAreNotUtf8BecomeQuestionMarks) {
  RunResult run;
  run.benchmarks.push_back(
      micro_result("bad\xff"
                   "name \xc3\xa9 \xe2\x80",
                   10));
  const std::string xml = make_reporter(Format::junit)->render(run);
  EXPECT_THAT(xml, HasSubstr("name=\"bad?name \xc3\xa9 ??\""));
}

}  // namespace
}  // namespace benchkit::report
