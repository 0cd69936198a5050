#include "formats/hyperfine_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/estimates.hpp"
#include "formats/result_json.hpp"
#include "support/golden.hpp"
#include "support/interop_fixture.hpp"

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

using benchkit::testing::interop_fixture;

TEST(HyperfineJson, EachTimeIsASampleOfACommand) {
  const auto run = from_hyperfine_json(interop_fixture("hyperfine_two_commands.json"), "h.json");
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 2u);
  const BenchmarkResult& sleep = run->benchmarks[0];
  EXPECT_EQ(sleep.name, "sleep 0.01");
  EXPECT_EQ(sleep.kind, "command");
  EXPECT_EQ(sleep.command, "sleep 0.01");
  ASSERT_EQ(sleep.samples.size(), 5u);
  for (const Sample& sample : sleep.samples) {
    EXPECT_GE(sample.ns, 10e6);  // sleep 0.01 takes at least 10 ms
    ASSERT_TRUE(sample.resources && sample.resources->exit_code);
    EXPECT_EQ(*sample.resources->exit_code, 0);
  }
  EXPECT_EQ(sleep.counters.count("user_ns"), 1u);
  EXPECT_EQ(sleep.counters.count("system_ns"), 1u);
}

TEST(HyperfineJson, ParametersAndExitCodes) {
  const auto run = from_hyperfine_json(interop_fixture("hyperfine_parameters.json"), "h.json");
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 2u);
  EXPECT_EQ(run->benchmarks[1].params.at("code"), "2");
  EXPECT_EQ(*run->benchmarks[1].samples[0].resources->exit_code, 2);
}

TEST(HyperfineJson, MemoryUsageIsEachRunsPeak) {
  const auto run = from_hyperfine_json(interop_fixture("hyperfine_memory.json"), "h.json");
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->benchmarks[0].samples[1].resources->peak_rss_bytes,
            std::optional<std::int64_t>(3465216));
  EXPECT_DOUBLE_EQ(run->benchmarks[0].counters.at("user_ns"), 0.0182e9);
}

TEST(HyperfineJson, ImportedRunMatchesTheGoldenFile) {
  auto run = from_hyperfine_json(interop_fixture("hyperfine_parameters.json"), "h.json");
  ASSERT_TRUE(run) << run.error().message;
  analysis::compute_estimates(*run);
  testing::expect_golden("import_hyperfine_parameters.json", to_json(*run));
}

TEST(HyperfineJson, OneRunIsOneSampleAndNoRunIsRefusedWithTheFix) {
  // hyperfine --runs 1 writes "stddev": null: the run is read (a sample with no interval), as a
  // Google Benchmark file of one repetition is.
  const auto run = from_hyperfine_json(interop_fixture("hyperfine_one_run.json"), "one.json");
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 1u);
  EXPECT_EQ(run->benchmarks[0].samples.size(), 1u);
  EXPECT_DOUBLE_EQ(run->benchmarks[0].samples[0].ns, 0.026244722e9);
  const auto none =
      from_hyperfine_json(R"({"results": [{"command": "x", "times": []}]})", "none.json");
  ASSERT_FALSE(none);
  EXPECT_THAT(none.error().message, HasSubstr("none.json: results[0].times: empty"));
  EXPECT_THAT(none.error().message, HasSubstr("--runs 2"));
}

TEST(HyperfineJson, AnExportWithoutItsRunsSaysWhatIsMissing) {
  // glklimmer/oxiflex kept only the summary of each command: read as hyperfine's, and the
  // message names "times" rather than calling the file unknown.
  const std::string text =
      R"({"results": [{"command": "solve 100.fzn", "mean": 1.5, "stddev": 0.1, "median": 1.4}]})";
  const auto run = from_hyperfine_json(text, "gecode.json");
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("gecode.json: results[0].times: missing"));
  EXPECT_THAT(run.error().message, HasSubstr("the summary of \"solve 100.fzn\""));
  EXPECT_TRUE(is_hyperfine_document(nlohmann::ordered_json::parse(text)));
}

TEST(HyperfineJson, DamageNamesItsPlace) {
  const auto negative =
      from_hyperfine_json(R"({"results": [{"command": "x", "times": [0.1, -1]}]})", "h.json");
  ASSERT_FALSE(negative);
  EXPECT_THAT(negative.error().message, HasSubstr("h.json: results[0].times[1]"));
  const auto codes = from_hyperfine_json(
      R"({"results": [{"command": "x", "times": [0.1, 0.2], "exit_codes": [0]}]})", "h.json");
  ASSERT_FALSE(codes);
  EXPECT_THAT(codes.error().message, HasSubstr("results[0].exit_codes"));
  const auto empty = from_hyperfine_json(R"({"results": []})", "h.json");
  ASSERT_FALSE(empty);
  EXPECT_THAT(empty.error().message, HasSubstr("no command"));
  const std::string text = interop_fixture("hyperfine_two_commands.json");
  const auto cut = from_hyperfine_json(text.substr(0, text.size() - 10), "h.json");
  ASSERT_FALSE(cut);
  EXPECT_THAT(cut.error().message, HasSubstr("truncated"));
}

}  // namespace
}  // namespace benchkit::formats
