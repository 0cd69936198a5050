#include "report/reporter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "formats/gbench_json.hpp"
#include "support/golden.hpp"
#include "support/interop_fixture.hpp"
#include "support/sample_run.hpp"

namespace benchkit::report {
namespace {

// `text` as an XML attribute or text node holds it.
std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

TEST(Reporters, EveryNameGoogleBenchmarkPrintsSurvivesEveryFormat) {
  // Real Google Benchmark output (tests/fixtures/interop/regenerate.sh): spaces, commas, angle
  // brackets, /threads:N, /real_time, /manual_time, /min_time:, /repeats:, a failed benchmark.
  auto run = formats::from_gbench_json(testing::interop_fixture("gbench_names.json"), "names");
  ASSERT_TRUE(run) << run.error().message;
  analysis::compute_estimates(*run);
  const std::vector<std::string> names = {"BM_Sequential<std::vector<int>,int>/512",
                                          "BM_Sequential<std::vector<long>, long>/64",
                                          "Dump/twitter / -",
                                          "BM_shared_sum/threads:2",
                                          "BM_shared_sum/real_time",
                                          "BM_shared_sum/min_time:0.010",
                                          "BM_shared_sum/repeats:3",
                                          "BM_manual/manual_time",
                                          "BM_linear/4096",
                                          "BM_fails"};
  const std::string console = make_reporter(Format::console)->render(*run);
  const std::string markdown = make_reporter(Format::markdown)->render(*run);
  const std::string csv = make_reporter(Format::csv)->render(*run);
  const std::string junit = make_reporter(Format::junit)->render(*run);
  const std::string html = make_reporter(Format::html)->render(*run);
  const auto gbench = formats::from_gbench_json(make_reporter(Format::gbench)->render(*run), "out");
  ASSERT_TRUE(gbench) << gbench.error().message;
  for (const std::string& name : names) {
    EXPECT_NE(console.find(name), std::string::npos) << name;
    EXPECT_NE(markdown.find("`" + name + "`"), std::string::npos) << name;
    const bool quoted = name.find(',') != std::string::npos;
    EXPECT_NE(csv.find(quoted ? "\"" + name + "\"" : name), std::string::npos) << name;
    EXPECT_NE(junit.find("\"" + xml_escaped(name) + "\""), std::string::npos) << name;
    std::string in_script;  // JSON inside a script element: '<' and '>' written as \u003c, \u003e
    for (const char c : name) {
      in_script += c == '<'   ? std::string("\\u003c")
                   : c == '>' ? std::string("\\u003e")
                              : std::string(1, c);
    }
    EXPECT_NE(html.find("\"" + in_script + "\""), std::string::npos) << name;
    EXPECT_TRUE(std::any_of(gbench->benchmarks.begin(), gbench->benchmarks.end(),
                            [&](const BenchmarkResult& b) { return b.name == name; }))
        << name;
  }
}

TEST(Reporters, ConsoleMatchesTheGoldenFile) {
  testing::expect_golden("console.txt",
                         make_reporter(Format::console)->render(testing::sample_run()));
}

TEST(Reporters, AFailedBenchmarkIsARowWithItsCauseAndItsReasonAfterTheTable) {
  RunResult run = testing::sample_run();
  BenchmarkResult failed;
  failed.name = "crashes";
  failed.failures = {"crashed: its process was killed by signal 11 (SIGSEGV)"};
  failed.failure = Failure{Failure::Cause::crashed, 11, {}, "about to crash\nnow"};
  run.benchmarks.push_back(failed);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_NE(console.find("crashes"), std::string::npos);
  EXPECT_NE(console.find("failed"), std::string::npos);
  EXPECT_NE(console.find("crashes failed, kept out of comparisons: crashed: its process was "
                         "killed by signal 11 (SIGSEGV)\n  the last lines it wrote to stderr:\n"
                         "  | about to crash\n  | now\n"),
            std::string::npos)
      << console;
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_NE(markdown.find("| `crashes` | **failed** | | | | `crashed` |"), std::string::npos)
      << markdown;
  // A Google Benchmark process's failure carries the tail on one line too: the block alone
  // shows it (a crash's lines were printed twice there).
  RunResult gbench = run;
  gbench.benchmarks.back().failures = {
      "process 1 of 3 (./pc) killed by signal 6 (SIGABRT); its standard error ends: about to "
      "crash | now"};
  const std::string once = make_reporter(Format::console)->render(gbench);
  EXPECT_NE(once.find("crashes failed, kept out of comparisons: process 1 of 3 (./pc) killed by "
                      "signal 6 (SIGABRT)\n  the last lines it wrote to stderr:\n"),
            std::string::npos)
      << once;
  EXPECT_EQ(once.find("about to crash |"), std::string::npos) << once;
  EXPECT_NE(markdown.find("- `crashes` **failed**, kept out of comparisons: crashed:"),
            std::string::npos);
}

TEST(Reporters, ABenchmarkAnotherToolReportedAnErrorForIsFailedNeverZero) {
  // A Google Benchmark row with error_occurred: its failure message, no Failure, no sample.
  RunResult run = testing::sample_run();
  BenchmarkResult failed;
  failed.name = "BM_Error";
  failed.failures = {"Google Benchmark reported an error: no data"};
  run.benchmarks.push_back(failed);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, ::testing::HasSubstr(
                           "BM_Error failed, kept out of comparisons: Google Benchmark reported an "
                           "error: no data\n"));
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_THAT(markdown, ::testing::HasSubstr("| `BM_Error` | **failed** | | | | `error` |"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("- `BM_Error` **failed**, kept out of comparisons: "
                                             "Google Benchmark reported an error: no data"));
  EXPECT_THAT(markdown, ::testing::Not(::testing::HasSubstr("| `BM_Error` | 0 ns")));
  const std::string csv = make_reporter(Format::csv)->render(run);
  EXPECT_THAT(csv, ::testing::HasSubstr("\nBM_Error,micro,,,,,,,,,0,,,,failed:error,,\n"));
}

TEST(Reporters, OneSampleHasNoIntervalOrSpreadOnTheConsole) {
  RunResult run = testing::sample_run();
  run.benchmarks.resize(1);
  run.benchmarks[0].samples.resize(1);
  analysis::compute_estimates(run);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, ::testing::HasSubstr("no interval (1 sample)"));
  EXPECT_THAT(console, ::testing::Not(::testing::HasSubstr("±0.0%")));
  // A whole command of one run (hyperfine --runs 1), with hyperfine's mean user and system times.
  BenchmarkResult& command = run.benchmarks[0];
  command.kind = "command";
  command.counters = {{"user_ns", 251'000.0}, {"system_ns", 708'000.0}};
  const std::string table = make_reporter(Format::console)->render(run);
  EXPECT_THAT(table, ::testing::HasSubstr("no interval (1 run)"));
  EXPECT_THAT(table, ::testing::HasSubstr("251 µs / 708 µs (means)"));
  EXPECT_THAT(table, ::testing::Not(::testing::HasSubstr("ns ± ")));
  // Markdown has the command table's columns too, not "1 × 1" samples.
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_THAT(markdown, ::testing::HasSubstr("| command | median | 95% CI | mean ± σ |"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| no interval (1 run) |"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| 251 µs / 708 µs (means) |"));
}

// Three repetitions of a Google Benchmark file, or five processes: the median's interval is
// the samples' range, of 75% or 93.75% confidence, under a column named "95% CI". Each such
// interval says its own; and the samples' iterations, which each process finds for itself,
// are shown as their range, not as the first sample's.
TEST(Reporters, AnIntervalBelowNinetyFivePercentSaysItsConfidence) {
  RunResult run = testing::sample_run();
  run.benchmarks.resize(1);
  BenchmarkResult& b = run.benchmarks[0];
  b.samples.resize(3);
  b.samples[0].iters = 5646;
  b.samples[1].iters = 5298;
  b.samples[2].iters = 5329;
  analysis::compute_estimates(run);
  ASSERT_NEAR(b.estimates.median.confidence, 0.75, 1e-9);
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, ::testing::HasSubstr("] (75%)"));
  EXPECT_THAT(console, ::testing::HasSubstr("3 × 5298-5646"));
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_THAT(markdown, ::testing::HasSubstr(" (75%) |"));
  EXPECT_THAT(markdown, ::testing::HasSubstr("| 3 × 5298-5646 |"));
  EXPECT_THAT(make_reporter(Format::github_action)->render(run),
              ::testing::HasSubstr("median of 3 samples, 75% CI ["));
  // With enough samples the interval holds at least 95%: nothing is added.
  RunResult full = testing::sample_run();
  analysis::compute_estimates(full);
  const std::string plain = make_reporter(Format::console)->render(full);
  EXPECT_THAT(plain, ::testing::Not(::testing::HasSubstr("%)")));
  EXPECT_THAT(make_reporter(Format::github_action)->render(full),
              ::testing::HasSubstr("samples, 95% CI ["));
}

TEST(Reporters, ADiagnosticSaidAlikeOfSeveralBenchmarksIsPrintedOnce) {
  RunResult run = testing::sample_run();
  const std::size_t first = run.benchmarks.size();
  for (const char* name : {"a/1", "a/2", "a/3"}) {
    BenchmarkResult b = run.benchmarks.front();
    b.name = name;
    b.diagnostics = {{"aggregates_only", "warning", "only aggregates"}};
    run.benchmarks.push_back(b);
  }
  // The same code with another message is another line.
  run.benchmarks[first + 2].diagnostics.push_back({"drift", "warning", "rose 9%"});
  run.benchmarks[first + 1].diagnostics.push_back({"drift", "warning", "rose 5%"});
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_THAT(console, ::testing::HasSubstr("3 benchmarks (a/1 and 2 more, flagged in the table) "
                                            "[aggregates_only]: only aggregates\n"));
  EXPECT_THAT(console, ::testing::HasSubstr("a/2 [drift]: rose 5%\n"));
  EXPECT_THAT(console, ::testing::HasSubstr("a/3 [drift]: rose 9%\n"));
  EXPECT_THAT(console, ::testing::Not(::testing::HasSubstr("a/1 [aggregates_only]")));
}

TEST(Reporters, ScenariosAreBlocksOfPhasesAfterTheTable) {
  testing::expect_golden(
      "console_scenarios.txt",
      make_reporter(Format::console)->render(testing::sample_run_with_scenarios()));
}

// Counters a scenario gave one phase (Scenario::phase_counter) are shown on their own line
// after the counters all phases share, with their kinds: a rate over that phase's time, a size
// in Ki/Mi.
TEST(Reporters, AScenariosPhaseCountersAreShownWithTheirPhaseAndKinds) {
  RunResult run = testing::sample_run_with_scenarios();
  for (BenchmarkResult& b : run.benchmarks) {
    if (b.kind != "scenario" || b.name.rfind("scaling/", 0) != 0) continue;
    b.counters["index_bytes"] = 3.0 * 1024 * 1024;
    b.counter_kinds["index_bytes"] = counter::base_1024;
    if (b.name.ends_with("/load")) {
      b.counters["pages"] = 812.0;  // in a phase of 812 ms: 1 k pages a second
      b.counter_kinds["pages"] = counter::rate;
    }
  }
  const std::string text = make_reporter(Format::console)->render(run);
  EXPECT_NE(text.find("  counters: compression_ratio 3.412, index_bytes 3 Mi, segments 70\n"
                      "  counters of load: pages 1 k/s\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("counters of recover"), std::string::npos) << text;
}

// A run of several processes shows how much of the variance is between them, in the console
// and in Markdown; a run of one process has no such column (the golden files).
TEST(Reporters, TheShareOfTheVarianceBetweenProcessesHasAColumnWhenSomeBenchmarkHasIt) {
  RunResult run = testing::sample_run();
  run.benchmarks.front().estimates.between_process_share = 0.62;
  const std::string console = make_reporter(Format::console)->render(run);
  EXPECT_NE(console.find("between processes"), std::string::npos) << console;
  EXPECT_NE(console.find(" 62%"), std::string::npos) << console;
  const std::string markdown = make_reporter(Format::markdown)->render(run);
  EXPECT_NE(markdown.find("| samples | between processes | diagnostics |"), std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find(" | 62% | "), std::string::npos) << markdown;
  // Every row of the Markdown table has the same number of cells as its header.
  const std::size_t table = markdown.find("| benchmark | median |");
  ASSERT_NE(table, std::string::npos) << markdown;
  std::istringstream lines(markdown.substr(table));
  std::string line;
  std::size_t header_cells = 0;
  std::size_t rows = 0;
  while (std::getline(lines, line) && line.rfind("|", 0) == 0) {
    std::size_t cells = 0;  // bars that separate cells: not the escaped ones of a name
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++cells;
    }
    if (header_cells == 0) header_cells = cells;
    EXPECT_EQ(cells, header_cells) << line;
    ++rows;
  }
  EXPECT_GE(rows, 2 + run.benchmarks.size()) << "the header, its rule and a row per benchmark";
  EXPECT_EQ(make_reporter(Format::console)->render(testing::sample_run()).find("between processes"),
            std::string::npos);
}

TEST(Reporters, AScenarioOnlyRunHasNoEmptyBenchmarkTable) {
  RunResult run = testing::sample_run_with_scenarios();
  run.benchmarks.erase(run.benchmarks.begin(), run.benchmarks.begin() + 2);
  run.context.warnings.clear();
  const std::string text = make_reporter(Format::console)->render(run);
  EXPECT_EQ(text.rfind("scenario scaling/payload=text/items=1000000: 1 run\n", 0), 0u) << text;
  EXPECT_EQ(text.find("benchmark"), std::string::npos);
  EXPECT_NE(make_reporter(Format::console, Options{true})->render(run).find("\033[31;1mINVALID"),
            std::string::npos);
}

TEST(Reporters, MarkdownMatchesTheGoldenFile) {
  testing::expect_golden("report.md",
                         make_reporter(Format::markdown)->render(testing::sample_run()));
}

TEST(Reporters, MarkdownSaysAOneSamplePhaseHasNoInterval) {
  const RunResult run = testing::sample_run_with_scenarios();
  const std::string text = make_reporter(Format::markdown)->render(run);
  bool one_sample = false;
  for (const BenchmarkResult& b : run.benchmarks) one_sample = one_sample || b.samples.size() == 1;
  ASSERT_TRUE(one_sample);  // the sample run has a phase run once
  EXPECT_NE(text.find("no interval (1 sample)"), std::string::npos) << text;
}

TEST(Reporters, CsvMatchesTheGoldenFile) {
  testing::expect_golden("report.csv", make_reporter(Format::csv)->render(testing::sample_run()));
  // A counter that is a mean of three 0.2222 (a Google Benchmark file's repetitions) is written
  // as 0.2222, not with the double's last bits (0.22220000000000004).
  RunResult ratios = testing::sample_run();
  ratios.benchmarks.resize(1);
  ratios.benchmarks[0].counters = {{"ratio", (0.2222 + 0.2222 + 0.2222) / 3}};
  EXPECT_THAT(make_reporter(Format::csv)->render(ratios), ::testing::HasSubstr("ratio=0.2222,"));
  // iterations_per_sample is the samples' median count, not the first sample's (a process that
  // sized its samples otherwise: 1 iteration there, 1000 in the others).
  RunResult sized = testing::sample_run();
  sized.benchmarks.resize(1);
  for (std::size_t k = 0; k < sized.benchmarks[0].samples.size(); ++k) {
    sized.benchmarks[0].samples[k].iters = k == 0 ? 1 : 1000;
  }
  ASSERT_GE(sized.benchmarks[0].samples.size(), 3u);
  const std::string csv = make_reporter(Format::csv)->render(sized);
  const std::string row = csv.substr(csv.find('\n') + 1);
  EXPECT_THAT(row,
              ::testing::HasSubstr(fmt::format(",{},1000,", sized.benchmarks[0].samples.size())))
      << row;
}

TEST(Reporters, ColourIsOnlyUsedWhenAsked) {
  const RunResult run = testing::sample_run();
  EXPECT_EQ(make_reporter(Format::console)->render(run).find("\033["), std::string::npos);
  EXPECT_NE(make_reporter(Format::console, Options{true})->render(run).find("\033["),
            std::string::npos);
}

TEST(Reporters, MarkupEscapeMakesTextSafeInHtmlAndXml) {
  EXPECT_EQ(markup_escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&apos;x&apos;) &amp; &quot;y&quot;&lt;/script&gt;");
  // XML 1.0 cannot hold most control characters (an escape sequence's ESC among them).
  EXPECT_EQ(markup_escape("a\x1b[31mb\tc\nd"), "a?[31mb\tc\nd");
  EXPECT_EQ(markup_escape("µs …"), "µs …");
}

// Names, notes and failures come from files and commands anyone wrote; printed raw, a name could
// retitle (OSC), clear (CSI 2J) or recolour the terminal (tests/reliability/hostile_input.py).
TEST(Reporters, ConsoleShowsControlCharactersAsEscapes) {
  RunResult run = testing::sample_run();
  run.benchmarks[0].name = "evil\x1b]0;title\x07\x1b[2J\x1b[31mred\x7f\xc2\x9b";
  for (const bool colour : {false, true}) {
    const std::string out = make_reporter(Format::console, {.color = colour})->render(run);
    // With colour on, a name's own colour sequence passes as the console's do: colour only.
    const std::string shown = colour ? "evil\\e]0;title\\x07\\e[2J\x1b[31mred\\x7f\\u009b"
                                     : "evil\\e]0;title\\x07\\e[2J\\e[31mred\\x7f\\u009b";
    EXPECT_NE(out.find(shown), std::string::npos) << out;
    EXPECT_EQ(out.find("\x07"), std::string::npos);
    EXPECT_EQ(out.find("\x1b]"), std::string::npos);
  }
  // The console's own colours stay.
  EXPECT_NE(make_reporter(Format::console, {.color = true})->render(run).find("\x1b[1m"),
            std::string::npos);
  EXPECT_EQ(terminal_safe("plain\nlines", false), "plain\nlines");
  EXPECT_EQ(terminal_safe("\x1b[1mbold\x1b[0m", true), "\x1b[1mbold\x1b[0m");
  EXPECT_EQ(terminal_safe("\x1b[1mbold\x1b[0m", false), "\\e[1mbold\\e[0m");
}

// A newline in a name ended the Markdown table's row in the middle of a cell.
TEST(Reporters, MarkdownEscapeKeepsARowOneLine) {
  EXPECT_EQ(markdown_escape("a|b\nc\rd"), "a\\|b\\nc\\rd");
  RunResult run = testing::sample_run();
  run.benchmarks[0].name = "two\nlines | and a pipe";
  const std::string out = make_reporter(Format::markdown)->render(run);
  for (std::size_t at = 0, end = 0; at < out.size(); at = end + 1) {
    end = out.find('\n', at);
    const std::string line = out.substr(at, end - at);
    // The name's second line would start a line of its own, outside the table.
    EXPECT_NE(line.rfind("lines | and", 0), 0u) << out;
  }
  EXPECT_EQ(csv_quote("a\rb"), "\"a\rb\"");
}

// A backtick in a name ended its one-backtick code span early, leaving the rest of the name as
// Markdown (CommonMark: a span ends at a run of backticks as long as its fence).
TEST(Reporters, MarkdownCodeSpansHoldBackticks) {
  EXPECT_EQ(markdown_code("plain"), "`plain`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("a``b`c"), "```a``b`c```");
  EXPECT_EQ(markdown_code("`tick`"), "`` `tick` ``");
  EXPECT_EQ(markdown_code(" both "), "`  both  `");
  EXPECT_EQ(markdown_code("a|b"), "`a\\|b`");
  RunResult run = testing::sample_run();
  run.benchmarks[0].name = "x` **bold** `y";
  const std::string out = make_reporter(Format::markdown)->render(run);
  EXPECT_NE(out.find("| ``x` **bold** `y`` |"), std::string::npos) << out;
}

// A name a spreadsheet would run as a formula (OWASP's CSV injection) is a quoted text cell with
// a ' in front; the numbers of the same row stay numbers, a negative one too.
TEST(Reporters, CsvKeepsFormulaNamesAsText) {
  EXPECT_EQ(csv_quote("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  for (const std::string start : {"=", "+", "-", "@", "\t", "\r"}) {
    EXPECT_EQ(csv_quote(start + "1+1"), "\"'" + start + "1+1\"") << start;
  }
  EXPECT_EQ(csv_quote("a=1"), "a=1");
  EXPECT_EQ(csv_quote(""), "");
  RunResult run = testing::sample_run();
  run.benchmarks[0].name = "-2+3";
  const std::string out = make_reporter(Format::csv)->render(run);
  const std::string row = out.substr(out.find('\n') + 1, out.find('\n', out.find('\n') + 1));
  EXPECT_EQ(row.rfind("\"'-2+3\",", 0), 0u) << row;
  EXPECT_EQ(row.find(",'"), std::string::npos) << row;
}

// write() puts into a stream the text render() returns, in every format, and refuses what
// render() refuses.
TEST(Reporters, WritingToAStreamGivesTheRenderedText) {
  const RunResult run = testing::sample_run();
  for (Format format : {Format::console, Format::json, Format::markdown, Format::csv, Format::html,
                        Format::junit, Format::gbench, Format::bmf, Format::github_action}) {
    const auto reporter = make_reporter(format);
    std::ostringstream out;
    reporter->write(Document{.results = &run}, out);
    EXPECT_EQ(out.str(), reporter->render(run)) << to_string(format);
  }
  std::ostringstream out;
  EXPECT_THROW(make_reporter(Format::json)->write(Document{}, out), std::invalid_argument);
  EXPECT_EQ(out.str(), "");
}

TEST(Formats, ParseNamesAndRefuseOthers) {
  EXPECT_EQ(parse_format("json").value(), Format::json);
  EXPECT_EQ(parse_format("md").value(), Format::markdown);
  auto bad = parse_format("xml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(format_list()), std::string::npos);
}

TEST(Formats, EveryNameReadsBackAndEveryFormatHasAName) {
  EXPECT_EQ(parse_format("github-action").value(), Format::github_action);
  // md is markdown's other name; every other name is the format's own.
  EXPECT_EQ(parse_format("md").value(), Format::markdown);
  for (Format format : {Format::console, Format::json, Format::markdown, Format::csv, Format::html,
                        Format::junit, Format::gbench, Format::bmf, Format::github_action}) {
    EXPECT_EQ(parse_format(to_string(format)).value(), format);
    EXPECT_NE(format_list().find(to_string(format)), std::string::npos);
  }
}

TEST(Units, DurationsUseThreeSignificantDigits) {
  EXPECT_EQ(format_duration(0.7504), "0.750 ns");
  EXPECT_EQ(format_duration(12.34), "12.3 ns");
  EXPECT_EQ(format_duration(4567), "4.57 µs");
  EXPECT_EQ(format_duration(10'180'000), "10.2 ms");
  EXPECT_EQ(format_duration(2.5e9), "2.50 s");
  EXPECT_EQ(format_bytes_per_second(1.5 * 1024 * 1024 * 1024), "1.50 GiB/s");
  EXPECT_EQ(format_items_per_second(2.7e9), "2.70 G/s");
}

// format_duration as fmt writes it: three significant digits from floor(log10) of the value in
// its unit.
std::string reference_duration(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  const auto digits = [](double value) {
    if (value == 0.0) return std::string("0");
    const int decimals =
        std::max(0, 2 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
    return fmt::format("{:.{}f}", value, decimals);
  };
  const double size = std::fabs(ns);
  if (size < 1e3) return digits(ns) + " ns";
  if (size < 1e6) return digits(ns / 1e3) + " µs";
  if (size < 1e9) return digits(ns / 1e6) + " ms";
  return digits(ns / 1e9) + " s";
}

// The digits of a duration are decided by floor(log10) of its value in its unit; the shortcut
// that skips the logarithm away from powers of ten gives every value the digits the logarithm
// gives: seeded random values of every size, and values a few ulps either side of each bound
// of the shortcut and of each power of ten.
TEST(Units, DurationDigitsAreTheLogarithmsOnEitherSideOfEveryBound) {
  const auto reference = reference_duration;
  std::vector<double> values;
  for (const double bound : {0.1, 1.0, 1.001, 9.99, 10.0, 10.01, 99.9, 100.0, 100.1, 999.0, 1e3,
                             1e4, 1e5, 1e6, 1e7, 1e9, 1e10}) {
    for (const double scale : {1.0, 1e3, 1e6, 1e9}) {
      double up = bound * scale;
      double down = bound * scale;
      for (int step = 0; step < 4; ++step) {
        values.push_back(up);
        values.push_back(-down);
        values.push_back(down);
        up = std::nextafter(up, INFINITY);
        down = std::nextafter(down, 0.0);
      }
    }
  }
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-3, 12);
  for (int i = 0; i < 100000; ++i) values.push_back(std::pow(10.0, exponent(random)));
  // Halfway between two printed values, and a few ulps either side (1.005 is 1.00499999…, 0.125
  // a tie exactly): the digits come from the exact binary value, as fmt and to_chars print it.
  std::uniform_int_distribution<int> whole(100, 999);
  std::uniform_int_distribution<int> places(0, 8);
  for (int i = 0; i < 20000; ++i) {
    double value = (whole(random) + 0.5) / std::pow(10.0, places(random));
    for (int step = 0; step < 3; ++step) {
      values.push_back(value);
      values.push_back(-value);
      value = std::nextafter(value, INFINITY);
    }
  }
  for (const double value : {0.125, 1.005, 2.675, 1.0005e3, 999.5, 99.95, 9.995, 0.0125, 1.5e13,
                             1e80, 1e300, -1e300, 9999.5e9, 12345.6e9}) {
    values.push_back(value);
  }
  for (const double value : values) ASSERT_EQ(format_duration(value), reference(value)) << value;
}

TEST(FitToWidth, KeepsWhatFitsAndCutsTheRestWithAnEllipsis) {
  EXPECT_EQ(fit_to_width("[1/3] alu", 20), "[1/3] alu");
  EXPECT_EQ(fit_to_width("[1/3] alu", 9), "[1/3] alu");
  EXPECT_EQ(fit_to_width("[1/3] alu", 8), "[1/3] a…");
  EXPECT_EQ(fit_to_width("abc", 1), "…");
  EXPECT_EQ(fit_to_width("abc", 0), "");
}

TEST(FitToWidth, CountsCodePointsNotBytes) {
  // "·" and "µ" are two bytes each in UTF-8, one column each.
  EXPECT_EQ(fit_to_width("a · 3 µs", 8), "a · 3 µs");
  EXPECT_EQ(fit_to_width("µµµµ", 3), "µµ…");
}

TEST(DisplayWidth, CountsCodePointsEightBytesAtATimeAsOneByOne) {
  EXPECT_EQ(display_width(""), 0u);
  EXPECT_EQ(display_width("12.3 µs … 12.5 µs"), 17u);
  EXPECT_EQ(display_width("◆ change point (p=0.0012)"), 25u);
  // Random strings of one to four-byte UTF-8 sequences and stray bytes, every length up to 40
  // (the word-at-a-time part and the bytes after it), against counting byte by byte.
  std::mt19937_64 random(11);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 20000; ++round) {
    std::string text(static_cast<std::size_t>(round % 41), ' ');
    for (char& c : text) c = static_cast<char>(byte(random));
    std::size_t expected = 0;
    for (const unsigned char c : text) expected += (c & 0xC0) != 0x80 ? 1 : 0;
    ASSERT_EQ(display_width(text), expected) << round;
  }
}

TEST(TableCells, CellsWrittenIntoTheBufferAreTheCellsAdded) {
  TableCells added;
  TableCells written;
  for (const auto& row :
       std::vector<std::vector<std::string>>{{"a", "1.5 µs", ""}, {"longer", "", "◆ x"}}) {
    for (const std::string& cell : row) {
      added.add(cell);
      char* at = written.room(cell.size());
      std::memcpy(at, cell.data(), cell.size());
      written.end_cell_at(at + cell.size(), display_width(cell));
    }
    added.end_row();
    written.end_row();
  }
  const std::vector<std::string> headers = {"name", "time", "mark"};
  const std::string table = render_table(headers, added, {false, true, false}, "  ");
  EXPECT_EQ(table,
            "  name    time    mark\n"
            "  a       1.5 µs\n"
            "  longer          ◆ x\n");
  EXPECT_EQ(render_table(headers, written, {false, true, false}, "  "), table);
  std::string out = "before\n";
  append_table(out, headers, written, {false, true, false}, "  ");
  EXPECT_EQ(out, "before\n" + table);
  // Cleared, the table holds nothing of what it had.
  written.clear();
  written.add("z");
  written.end_row();
  EXPECT_EQ(render_table({"n"}, written, {false}), "n\nz\n");
}

TEST(TableCells, TheBufferGrowsUnderCellsWrittenInPlaceAndKeepsThem) {
  // Thousands of cells written at room(), each asking for more than it writes: the buffer is
  // grown (and moved) many times, and every cell written before stays as it was.
  TableCells written;
  std::string expected = "n\n";
  for (int i = 0; i < 5000; ++i) {
    const std::string cell = std::to_string(i * 7919);
    char* at = written.room(64 + static_cast<std::size_t>(i % 100));
    std::memcpy(at, cell.data(), cell.size());
    written.end_cell_at(at + cell.size(), cell.size());
    written.end_row();
    expected += cell + "\n";
  }
  EXPECT_EQ(render_table({"n"}, written, {false}), expected);
}

TEST(DurationTo, WritesTheDurationInPlaceWithItsWidthAndSaysWhenItDoesNotFit) {
  // Values across every unit and its bounds, and what is not a number: the bytes fmt writes, and
  // their width in columns; append_duration appends the same and returns the same width.
  std::vector<double> values = {0.0,
                                0.5,
                                1.0,
                                9.995,
                                99.95,
                                999.4,
                                999.5,
                                1e3,
                                1e6,
                                1e9,
                                -42.0,
                                1234.5,
                                1.5e7,
                                3.6e12,
                                1e-12,
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity()};
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> exponent(-3.0, 13.0);
  for (int i = 0; i < 20000; ++i) values.push_back(std::pow(10.0, exponent(random)));
  for (const double ns : values) {
    const std::string expected = reference_duration(ns);
    std::array<char, 64> text{};
    std::size_t width = 0;
    const char* end = duration_to(text, ns, width);
    ASSERT_NE(end, nullptr) << ns;
    ASSERT_EQ(std::string(static_cast<const char*>(text.data()), end), expected) << ns;
    ASSERT_EQ(width, display_width(expected)) << ns;
    std::string appended = "x";
    ASSERT_EQ(append_duration(appended, ns), width) << ns;
    ASSERT_EQ(appended, "x" + expected) << ns;
  }
  // 1e79 ns is 1e70 s, 71 digits, and 1e-300 ns has 302 decimals: more than 64 bytes hold, so
  // duration_to declines, and append_duration writes them whole (through fmt) with their width.
  for (const double ns : {1e79, 1e-300}) {
    std::array<char, 64> text{};
    std::size_t width = 0;
    EXPECT_EQ(duration_to(text, ns, width), nullptr) << ns;
    std::string appended;
    EXPECT_EQ(append_duration(appended, ns), display_width(reference_duration(ns))) << ns;
    EXPECT_EQ(appended, reference_duration(ns));
    EXPECT_GT(appended.size(), 64u);
  }
}

TEST(FormatsAccepting, NamesTheFormatsThatRenderADocument) {
  const analysis::Comparison comparison;
  EXPECT_EQ(formats_accepting(Document{.comparison = &comparison}),
            "console, json, markdown, csv, html or junit");
  const RunResult run = testing::sample_run();
  EXPECT_EQ(formats_accepting(Document{.results = &run}), format_list());
}

TEST(FormatsAccepting, AFormatWithNoFormForAComparisonIsRefusedNamingThoseWithOne) {
  EXPECT_FALSE(refuse_comparison_format(Format::console));
  EXPECT_FALSE(refuse_comparison_format(Format::markdown));
  const auto gbench = refuse_comparison_format(Format::gbench);
  ASSERT_TRUE(gbench);
  EXPECT_EQ(gbench->kind, model::ErrorKind::usage);
  EXPECT_THAT(gbench->message, ::testing::StartsWith("--format gbench: "));
  EXPECT_THAT(gbench->message,
              ::testing::EndsWith("; choose console, json, markdown, csv, html or junit for a "
                                  "comparison"));
}

TEST(FormatRefusal, AFormatWithNoFormForTheDocumentSaysHowToWriteTheRunInIt) {
  const analysis::Comparison comparison;
  const Document document{.comparison = &comparison};
  EXPECT_FALSE(format_refusal(Format::console, document));
  const auto gbench = format_refusal(Format::gbench, document);
  ASSERT_TRUE(gbench);
  EXPECT_EQ(gbench->kind, model::ErrorKind::usage);
  EXPECT_THAT(gbench->message, ::testing::StartsWith("--format gbench: "));
  EXPECT_THAT(gbench->message,
              ::testing::EndsWith("; choose console, json, markdown, csv, html or junit here, "
                                  "and write a run's results in gbench with benchkit report FILE "
                                  "--format gbench"));
  const RunResult run = testing::sample_run();
  EXPECT_FALSE(format_refusal(Format::gbench, Document{.results = &run}));
}

TEST(FormatRefusal, AComparisonFileNamesItselfAndTheFormatsThatShowIt) {
  EXPECT_FALSE(comparison_file_refusal(Format::markdown, "c.json"));
  const auto bmf = comparison_file_refusal(Format::bmf, "c.json");
  ASSERT_TRUE(bmf);
  EXPECT_EQ(bmf->kind, model::ErrorKind::usage);
  EXPECT_THAT(bmf->message, ::testing::StartsWith("--format bmf: c.json is a comparison, and "));
  EXPECT_THAT(bmf->message,
              ::testing::EndsWith("; give --format console, json, markdown, csv, html or junit"));
}

}  // namespace
}  // namespace benchkit::report
