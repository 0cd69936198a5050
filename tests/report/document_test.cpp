// Every format against a Document holding each kind of part: what it renders, in which order,
// and what it refuses (reporter.hpp has the table). The golden files pin the text of each part;
// these tests pin which part a format renders and how parts are put together.
#include "report/document.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/compare.hpp"
#include "analysis/noise.hpp"
#include "report/command_table.hpp"
#include "report/machine_checks.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"
#include "support/sample_run.hpp"

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// One of each part, kept alive for the Documents that point at them.
class Parts : public ::testing::Test {
 protected:
  Parts() : run_(testing::sample_run()), comparison_(analysis::compare(run_, run_)) {
    RunResult processes;
    BenchmarkResult steady;
    steady.name = "steady";
    for (double ns : {1000.0, 1001.0, 999.0, 1002.0, 998.0}) {
      Sample sample;
      sample.ns = ns;
      sample.process = static_cast<std::uint32_t>(steady.samples.size());
      steady.samples.push_back(sample);
    }
    processes.benchmarks.push_back(steady);
    noise_.subject = "./my_bench";
    noise_.analysis = analysis::analyse_noise(processes);
    machine_.checks = {{"load", "Load", model::CheckStatus::warning, "busy", "Stop it."}};
    machine_.fingerprint_id = "0123456789abcdef";
    machine_.tool_version = "1.2.3";
    warnings_ = {{model::MachineWarningKind::high_load, "the load is high", "wait for it"}};
  }

  Document results() const { return {.results = &run_}; }
  Document comparison() const { return {.comparison = &comparison_}; }
  Document noise() const { return {.noise = &noise_}; }
  Document machine() const { return {.machine_checks = &machine_}; }
  Document warnings() const { return {.warnings = &warnings_}; }
  Document everything() const {
    return {.results = &run_,
            .comparison = &comparison_,
            .noise = &noise_,
            .machine_checks = &machine_,
            .warnings = &warnings_};
  }

  static std::string render(Format format, const Document& document) {
    return make_reporter(format)->render(document);
  }
  // The refusal, after checking that render() throws it.
  static std::string refused(Format format, const Document& document) {
    const auto reporter = make_reporter(format);
    EXPECT_THROW(reporter->render(document), std::invalid_argument);
    return reporter->refusal(document);
  }

  RunResult run_;
  analysis::Comparison comparison_;
  NoiseReport noise_;
  SystemReport machine_;
  std::vector<model::MachineWarning> warnings_;
};

TEST_F(Parts, ADocumentSaysWhatItHoldsInRenderingOrder) {
  EXPECT_TRUE(Document{}.parts().empty());
  EXPECT_TRUE(comparison().holds(Part::comparison));
  EXPECT_FALSE(comparison().holds(Part::results));
  const Document reversed{.noise = &noise_, .warnings = &warnings_};
  EXPECT_EQ(reversed.parts(), (std::vector<Part>{Part::noise, Part::warnings}));
  EXPECT_EQ(everything().parts().size(), 5u);
}

TEST_F(Parts, ConsoleRendersEachPart) {
  EXPECT_THAT(render(Format::console, results()), StartsWith("benchmark"));
  EXPECT_THAT(render(Format::console, comparison()), HasSubstr("regressed, 0 improved"));
  EXPECT_THAT(render(Format::console, noise()), StartsWith("A/A noise of ./my_bench"));
  EXPECT_THAT(render(Format::console, machine()),
              HasSubstr("machine fingerprint 0123456789abcdef"));
  EXPECT_EQ(render(Format::console, warnings()), "warning: the load is high\n  wait for it\n");
}

TEST_F(Parts, ConsoleRendersEveryPartInOrderABlankLineBetween) {
  EXPECT_EQ(render(Format::console, everything()),
            render(Format::console, results()) + "\n" + render(Format::console, comparison()) +
                "\n" + render(Format::console, noise()) + "\n" +
                render(Format::console, machine()) + "\n" + render(Format::console, warnings()));
}

TEST_F(Parts, ConsoleShowsAnAllCommandRunInTheTableOfBenchkitRun) {
  RunResult commands = run_;
  for (BenchmarkResult& b : commands.benchmarks) b.kind = "command";
  const std::string text = render(Format::console, {.results = &commands});
  EXPECT_THAT(text, StartsWith("command"));
  EXPECT_THAT(text, HasSubstr("mean ± σ"));
  EXPECT_EQ(text, render_command_table(commands));
  // One benchmark of another kind: the benchmark table, which has a row for every kind.
  commands.benchmarks.front().kind = "micro";
  EXPECT_THAT(render(Format::console, {.results = &commands}), StartsWith("benchmark"));
}

// benchkit run --mode instructions -- CMD: the command's counts are shown as counts.
TEST_F(Parts, ACountedCommandShowsInstructionsNotTimes) {
  RunResult commands = run_;
  commands.benchmarks.resize(1);
  BenchmarkResult& counted = commands.benchmarks.front();
  counted.kind = "command";
  counted.metric = "instructions";
  // 25,000 instructions per run: as a time it would read 25.0 µs.
  counted.estimates.median = {25000.0, 25000.0, 25000.0, 0.95};
  counted.estimates.mean = {25000.0, 25000.0, 25000.0, 0.95};
  counted.estimates.min = counted.estimates.max = 25000.0;
  counted.estimates.stddev = 0.0;
  const std::string text = render_command_table(commands);
  EXPECT_THAT(text, HasSubstr("25.0 k instr"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("25.0 µs")));
}

TEST_F(Parts, ARunAloneIsAResultsDocument) {
  for (Format format : {Format::console, Format::json, Format::markdown, Format::csv}) {
    EXPECT_EQ(make_reporter(format)->render(run_), render(format, results())) << to_string(format);
  }
}

TEST_F(Parts, MarkdownRendersResultsComparisonAndNoiseInOrder) {
  EXPECT_THAT(render(Format::markdown, results()), StartsWith("| benchmark | median |"));
  EXPECT_THAT(render(Format::markdown, comparison()), StartsWith("**0 regressed"));
  EXPECT_THAT(render(Format::markdown, noise()), StartsWith("**A/A noise of `./my_bench`"));
  const Document three{.results = &run_, .comparison = &comparison_, .noise = &noise_};
  EXPECT_EQ(render(Format::markdown, three), render(Format::markdown, results()) + "\n" +
                                                 render(Format::markdown, comparison()) + "\n" +
                                                 render(Format::markdown, noise()));
}

TEST_F(Parts, MarkdownRefusesMachineChecksAndWarnings) {
  EXPECT_EQ(refused(Format::markdown, machine()),
            "the markdown format has no form for machine checks: it renders results, "
            "comparison and noise");
  EXPECT_THAT(refused(Format::markdown, warnings()), HasSubstr("no form for machine warnings"));
  // Refused as a whole, not rendered without the part.
  EXPECT_THAT(refused(Format::markdown, {.results = &run_, .machine_checks = &machine_}),
              HasSubstr("machine checks"));
}

TEST_F(Parts, JsonWritesTheVersionedDocumentOfTheOnePartHeld) {
  const auto schema = [](const std::string& text) {
    return nlohmann::json::parse(text).at("schema").get<std::string>();
  };
  EXPECT_EQ(schema(render(Format::json, results())), "benchkit/result");
  EXPECT_EQ(schema(render(Format::json, comparison())), "benchkit/comparison");
  EXPECT_EQ(schema(render(Format::json, noise())), "benchkit/noise");
  EXPECT_EQ(schema(render(Format::json, machine())), "benchkit/system");
  EXPECT_EQ(render(Format::json, machine()), render_system_json(machine_));
}

TEST_F(Parts, JsonRefusesTwoPartsAndWarnings) {
  EXPECT_EQ(refused(Format::json, {.results = &run_, .comparison = &comparison_}),
            "the json format writes one document per output, not results and comparison: render "
            "each part on its own");
  EXPECT_THAT(refused(Format::json, warnings()), HasSubstr("no form for machine warnings"));
}

TEST_F(Parts, CsvWritesTheRowsOfTheOnePartHeld) {
  EXPECT_THAT(render(Format::csv, results()), StartsWith("name,kind,median_ns,"));
  EXPECT_THAT(render(Format::csv, comparison()), StartsWith("name,baseline_ns,new_ns,"));
  EXPECT_THAT(render(Format::csv, noise()), StartsWith("name,processes,median_ns,"));
}

TEST_F(Parts, CsvRefusesMachineChecksWarningsAndTwoParts) {
  EXPECT_THAT(refused(Format::csv, machine()), HasSubstr("csv format has no form for machine"));
  EXPECT_THAT(refused(Format::csv, warnings()), HasSubstr("no form for machine warnings"));
  EXPECT_THAT(refused(Format::csv, {.comparison = &comparison_, .noise = &noise_}),
              HasSubstr("one document per output, not comparison and noise"));
}

TEST_F(Parts, EveryFormatRefusesAnEmptyDocumentAndAcceptsWhatItRenders) {
  for (Format format : {Format::console, Format::json, Format::markdown, Format::csv}) {
    EXPECT_THAT(refused(format, Document{}), HasSubstr("empty document")) << to_string(format);
    EXPECT_EQ(make_reporter(format)->refusal(comparison()), "") << to_string(format);
  }
  EXPECT_EQ(make_reporter(Format::console)->refusal(everything()), "");
}

}  // namespace
}  // namespace benchkit::report
