#include "formats/comparison_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace benchkit::formats {
namespace {

using model::BenchmarkComparison;
using model::Verdict;
using ::testing::HasSubstr;

// A comparison with every field the file keeps set to something other than its default.
model::Comparison full_comparison() {
  model::Comparison comparison;
  comparison.settings.noise_threshold = 0.03;
  comparison.settings.count_noise_threshold = 0.002;
  comparison.settings.alpha = 0.01;
  comparison.settings.confidence = 0.99;
  comparison.settings.adjustment = model::Adjustment::benjamini_hochberg;
  comparison.settings.mde = 0.05;
  comparison.settings.power = 0.9;
  comparison.settings.sequential_alpha = {0.01, 0.01, 0.012};
  comparison.context_warning = "builds differ";
  comparison.design_warning = "one process a side";
  comparison.speed_note = "slow samples";
  comparison.method_note = "side by side";
  comparison.baseline_build = {"abc123", "feed"};
  comparison.candidate_build = {"def456", "beef"};
  comparison.shard = Shard{2, 3, "count", 4, 11};

  BenchmarkComparison paired;
  paired.name = "sort/size=64";
  paired.verdict = Verdict::regressed;
  paired.design = model::Design::paired;
  paired.baseline_median = 100.5;
  paired.candidate_median = 120.25;
  paired.ratio = 1.2;
  paired.ratio_lower = 1.1;
  paired.ratio_upper = 1.3;
  paired.p_value = 0.001;
  paired.p_adjusted = 0.004;
  paired.pairs = 3;
  paired.round_ratios = {1.1, 1.2, 1.3};
  paired.baseline_first = {true, false, true};
  paired.order_ratio = 0.8;
  paired.level = 0.012;
  paired.level_reached = false;
  paired.planned_rounds = model::RoundsForPower{7, false};
  paired.minimum_detectable_change = 0.04;
  paired.throughput_change = -0.16;
  paired.more_rounds = 5;
  paired.more_time_ns = 2.5e9;
  paired.candidate_diagnostics = {"drift"};
  paired.baseline_slow_samples = 2;
  paired.candidate_slow_samples = 1;
  paired.tested = true;
  paired.scenario = true;
  paired.effect_note = "before the suite";
  paired.note = "before the suite; and after";

  BenchmarkComparison counted;
  counted.name = "parse";
  counted.verdict = Verdict::unchanged;
  counted.design = model::Design::exact;
  counted.metric = "instructions";
  counted.baseline_median = 1000;
  counted.candidate_median = 1000;
  counted.p_value = 1.0;
  counted.p_adjusted = 1.0;
  counted.tested = true;

  BenchmarkComparison removed;
  removed.name = "gone";
  removed.verdict = Verdict::removed;
  removed.baseline_median = 42;
  removed.note = "not in the new run";

  // Three rounds of process pairs, too few to pair: compared as processes, the rounds kept.
  BenchmarkComparison few;
  few.name = "few_rounds";
  few.design = model::Design::processes;
  few.pairs = 3;
  few.tested = true;
  few.command = true;

  comparison.benchmarks = {paired, counted, removed, few};
  return comparison;
}

TEST(ComparisonJson, WritesAndReadsBackEveryField) {
  const model::Comparison written = full_comparison();
  const std::string text = comparison_to_json(written);
  const auto read = comparison_from_json(text, "shard-2.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(comparison_to_json(*read), text);  // whatever is written comes back

  const model::Comparison& c = *read;
  EXPECT_EQ(c.settings.adjustment, model::Adjustment::benjamini_hochberg);
  EXPECT_EQ(c.settings.count_noise_threshold, 0.002);
  EXPECT_EQ(c.settings.sequential_alpha, written.settings.sequential_alpha);
  EXPECT_EQ(c.baseline_build.executable_sha256, "feed");
  EXPECT_EQ(c.candidate_build.git_commit, "def456");
  ASSERT_TRUE(c.shard);
  EXPECT_EQ(c.shard->index, 2u);
  EXPECT_EQ(c.shard->selected, 11u);
  ASSERT_EQ(c.benchmarks.size(), 4u);
  const BenchmarkComparison& paired = c.benchmarks[0];
  EXPECT_EQ(paired.design, model::Design::paired);
  EXPECT_TRUE(paired.tested);
  EXPECT_TRUE(paired.scenario);
  EXPECT_EQ(paired.p_value, 0.001);
  EXPECT_EQ(paired.level, 0.012);
  EXPECT_FALSE(paired.level_reached);
  EXPECT_EQ(paired.effect_note, "before the suite");
  ASSERT_TRUE(paired.planned_rounds);
  EXPECT_EQ(paired.planned_rounds->rounds, 7u);
  EXPECT_FALSE(paired.planned_rounds->within_cap);
  EXPECT_EQ(paired.more_time_ns, 2.5e9);
  EXPECT_EQ(paired.round_ratios.size(), 3u);
  EXPECT_EQ(paired.baseline_first, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(paired.order_ratio, 0.8);
  EXPECT_EQ(c.benchmarks[1].metric, "instructions");
  EXPECT_EQ(c.benchmarks[2].verdict, Verdict::removed);
  EXPECT_EQ(c.benchmarks[2].baseline_median, 42);
  EXPECT_FALSE(c.benchmarks[2].tested);
  EXPECT_EQ(c.benchmarks[3].design, model::Design::processes);
  EXPECT_EQ(c.benchmarks[3].pairs, 3u);
  EXPECT_TRUE(c.benchmarks[3].command);
  EXPECT_FALSE(c.benchmarks[0].command);
}

TEST(ComparisonJson, TellsAComparisonFromAResultFile) {
  EXPECT_TRUE(is_comparison_document(comparison_to_json(full_comparison())));
  EXPECT_FALSE(is_comparison_document(R"({"schema": "benchkit/result", "version": 1})"));
  EXPECT_FALSE(is_comparison_document("not json \"benchkit/comparison\""));
  EXPECT_FALSE(is_comparison_document(""));
}

// The document of full_comparison() changed by `edit`, read back: the error message.
template <class Edit>
std::string error_after(Edit edit) {
  auto document = nlohmann::ordered_json::parse(comparison_to_json(full_comparison()));
  edit(document);
  const auto read = comparison_from_json(document.dump(), "shard-2.json");
  EXPECT_FALSE(read) << "read a damaged document";
  return read ? "" : read.error().message;
}

TEST(ComparisonJson, AnOlderOrNewerVersionIsRefusedWithWhatToDo) {
  const std::string older = error_after([](auto& d) { d["version"] = 1; });
  EXPECT_THAT(older, HasSubstr("shard-2.json: version: comparison format version 1 is not "
                               "supported: this benchkit reads version 2"));
  EXPECT_THAT(older, HasSubstr("write the comparison again with this benchkit"));
  EXPECT_THAT(error_after([](auto& d) { d["version"] = 3; }), HasSubstr("version 3"));
  EXPECT_THAT(error_after([](auto& d) { d.erase("version"); }),
              HasSubstr("shard-2.json: version: missing"));
}

TEST(ComparisonJson, EachDamagedFieldIsNamedWithItsFix) {
  EXPECT_THAT(error_after([](auto& d) { d["schema"] = "benchkit/result"; }),
              HasSubstr("shard-2.json: schema: expected \"benchkit/comparison\": give benchkit "
                        "merge the files written by benchkit compare or ab --format json"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0].erase("p_value"); }),
              HasSubstr("shard-2.json: benchmarks[0].p_value: missing: expected a number; write "
                        "the file again with benchkit compare or ab --format json"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][1]["ratio"] = "fast"; }),
              HasSubstr("benchmarks[1].ratio: expected a number, got string"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["verdict"] = "slower"; }),
              HasSubstr("benchmarks[0].verdict: unknown value \"slower\": expected one of "
                        "\"regressed\""));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0].erase("tested"); }),
              HasSubstr("benchmarks[0].tested: missing"));
  EXPECT_THAT(error_after([](auto& d) { d["settings"]["adjustment"] = "bonferroni"; }),
              HasSubstr("settings.adjustment: unknown value \"bonferroni\""));
  EXPECT_THAT(error_after([](auto& d) { d["shard"]["index"] = 4; }),
              HasSubstr("shard: shard 4/3 is not a part of a split"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"] = 3; }),
              HasSubstr("benchmarks: expected an array"));
  // A crossover's orders: one per round, each true or false; its ratios and order ratio above 0
  // (the note's order effect takes their logarithms).
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["baseline_first"] = {true}; }),
              HasSubstr("benchmarks[0].baseline_first: expected one entry per round (3), got 1"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["baseline_first"][1] = 1; }),
              HasSubstr("benchmarks[0].baseline_first: expected an array of true or false"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["round_ratios"][2] = 0; }),
              HasSubstr("benchmarks[0].round_ratios: 0 is not a ratio of two times"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["order_ratio"] = -1; }),
              HasSubstr("benchmarks[0].order_ratio: -1 is not a ratio of two times"));
}

// Found by comparison_json_fuzzer: a p-value of 5.03125 read from a document reached the
// suite's Benjamini-Hochberg adjustment, whose std::invalid_argument ended the program.
TEST(ComparisonJson, APValueOutsideZeroToOneIsRefusedNamingTheField) {
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][0]["p_value"] = 5.03125; }),
              HasSubstr("shard-2.json: benchmarks[0].p_value: 5.03125 is not a probability: "
                        "expected a number from 0 to 1"));
  EXPECT_THAT(error_after([](auto& d) { d["benchmarks"][1]["p_adjusted"] = -0.5; }),
              HasSubstr("benchmarks[1].p_adjusted: -0.5 is not a probability"));
}

TEST(ComparisonJson, TextThatIsNoJsonIsAnErrorNamingTheFile) {
  const auto read = comparison_from_json("{\"schema\": \"benchkit/comparison\", ", "cut.json");
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message, HasSubstr("cut.json"));
}

}  // namespace
}  // namespace benchkit::formats
