// --mode instructions with real valgrind on the counted_bench fixture
// (tests/cli/counted_bench.cpp). Labelled `valgrind`, not `unit`: the ASan+UBSan build cannot run
// under valgrind (both replace the allocator and reserve the same shadow memory), so these run only
// in the release build. A counted benchmark takes a few seconds under valgrind; each test runs the
// fixture once or twice.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kCountedBench;

// The per-iteration count of each benchmark of a counted run written to `out`.
std::map<std::string, BenchmarkResult> counted(const std::string& flags, const std::string& out,
                                               const std::string& env = "") {
  std::filesystem::remove(out);
  const auto result =
      run_command(env + kCountedBench + " --mode instructions --quiet --out " + out + " " + flags);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::map<std::string, BenchmarkResult> by_name;
  const auto text = store::read_file(out);
  if (!text) return by_name;
  auto parsed = formats::from_json(*text, out);
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
  if (!parsed) return by_name;
  for (BenchmarkResult& benchmark : parsed->run.benchmarks) {
    by_name[benchmark.name] = std::move(benchmark);
  }
  return by_name;
}

TEST(CountedRun, CountsAreIdenticalAcrossSamplesAndRuns) {
  const std::string dir = ::testing::TempDir();
  auto first = counted("--filter steady --sample-size 3", dir + "/counted-a.json");
  auto second = counted("--filter steady --sample-size 3", dir + "/counted-b.json");
  ASSERT_EQ(first.count("steady"), 1u);
  ASSERT_EQ(second.count("steady"), 1u);
  const BenchmarkResult& a = first["steady"];
  const BenchmarkResult& b = second["steady"];
  EXPECT_EQ(a.metric, "instructions");
  ASSERT_EQ(a.samples.size(), 3u);
  for (const Sample& sample : a.samples) EXPECT_EQ(sample.ns, a.samples.front().ns);
  EXPECT_EQ(a.samples.front().ns, b.samples.front().ns);
  EXPECT_EQ(a.estimates.median.value, b.estimates.median.value);
  // 2,000 steps of a multiply-add loop: a handful of instructions each.
  EXPECT_GT(a.estimates.median.value, 2000.0 * 3);
  EXPECT_LT(a.estimates.median.value, 2000.0 * 12);
  EXPECT_GT(a.samples.front().counters.at("l1_hits"), 0.0);
  EXPECT_EQ(a.samples.front().counters.at("system_calls"), 0.0);
}

TEST(CountedRun, SetUpAndDropsAreNotCounted) {
  auto runs = counted("--filter 'steady|heavy_setup' --sample-size 1",
                      ::testing::TempDir() + "/counted-setup.json");
  ASSERT_EQ(runs.count("steady"), 1u);
  ASSERT_EQ(runs.count("heavy_setup"), 1u);
  // heavy_setup's input costs 100 times its routine (the same 2,000 steps as steady) and its
  // output is dropped: only the routine is counted, plus moving the vector in and out.
  const double routine = runs["steady"].estimates.median.value;
  const double with_setup = runs["heavy_setup"].estimates.median.value;
  EXPECT_GT(with_setup, routine * 0.95);
  EXPECT_LT(with_setup, routine * 1.05) << "set-up or drops leaked into the count";
}

TEST(CountedRun, TenPercentMoreWorkIsTenPercentMoreAndRegressed) {
  const std::string dir = ::testing::TempDir() + "/counted-baseline-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string env = "BENCHKIT_DIR=" + dir + " ";
  auto base =
      counted("--filter steady --sample-size 2 --save-baseline before", dir + "/a.json", env);
  const auto result = run_command(env + "COUNTED_BENCH_WORK=110 " + kCountedBench +
                                  " --mode instructions --filter steady --sample-size 2 "
                                  "--keep-env COUNTED_BENCH_WORK --baseline before --saved-samples "
                                  "--fail-on-regression --format json --out " +
                                  dir + "/b.json");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;  // regressed
  EXPECT_THAT(result.out, HasSubstr("regressed"));
  const auto text = store::read_file(dir + "/b.json");
  ASSERT_TRUE(text);
  auto parsed = formats::from_json(*text, "b.json");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->run.benchmarks.size(), 1u);
  const double ratio =
      parsed->run.benchmarks[0].estimates.median.value / base["steady"].estimates.median.value;
  EXPECT_NEAR(ratio, 1.10, 0.005);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace benchkit
