// The Markdown comparison, for pull-request comments: its golden file (tests/golden/
// comparison.md), its layout, and its length limit.
#include "report/comparison.hpp"

#include <cmath>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/estimates.hpp"
#include "formats/gbench_json.hpp"
#include "support/golden.hpp"
#include "support/interop_fixture.hpp"
#include "support/sample_run.hpp"

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using benchkit::testing::micro_result;

analysis::Comparison comparison_of(std::size_t unchanged, std::size_t regressed,
                                   const std::string& prefix = "bench") {
  RunResult base;
  RunResult candidate;
  for (std::size_t i = 0; i < unchanged + regressed; ++i) {
    const std::string name = fmt::format("{}/case={}/size={}", prefix, i, 64 << (i % 8));
    base.benchmarks.push_back(micro_result(name, 100));
    candidate.benchmarks.push_back(micro_result(name, i < regressed ? 140 : 100));
  }
  return analysis::compare(base, candidate);
}

TEST(MarkdownComparison, Golden) {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {micro_result("slower", 100), micro_result("faster", 100),
                     micro_result("same", 100), micro_result("few", 100, 3),
                     micro_result("gone|pipe", 100)};
  candidate.benchmarks = {micro_result("slower", 130), micro_result("faster", 70),
                          micro_result("same", 100), micro_result("few", 104, 3),
                          micro_result("added", 100)};
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  testing::expect_golden("comparison.md", render_comparison(comparison, Format::markdown));
}

TEST(MarkdownComparison, VerdictsFirstThenChangedThenTheRestCollapsed) {
  const analysis::Comparison comparison = comparison_of(3, 1);
  const std::string text = render_comparison(comparison, Format::markdown);
  EXPECT_THAT(text, StartsWith("**1 regressed, 0 improved, 0 inconclusive, 3 unchanged**"));
  const std::size_t regressed = text.find("**regressed**");
  const std::size_t details = text.find("<details><summary>3 other benchmarks");
  const std::size_t unchanged = text.find("| unchanged |");
  ASSERT_NE(regressed, std::string::npos);
  ASSERT_NE(details, std::string::npos);
  EXPECT_LT(regressed, details);
  EXPECT_LT(details, unchanged);
  EXPECT_THAT(text, HasSubstr("</details>"));
  EXPECT_THAT(text, HasSubstr("<sub>noise threshold ±2.0%"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("Truncated")));
}

TEST(MarkdownComparison, NothingChangedSaysSo) {
  const std::string text = render_comparison(comparison_of(2, 0), Format::markdown);
  EXPECT_THAT(text, HasSubstr("No benchmark regressed or improved beyond the noise threshold."));
}

TEST(MarkdownComparison, FiveThousandBenchmarksStayUnderTheCommentLimit) {
  const analysis::Comparison comparison = comparison_of(4990, 10);
  const std::string text = render_comparison(comparison, Format::markdown);
  EXPECT_LE(text.size(), kMarkdownCommentLimit);
  EXPECT_THAT(text, HasSubstr("*Truncated: "));
  EXPECT_THAT(text, HasSubstr("characters; the full comparison is in --format json or html.*"));
  // The regressions are never the rows left out.
  std::size_t shown = 0;
  for (std::size_t at = text.find("**regressed**"); at != std::string::npos;
       at = text.find("**regressed**", at + 1)) {
    ++shown;
  }
  EXPECT_EQ(shown, 10u);
  EXPECT_THAT(text, HasSubstr("</details>"));
}

TEST(ConsoleComparison, ARowWithoutAVerdictOfOneProcessASideShowsNoIntervalAndNoP) {
  // Two Google Benchmark files: each side's repetitions ran in one process, so analysis::compare
  // keeps the change and gives no interval, test or verdict.
  auto base = formats::from_gbench_json(testing::interop_fixture("gbench_repetitions.json"), "a");
  ASSERT_TRUE(base) << base.error().message;
  RunResult candidate = *base;
  for (BenchmarkResult& b : candidate.benchmarks) {
    for (Sample& sample : b.samples) sample.ns *= 1.1;
  }
  analysis::compute_estimates(*base);
  analysis::compute_estimates(candidate);
  const analysis::Comparison comparison = analysis::compare(*base, candidate);
  const std::string text = render_comparison(comparison, Format::console);
  const auto row = text.find("BM_copy/64 ");
  ASSERT_NE(row, std::string::npos) << text;
  const std::string line = text.substr(row, text.find('\n', row) - row);
  EXPECT_THAT(line, HasSubstr("+10.0%  none"));
  EXPECT_THAT(line, ::testing::Not(HasSubstr("[+10.0%, +10.0%]")));
  EXPECT_THAT(line, ::testing::Not(HasSubstr("1.000")));
  EXPECT_THAT(line, HasSubstr("inconclusive"));
}

TEST(ConsoleComparison, ANoteSaidAlikeOfSeveralRowsIsPrintedOnce) {
  analysis::Comparison comparison;
  for (const char* name : {"a/1", "a/2", "a/3"}) {
    analysis::BenchmarkComparison row;
    row.name = name;
    row.note = "each side is one process of the suite";
    comparison.benchmarks.push_back(row);
  }
  comparison.benchmarks[2].note = "another note";
  const std::string console = render_comparison(comparison, Format::console);
  EXPECT_THAT(console, HasSubstr("2 benchmarks (a/1 and 1 more) [inconclusive]: each side is one "
                                 "process of the suite\n"));
  EXPECT_THAT(console, HasSubstr("a/3 [inconclusive]: another note\n"));
  EXPECT_THAT(console, ::testing::Not(HasSubstr("a/2 [inconclusive]")));
  const std::string markdown = render_comparison(comparison, Format::markdown);
  EXPECT_THAT(markdown, HasSubstr("- 2 benchmarks (`a/1` and 1 more): each side is one process"));
}

TEST(ConsoleComparison, ABenchmarkOfOneBuildAloneThatNeverRanShowsNoTime) {
  // Side by side, a benchmark only one build has is not run: its row has no time (not "0 ns").
  RunResult base;
  RunResult candidate;
  base.benchmarks = {micro_result("kept", 100), micro_result("old name", 100)};
  candidate.benchmarks = {micro_result("kept", 100), micro_result("new name", 100)};
  analysis::Comparison comparison = analysis::compare(base, candidate);
  for (analysis::BenchmarkComparison& row : comparison.benchmarks) {
    if (row.name != "kept") {
      row.baseline_median = 0.0;
      row.candidate_median = 0.0;
    }
  }
  const auto line_of = [](const std::string& text, const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? std::string()
                                   : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  const std::string text = render_comparison(comparison, Format::console);
  EXPECT_THAT(line_of(text, "new name"), HasSubstr("added")) << text;
  EXPECT_THAT(line_of(text, "new name"), ::testing::Not(HasSubstr("ns"))) << text;
  EXPECT_THAT(line_of(text, "old name"), HasSubstr("removed")) << text;
  EXPECT_THAT(line_of(text, "old name"), ::testing::Not(HasSubstr("ns"))) << text;
  // A side that did run keeps its time.
  comparison.benchmarks.back().baseline_median = 250.0;
  EXPECT_THAT(line_of(render_comparison(comparison, Format::console), "old name"),
              HasSubstr("250 ns"));
}

// A benchmark that failed before it measured anything (snappy's BM_UFlat/1/1 without its input
// file) is `failed` in the console and Markdown tables and has empty times in CSV, not 0 ns.
TEST(ConsoleComparison, ABenchmarkThatFailedBeforeMeasuringShowsFailedNotATime) {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {micro_result("ran", 100), micro_result("BM_UFlat/1/1", 100)};
  candidate.benchmarks = {micro_result("ran", 100), micro_result("BM_UFlat/1/1", 100)};
  for (RunResult* run : {&base, &candidate}) {
    BenchmarkResult& failed = run->benchmarks.back();
    failed.samples.clear();
    failed.estimates = {};
    failed.failure = Failure{Failure::Cause::exited, std::nullopt, 1,
                             "testdata/urls.10K: No such file or directory"};
    failed.failures = {"exited with status 1: testdata/urls.10K: No such file or directory"};
  }
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  const std::string text = render_comparison(comparison, Format::console);
  const auto at = text.find("\nBM_UFlat/1/1 ");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  EXPECT_THAT(line, HasSubstr("failed")) << text;
  EXPECT_THAT(line, HasSubstr("invalid")) << text;
  EXPECT_THAT(line, ::testing::Not(HasSubstr("0 ns"))) << text;
  EXPECT_THAT(render_comparison(comparison, Format::markdown),
              HasSubstr("| `BM_UFlat/1/1` | failed | failed |"));
  EXPECT_THAT(render_comparison(comparison, Format::csv), HasSubstr("BM_UFlat/1/1,,,"));
}

}  // namespace
}  // namespace benchkit::report

namespace benchkit::report {
namespace {

// Twelve rounds with a machine that changes speed from round to round, the same for both sides.
BenchmarkResult in_rounds(const std::string& name, double factor, double odd_rounds = 1.0) {
  BenchmarkResult b;
  b.name = name;
  for (std::uint32_t round = 0; round < 12; ++round) {
    for (int k = 0; k < 5; ++k) {
      Sample s;
      s.iters = 100;
      s.ns = 100 * 100.0 * factor * (1.0 + 0.02 * static_cast<double>(round % 4)) *
             (round % 2 == 1 ? odd_rounds : 1.0);
      s.round = round;
      s.process = round;
      b.samples.push_back(s);
    }
  }
  analysis::compute_estimates(b);
  return b;
}

TEST(PairedComparison, JsonKeepsTheRoundRatiosAndTheTableSaysWhereTheChangeComesFrom) {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {in_rounds("r", 1.0)};
  candidate.benchmarks = {in_rounds("r", 1.05, 1.01)};  // odd rounds 1% slower still
  const analysis::Comparison comparison = analysis::compare(base, candidate);
  ASSERT_EQ(comparison.benchmarks.front().design, analysis::Design::paired);
  const auto json = nlohmann::json::parse(render_comparison(comparison, Format::json));
  const auto& row = json["benchmarks"][0];
  ASSERT_EQ(row["round_ratios"].size(), 12u);
  EXPECT_NEAR(row["round_ratios"][0].get<double>(), 1.05, 1e-9);
  EXPECT_NEAR(row["round_ratios"][1].get<double>(), 1.05 * 1.01, 1e-9);
  // Log ratios alternate ln 1.05 and ln 1.0605: deviations ±ln(1.01)/2 over 11 degrees of
  // freedom.
  EXPECT_NEAR(row["round_scatter"].get<double>(), std::log(1.01) / 2 * std::sqrt(12.0 / 11.0),
              1e-9);
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("from the rounds' paired ratios"));
  // Independent samples: no such line.
  EXPECT_THAT(render_comparison(comparison_of(2, 1), Format::console),
              ::testing::Not(HasSubstr("paired ratios")));
  // No row read as a crossover: nothing said about the order.
  EXPECT_THAT(render_comparison(comparison, Format::console),
              ::testing::Not(HasSubstr("crossover")));
}

TEST(PairedComparison, TheTableSaysWhichRowsWereComparedByTheOrderOfTheirRounds) {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {in_rounds("r", 1.0), in_rounds("s", 1.0)};
  candidate.benchmarks = {in_rounds("r", 1.05), in_rounds("s", 1.0)};
  analysis::Comparison comparison = analysis::compare(base, candidate);
  ASSERT_EQ(comparison.benchmarks.size(), 2u);
  // As analysis::compare leaves a row whose rounds' two orders differed (compare_test.cpp).
  for (analysis::BenchmarkComparison& row : comparison.benchmarks) {
    row.baseline_first.assign(row.pairs, true);
    row.order_ratio = row.name == "r" ? 0.79 : 1.06;
  }
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("2 benchmarks compared by the order of their rounds (an AB/BA "
                        "crossover): a round's second process ran up to 21.0% faster or slower "
                        "than its first, which the comparison cancels"));
  comparison.benchmarks[1].baseline_first.clear();
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("1 benchmark compared by the order of its rounds"));
}

TEST(PairedComparison, TheSequentialLevelsAreARangeOrOneLevel) {
  RunResult base;
  RunResult candidate;
  base.benchmarks = {in_rounds("r", 1.0)};
  candidate.benchmarks = {in_rounds("r", 1.05)};
  analysis::Comparison comparison = analysis::compare(base, candidate);
  comparison.settings.sequential_alpha = {0.0037, 0.0061, 0.0093};
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("sequential design instead (0.37-0.93%, docs/verdicts.md)"));
  // One look (--max-rounds equal to --rounds): its level, not "5-5%".
  comparison.settings.sequential_alpha = {0.05};
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("sequential design instead (5%, docs/verdicts.md)"));
}

TEST(PairedComparison, SeveralUndecidedRowsAreSummedUpInOneLineBeforeTheirNotes) {
  RunResult base;
  RunResult candidate;
  for (const char* name : {"a", "b", "c"}) {
    base.benchmarks.push_back(in_rounds(name, 1.0));
    candidate.benchmarks.push_back(in_rounds(name, 1.0));
  }
  analysis::Comparison comparison = analysis::compare(base, candidate);
  ASSERT_EQ(comparison.benchmarks.size(), 3u);
  for (analysis::BenchmarkComparison& row : comparison.benchmarks) {
    row.verdict = analysis::Verdict::inconclusive;
    row.note = "its own note";
  }
  // Typical scatters: the robust spread of the log ratios. Row a: half the rounds 1% off the
  // others; b: rounds 2% apart; c: all alike (0%), the lowest though not the first.
  auto& rows = comparison.benchmarks;
  rows[0].round_ratios = {1.0, 1.01, 1.0, 1.01, 1.0, 1.01, 1.0, 1.01};
  rows[1].round_ratios = {1.0, 1.02, 1.0, 1.02, 1.0, 1.02, 1.0, 1.02};
  rows[2].round_ratios = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  const double scatter_b = std::exp(1.4826 * std::log(1.02) / 2) - 1.0;
  rows[0].more_rounds = 100;
  rows[0].more_time_ns = 20e9;
  rows[1].more_rounds = 40;
  rows[1].more_time_ns = 10e9;
  rows[0].pairs = rows[1].pairs = rows[2].pairs = 8;
  const std::string text = render_comparison(comparison, Format::console);
  const std::string line = fmt::format(
      "3 benchmarks compared in rounds stayed undecided, a typical round of each scattering "
      "0.0-{:.1f}%; about 140 more rounds in all would settle 2 of them, about 30 s more "
      "(--max-rounds 108); 1 lies on an edge of the noise threshold, which no number of rounds "
      "settles\n",
      scatter_b * 100.0);
  EXPECT_THAT(text, HasSubstr(line)) << text;
  EXPECT_LT(text.find(line), text.find("a [inconclusive]: its own note")) << text;
  EXPECT_THAT(render_comparison(comparison, Format::markdown), HasSubstr(line));
  // Every row settled by more rounds: "all of them", and no edge.
  rows[2].more_rounds = 10;
  rows[2].more_time_ns = 1e9;
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("about 150 more rounds in all would settle all of them, about 31 s more "
                        "(--max-rounds 108)\n"));
  // A row that needs more than --max-rounds allows: no --max-rounds the command would refuse
  // (frozen's A/A suggested --max-rounds 68653), the others' still given.
  rows[0].more_rounds = 68'645;
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("(--max-rounds 48 for some; 1 needs more than --max-rounds can be set "
                        "to (3000): out of reach at their noise threshold)\n"));
  rows[1].more_rounds = rows[2].more_rounds = 5'000;
  EXPECT_THAT(
      render_comparison(comparison, Format::console),
      HasSubstr("(3 need more than --max-rounds can be set to (3000): out of reach at their "
                "noise threshold)\n"));
  // One undecided row: its note says it all, no line.
  rows[1].verdict = analysis::Verdict::unchanged;
  rows[2].verdict = analysis::Verdict::regressed;
  EXPECT_THAT(render_comparison(comparison, Format::console),
              ::testing::Not(HasSubstr("stayed undecided")));
}

// A comparison of benchmarks that declare no bytes or items has no throughput column (cctz's
// suite printed an empty one); one row with a throughput change brings it back.
TEST(ConsoleComparison, TheThroughputColumnIsShownOnlyWhenARowHasOne) {
  analysis::Comparison comparison = comparison_of(3, 0);
  for (analysis::BenchmarkComparison& row : comparison.benchmarks) row.throughput_change.reset();
  const std::string without = render_comparison(comparison, Format::console);
  EXPECT_THAT(without, ::testing::Not(HasSubstr("throughput"))) << without;
  EXPECT_THAT(without, HasSubstr("p (adj.)"));
  comparison.benchmarks[1].throughput_change = -0.031;
  const std::string with = render_comparison(comparison, Format::console);
  EXPECT_THAT(with, HasSubstr("throughput"));
  EXPECT_THAT(with, HasSubstr("-3.1%"));
}

TEST(ConsoleComparison, RowsWhoseWorkWasOptimisedAwayAreSaidOnce) {
  analysis::Comparison comparison = comparison_of(3, 0);
  EXPECT_THAT(render_comparison(comparison, Format::console),
              ::testing::Not(HasSubstr("optimised away")));
  comparison.benchmarks[0].candidate_diagnostics = {"few_samples", "below_resolution"};
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr(comparison.benchmarks[0].name +
                        " [below_resolution]: less than one CPU cycle an iteration in the new "
                        "build, so the work was optimised away and the comparison times an empty "
                        "loop"));
  comparison.benchmarks[2].candidate_diagnostics = {"below_resolution"};
  EXPECT_THAT(render_comparison(comparison, Format::console),
              HasSubstr("2 benchmarks (" + comparison.benchmarks[0].name +
                        " and 1 more) [below_resolution]"));
  // The pull-request comment says it too, among its notes (it used to drop it).
  EXPECT_THAT(render_comparison(comparison, Format::markdown),
              HasSubstr("\n- 2 benchmarks (" + comparison.benchmarks[0].name +
                        " and 1 more) [below_resolution]: less than one CPU cycle"));
}

// A row that took no part in the suite's test (runs made apart, no verdict given) shows its change
// and interval but no p: "1.000" beside -18.1% [-21.3%, -12.8%] read as a measured p.
TEST(ConsoleComparison, ARowNotTestedShowsNoP) {
  analysis::Comparison comparison = comparison_of(2, 0);
  comparison.benchmarks[0].tested = true;
  comparison.benchmarks[0].p_adjusted = 0.5;
  comparison.benchmarks[1].tested = false;
  comparison.benchmarks[1].p_adjusted = 1.0;
  comparison.benchmarks[1].ratio = 0.819;
  comparison.benchmarks[1].ratio_lower = 0.787;
  comparison.benchmarks[1].ratio_upper = 0.872;
  const std::string text = render_comparison(comparison, Format::console);
  EXPECT_THAT(text, HasSubstr("0.500"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("1.000")));
  EXPECT_THAT(text, HasSubstr("[-21.3%, -12.8%]"));
}

// A name several registrations of a Google Benchmark suite share: the row pools them, which the
// comparison's JSON alone used to say (frozen's four names registered twice, compared as binaries).
TEST(ConsoleComparison, ANameSeveralBenchmarksShareIsSaidBeforeTheNotes) {
  analysis::Comparison comparison = comparison_of(3, 0);
  EXPECT_THAT(render_comparison(comparison, Format::console),
              ::testing::Not(HasSubstr("duplicate_name")));
  comparison.benchmarks[1].candidate_diagnostics = {"duplicate_name"};
  const std::string line = comparison.benchmarks[1].name +
                           " [duplicate_name]: several benchmarks of the suite share the name, and "
                           "the row pools their samples, so its change and verdict mix them";
  EXPECT_THAT(render_comparison(comparison, Format::console), HasSubstr(line));
  EXPECT_THAT(render_comparison(comparison, Format::markdown), HasSubstr("\n- " + line));
  // With work optimised away too: a line each.
  comparison.benchmarks[0].candidate_diagnostics = {"below_resolution"};
  const std::string markdown = render_comparison(comparison, Format::markdown);
  EXPECT_THAT(markdown, HasSubstr("\n- " + comparison.benchmarks[0].name + " [below_resolution]"));
  EXPECT_THAT(markdown, HasSubstr("\n- " + line));
}

}  // namespace
}  // namespace benchkit::report
