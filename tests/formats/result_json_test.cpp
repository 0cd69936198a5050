#include "formats/result_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/estimates.hpp"
#include "support/golden.hpp"
#include "support/sample_run.hpp"

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

TEST(ResultJson, MatchesTheGoldenFile) {
  testing::expect_golden("result.json", to_json(testing::sample_run()));
}

TEST(ResultJson, RoundTripsEveryField) {
  const RunResult original = testing::sample_run();
  const std::string text = to_json(original);
  auto parsed = from_json(text, "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_TRUE(parsed->estimates_present);
  // Writing what was read gives the same document: nothing was lost or changed.
  EXPECT_EQ(to_json(parsed->run), text);
  EXPECT_EQ(parsed->run.benchmarks[0].samples[3].ns, original.benchmarks[0].samples[3].ns);
  EXPECT_EQ(parsed->run.context.git_dirty, std::optional<bool>(false));
}

TEST(ResultJson, RoundTripsResourcesAndFailuresOfCommands) {
  RunResult run;
  BenchmarkResult b;
  b.name = "zstd/level=3";
  b.kind = "command";
  b.command = "zstd -3 -c input.bin";
  b.failures = {"run 4 exited with status 1"};
  Sample s;
  s.ns = 5e6;
  Resources r;
  r.user_ns = 4e6;
  r.system_ns = 1e6;
  r.peak_rss_bytes = 3 << 20;
  r.minor_faults = 120;
  r.exit_code = 1;
  r.timed_out = true;
  s.resources = r;
  b.samples = {s, Sample{}};
  run.benchmarks.push_back(b);
  auto parsed = from_json(to_json(run), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const BenchmarkResult& back = parsed->run.benchmarks.at(0);
  EXPECT_EQ(back.command, b.command);
  EXPECT_EQ(back.failures, b.failures);
  EXPECT_FALSE(back.valid());
  ASSERT_TRUE(back.samples[0].resources.has_value());
  EXPECT_EQ(back.samples[0].resources->peak_rss_bytes, r.peak_rss_bytes);
  EXPECT_EQ(back.samples[0].resources->user_ns, r.user_ns);
  EXPECT_EQ(back.samples[0].resources->exit_code, std::optional<int>(1));
  EXPECT_FALSE(back.samples[0].resources->signal.has_value());
  EXPECT_TRUE(back.samples[0].resources->timed_out);
  EXPECT_FALSE(back.samples[1].resources.has_value());
  EXPECT_EQ(to_json(parsed->run), to_json(run));
}

TEST(ResultJson, RoundTripsMachineSpeedReadingsAndTheSlowSampleCount) {
  RunResult run;
  BenchmarkResult b;
  b.name = "sort";
  Sample fast;
  fast.iters = 10;
  fast.ns = 1000;
  fast.probe_ns = 1800.5;
  Sample unread;
  unread.iters = 10;
  unread.ns = 1100;
  b.samples = {fast, unread};
  b.estimates.slow_samples = 7;
  run.benchmarks.push_back(b);
  auto parsed = from_json(to_json(run), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const BenchmarkResult& back = parsed->run.benchmarks.at(0);
  EXPECT_EQ(back.samples[0].probe_ns, std::optional<double>(1800.5));
  EXPECT_FALSE(back.samples[1].probe_ns.has_value());
  EXPECT_EQ(back.estimates.slow_samples, 7u);
  EXPECT_EQ(to_json(parsed->run), to_json(run));
}

TEST(ResultJson, TheSmallestValidDocumentGetsItsEstimatesRecomputed) {
  const std::string minimal = R"({"schema": "benchkit/result", "version": 1,
    "benchmarks": [{"name": "external", "samples": [{"iters": 10, "ns": 1000},
                                                    {"iters": 10, "ns": 3000},
                                                    {"iters": 10, "ns": 2000}]}]})";
  auto parsed = from_json(minimal, "minimal.json");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_FALSE(parsed->estimates_present);
  RunResult run = parsed->run;
  analysis::compute_estimates(run);
  EXPECT_EQ(run.benchmarks[0].kind, "micro");
  EXPECT_DOUBLE_EQ(run.benchmarks[0].estimates.median.value, 200.0);
  EXPECT_DOUBLE_EQ(run.benchmarks[0].estimates.min, 100.0);
}

struct BadInput {
  const char* label;
  std::string text;
  std::string expected;
};

class ResultJsonErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(ResultJsonErrors, NameTheFileThePlaceAndTheProblem) {
  auto parsed = from_json(GetParam().text, "base.json");
  ASSERT_FALSE(parsed) << GetParam().label;
  EXPECT_THAT(parsed.error().message, HasSubstr("base.json"));
  EXPECT_THAT(parsed.error().message, HasSubstr(GetParam().expected));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ResultJsonErrors,
    ::testing::Values(
        BadInput{"truncated", R"({"schema": "benchkit/result", "version": 1, "benchm)",
                 "truncated"},
        BadInput{"not json", "hello", "line 1, column 1"},
        BadInput{"wrong schema", R"({"schema": "other", "version": 1, "benchmarks": []})",
                 "schema: is \"other\""},
        BadInput{"no schema", R"({"benchmarks": []})", "benchkit import"},
        BadInput{"future version",
                 R"({"schema": "benchkit/result", "version": 9, "benchmarks": []})",
                 "version 9 is not supported"},
        BadInput{"missing ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1}]}]})",
                 "benchmarks[0].samples[0].ns: missing"},
        BadInput{"text ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": "5"}]}]})",
                 "expected a number, got string"},
        BadInput{"zero iters",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 0, "ns": 5}]}]})",
                 "iters: must be at least 1"},
        BadInput{"negative ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": -5}]}]})",
                 "non-negative"},
        BadInput{"zero probe",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": 5,
                                                               "probe_ns": 0}]}]})",
                 "samples[0].probe_ns: must be a positive number"},
        BadInput{"no name",
                 R"({"schema": "benchkit/result", "version": 1, "benchmarks": [{"samples": []}]})",
                 "benchmarks[0].name: missing"},
        BadInput{"bad kind",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "kind": "macro", "samples": []}]})",
                 "unknown kind \"macro\""}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
      std::string name = info.param.label;
      for (char& c : name) {
        if (c == ' ') c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace benchkit::formats
