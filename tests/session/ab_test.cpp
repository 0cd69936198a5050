#include "session/ab.hpp"
#include "support/test_programs.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace benchkit::session {
namespace {

using analysis::Verdict;

TEST(SplitBenchmarks, SortsNamesIntoBothAddedAndRemovedAfterTheRegex) {
  const auto sets = split_benchmarks({"sort/n=10", "old", "hash"}, {"hash", "sort/n=10", "new"},
                                     "sort|hash|old|new");
  ASSERT_TRUE(sets);
  EXPECT_EQ(sets->both, (std::vector<std::string>{"hash", "sort/n=10"}));
  EXPECT_EQ(sets->added, (std::vector<std::string>{"new"}));
  EXPECT_EQ(sets->removed, (std::vector<std::string>{"old"}));
  const auto sorted = split_benchmarks({"sort/n=10", "hash"}, {"hash", "sort/n=10"}, "^sort");
  ASSERT_TRUE(sorted);
  EXPECT_EQ(sorted->both, (std::vector<std::string>{"sort/n=10"}));
  // A leading '-' keeps the names the rest does not match, as a bench binary's --filter does.
  const auto unsorted = split_benchmarks({"sort/n=10", "hash"}, {"hash", "sort/n=10"}, "-^sort");
  ASSERT_TRUE(unsorted);
  EXPECT_EQ(unsorted->both, (std::vector<std::string>{"hash"}));
}

TEST(SplitBenchmarks, ABadOrUnmatchedRegexIsAUsageError) {
  const auto bad = split_benchmarks({"a"}, {"a"}, "(");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, model::ErrorKind::usage);
  const auto none = split_benchmarks({"a"}, {"b"}, "zzz");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("a, b"), std::string::npos);
}

analysis::BenchmarkComparison entry(const std::string& name, Verdict verdict, double ratio) {
  analysis::BenchmarkComparison b;
  b.name = name;
  b.verdict = verdict;
  b.ratio = ratio;
  b.ratio_lower = ratio - 0.01;
  b.ratio_upper = ratio + 0.01;
  return b;
}

TEST(Summarise, ARegressionDecidesThenInconclusiveThenUnchanged) {
  analysis::Comparison c;
  c.benchmarks = {entry("a", Verdict::unchanged, 1.0), entry("b", Verdict::regressed, 1.1),
                  entry("c", Verdict::regressed, 1.2), entry("d", Verdict::inconclusive, 1.3)};
  Summary s = summarise(c);
  EXPECT_EQ(s.verdict, Verdict::regressed);
  EXPECT_EQ(s.benchmark, "c");
  EXPECT_DOUBLE_EQ(s.ratio, 1.2);
  c.benchmarks = {entry("a", Verdict::unchanged, 1.0), entry("d", Verdict::inconclusive, 1.03),
                  entry("e", Verdict::improved, 0.8)};
  EXPECT_EQ(summarise(c).verdict, Verdict::inconclusive);
  c.benchmarks = {entry("a", Verdict::unchanged, 1.01), entry("e", Verdict::improved, 0.8),
                  entry("n", Verdict::added, 1.0)};
  s = summarise(c);
  EXPECT_EQ(s.verdict, Verdict::unchanged);
  EXPECT_EQ(s.benchmark, "a");
  c.benchmarks = {entry("n", Verdict::added, 1.0)};
  EXPECT_EQ(summarise(c).verdict, Verdict::inconclusive);
}

TEST(Summarise, SeekingASpeedUpTheLargestImprovementDecides) {
  analysis::Comparison c;
  c.benchmarks = {entry("a", Verdict::regressed, 1.3), entry("b", Verdict::improved, 0.9),
                  entry("c", Verdict::improved, 0.8), entry("d", Verdict::inconclusive, 1.0)};
  const Summary s = summarise(c, Verdict::improved);
  EXPECT_EQ(s.verdict, Verdict::improved);
  EXPECT_EQ(s.benchmark, "c");
  EXPECT_DOUBLE_EQ(s.ratio, 0.8);
  // A regression is nothing sought then: inconclusive ranks above it.
  c.benchmarks = {entry("a", Verdict::regressed, 1.3), entry("d", Verdict::inconclusive, 1.0)};
  EXPECT_EQ(summarise(c, Verdict::improved).verdict, Verdict::inconclusive);
  c.benchmarks = {entry("a", Verdict::regressed, 1.3), entry("u", Verdict::unchanged, 1.0)};
  EXPECT_EQ(summarise(c, Verdict::improved).verdict, Verdict::unchanged);
}

TEST(RoundsTaken, IsOneNumberOrARange) {
  RunResult run;
  BenchmarkResult a;
  a.name = "a";
  for (std::uint32_t r = 0; r < 10; ++r) {
    Sample s;
    s.round = r;
    a.samples.push_back(s);
  }
  run.benchmarks.push_back(a);
  EXPECT_EQ(rounds_taken(run), "10");
  for (std::uint32_t r = 10; r < 30; ++r) {
    Sample s;
    s.round = r;
    a.samples.push_back(s);
  }
  a.name = "b";
  run.benchmarks.push_back(a);
  EXPECT_EQ(rounds_taken(run), "10-30");
}

TEST(RunAb, GoogleBenchmarkBuildsRunSideBySideAsCompareRunsThem) {
  // Two real Google Benchmark builds, BM_sum twice the work in the second: listed with Google
  // Benchmark's own listing (never --list), run in rounds of fresh process pairs.
  AbRequest request;
  request.binaries = {{"gb", std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite",
                       benchkit::testing::kGbenchSuiteSlower}};
  request.bench_flags = {"--benchmark_min_time=0.01"};
  request.rounds = 10;
  request.max_rounds = 10;
  const auto outcome = run_ab(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  std::map<std::string, Verdict> verdicts;
  for (const auto& b : outcome->comparison.benchmarks) verdicts[b.name] = b.verdict;
  EXPECT_EQ(verdicts.at("BM_sum"), Verdict::regressed);
  EXPECT_NE(verdicts.at("BM_accumulate/4096"), Verdict::regressed);
  EXPECT_EQ(outcome->rounds, "10");
  // Two builds of different kinds are refused before either runs.
  AbRequest mixed;
  mixed.binaries = {{"gb", std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite",
                     benchkit::testing::kSampleBench}};
  const auto refused = run_ab(mixed);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  EXPECT_NE(refused.error().message.find("one links Google Benchmark and the other does not"),
            std::string::npos)
      << refused.error().message;
  // --mode instructions counts benchkit bench binaries only.
  request.counted = true;
  const auto counted = run_ab(request);
  ASSERT_FALSE(counted);
  EXPECT_EQ(counted.error().kind, model::ErrorKind::usage);
  EXPECT_NE(counted.error().message.find("links Google Benchmark: --mode instructions counts"),
            std::string::npos)
      << counted.error().message;
}

}  // namespace
}  // namespace benchkit::session

namespace benchkit::session {
namespace {

using benchkit::testing::kSampleBench;
using benchkit::testing::kScenarioBench;

TEST(RunAb, BenchmarksOfOneBuildOnlyAreListedAsAddedAndRemoved) {
  // Two real bench binaries with no benchmark in common: nothing runs side by side, and the
  // comparison lists each name once, as added (only NEW has it) or removed (only BASE).
  AbRequest request;
  request.binaries = {{"bench", kSampleBench, kScenarioBench}};
  request.bench_regex = "copy_string|add/amount=1|mix_one";
  const auto outcome = run_ab(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  std::map<std::string, Verdict> verdicts;
  for (const auto& b : outcome->comparison.benchmarks) verdicts[b.name] = b.verdict;
  EXPECT_EQ(verdicts, (std::map<std::string, Verdict>{{"add/amount=1", Verdict::removed},
                                                      {"copy_string", Verdict::removed},
                                                      {"mix_one", Verdict::added}}));
}

TEST(RunAb, ABinaryThatCannotListItsBenchmarksIsNamed) {
  AbRequest request;
  request.binaries = {{"bench", "/bin/false", kSampleBench}};
  const auto outcome = run_ab(request);
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().message.find("/bin/false cannot list its benchmarks"),
            std::string::npos);
}

}  // namespace
}  // namespace benchkit::session
