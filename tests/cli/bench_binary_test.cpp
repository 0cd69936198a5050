// The bench binary as a user runs it: a real process with real flags.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kSampleBench;
// Short budgets keep the suite fast; these tests check behaviour, not timings.
const std::string kShortRun = " --time-budget 20ms --warm-up 1ms --sample-size 5";

TEST(BenchBinary, ListsBenchmarkNames) {
  const auto result = run_command(kSampleBench + " --list");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "add/amount=1\nadd/amount=2\ncopy_string\nmay_fail\n");
}

TEST(BenchBinary, FilterSelectsByRegexAndExactByName) {
  EXPECT_EQ(run_command(kSampleBench + " --list --filter 'amount=2|copy'").out,
            "add/amount=2\ncopy_string\n");
  EXPECT_EQ(run_command(kSampleBench + " --list --exact --filter add/amount=1").out,
            "add/amount=1\n");
}

// Google Benchmark's habits carry over: a leading '-' excludes, a list that matches nothing says
// so (exit 0: a driver lists builds that lack a new benchmark), and Google Benchmark's flags are
// named with benchkit's form.
TEST(BenchBinary, GoogleBenchmarkUsersFiltersAndFlagsAreUnderstood) {
  EXPECT_EQ(run_command(kSampleBench + " --list --filter '-amount'").out,
            "copy_string\nmay_fail\n");
  const auto none = run_command(kSampleBench + " --list --filter nothing_here");
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.out, "");
  EXPECT_THAT(none.err, ::testing::HasSubstr("no benchmark matches --filter \"nothing_here\""));
  const auto flag = run_command(kSampleBench + " --benchmark_filter=add");
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_THAT(flag.err, ::testing::HasSubstr("--benchmark_filter is Google Benchmark's flag; this "
                                             "is a benchkit bench binary (here: --filter REGEX)"));
  // A misspelt flag of its own: the one meant.
  const auto misspelt = run_command(kSampleBench + " --fliter add");
  EXPECT_EQ(misspelt.exit_code, 2);
  EXPECT_THAT(misspelt.err, ::testing::HasSubstr("--fliter is not a flag of " + kSampleBench +
                                                 ": did you mean --filter?"));
}

// A registration's mistake is a usage error naming it and where it was registered (exit 2);
// --help still prints. It used to throw before main(): "terminate called", exit 134, even for
// --help.
TEST(BenchBinary, ARegistrationMistakeIsAUsageErrorNotAnAbort) {
  const std::string bench = std::string(BENCHKIT_BINARY_DIR) + "/tests/bad_registration_bench";
  const auto help = run_command(bench + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_THAT(help.out, HasSubstr("--filter"));
  for (const std::string flags : {" --list", " --quiet"}) {
    const auto refused = run_command(bench + flags);
    EXPECT_EQ(refused.exit_code, 2) << flags << ": " << refused.err;
    EXPECT_THAT(refused.err, HasSubstr("benchmark nameless: parameter name \"\" must be non-empty "
                                       "without '/' or '='"));
    EXPECT_THAT(refused.err, HasSubstr("bad_registration_bench.cpp:"));
    EXPECT_THAT(refused.err, ::testing::Not(HasSubstr("terminate")));
  }
}

TEST(BenchBinary, TestModeRunsEachBenchmarkOnce) {
  const auto result = run_command(kSampleBench + " --test --format json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto parsed = formats::from_json(result.out, "stdout");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->run.benchmarks.size(), 4u);
  for (const auto& benchmark : parsed->run.benchmarks) {
    ASSERT_EQ(benchmark.samples.size(), 1u) << benchmark.name;
    EXPECT_EQ(benchmark.samples[0].iters, 1u);
  }
}

TEST(BenchBinary, WritesAValidResultFileWithItsContext) {
  const std::string out = ::testing::TempDir() + "/bench-result.json";
  std::filesystem::remove(out);
  // A budget that gives five samples even on a loaded machine (20 ms gave 2 at a load of 15).
  const auto result = run_command(
      kSampleBench + " --time-budget 200ms --warm-up 1ms --sample-size 5 --seed 42 --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("copy_string"));  // the console table is still printed
  EXPECT_THAT(result.out, HasSubstr("results written to " + out));
  auto text = store::read_file(out);
  ASSERT_TRUE(text);
  auto parsed = formats::from_json(*text, out);
  ASSERT_TRUE(parsed) << parsed.error().message;
  const RunResult& run = parsed->run;
  EXPECT_EQ(run.context.seed, 42u);
  EXPECT_EQ(run.context.executable_sha256.size(), 64u);
  EXPECT_FALSE(run.context.hostname.empty());
  EXPECT_FALSE(run.context.kernel.empty());
  EXPECT_EQ(run.context.build_type, BENCHKIT_TEST_BUILD_TYPE);
  EXPECT_THAT(run.context.command_line, HasSubstr("--seed 42"));
  ASSERT_EQ(run.benchmarks.size(), 4u);
  for (const auto& benchmark : run.benchmarks) {
    EXPECT_GE(benchmark.samples.size(), 5u) << benchmark.name;
    EXPECT_GT(benchmark.estimates.median.value, 0.0) << benchmark.name;
    EXPECT_LE(benchmark.estimates.median.lower, benchmark.estimates.median.value);
    EXPECT_GE(benchmark.estimates.median.upper, benchmark.estimates.median.value);
    EXPECT_TRUE(benchmark.memory.peak_rss_bytes.has_value());
    // Every sample records the machine's speed around it (the reference loop's time).
    for (const Sample& sample : benchmark.samples) {
      ASSERT_TRUE(sample.probe_ns.has_value()) << benchmark.name;
      EXPECT_GT(*sample.probe_ns, 0.0);
    }
    EXPECT_LE(benchmark.estimates.slow_samples, benchmark.samples.size());
  }
  EXPECT_EQ(run.benchmarks[0].params.at("amount"), "1");
  EXPECT_TRUE(run.benchmarks[2].estimates.bytes_per_second.has_value());
}

TEST(BenchBinary, OtherFormatsGoToStdout) {
  const auto csv = run_command(kSampleBench + kShortRun + " --filter copy --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_THAT(csv.out, HasSubstr("name,kind,median_ns"));
  EXPECT_THAT(csv.out, HasSubstr("copy_string,micro,"));
  const auto markdown = run_command(kSampleBench + kShortRun + " --filter copy --format markdown");
  EXPECT_THAT(markdown.out, HasSubstr("| `copy_string` |"));
}

TEST(BenchBinary, AFailingBenchmarkIsNamedAndTheOthersStillRun) {
  const auto result = run_command("SAMPLE_BENCH_FAIL=1 " + kSampleBench + " --test");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("may_fail failed: benchmark may_fail threw: asked to fail"));
  EXPECT_THAT(result.out, HasSubstr("copy_string"));
}

struct UsageError {
  const char* flags;
  const char* message;
};

class BenchBinaryUsage : public ::testing::TestWithParam<UsageError> {};

TEST_P(BenchBinaryUsage, ExitsWithStatusTwoAndSaysWhatIsWrong) {
  const auto result = run_command(kSampleBench + " " + GetParam().flags);
  EXPECT_EQ(result.exit_code, 2) << GetParam().flags;
  EXPECT_THAT(result.err, HasSubstr(GetParam().message)) << GetParam().flags;
}

INSTANTIATE_TEST_SUITE_P(
    Flags, BenchBinaryUsage,
    ::testing::Values(UsageError{"--bogus", "--bogus"},
                      UsageError{"--time-budget 5x", "--time-budget \"5x\" is not a positive"},
                      UsageError{"--warm-up 0", "--warm-up \"0\" is not a positive"},
                      UsageError{"--sample-size 0", "--sample-size"},
                      UsageError{"--format xml", "--format"},
                      UsageError{"--color sometimes", "--color"},
                      UsageError{"--filter nothing-matches", "run with --list"},
                      UsageError{"--filter '('", "is not a regular expression"},
                      UsageError{"--test --out /proc/no/such/dir/x.json", "cannot"}));

TEST(BenchBinary, HelpExplainsTheFlags) {
  const auto result = run_command(kSampleBench + " --help");
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--filter", "--exact", "--list", "--test", "--time-budget", "--warm-up",
                           "--sample-size", "--seed", "--format", "--out", "--quiet", "--color"}) {
    EXPECT_THAT(result.out, HasSubstr(flag));
  }
}

TEST(BenchBinary, ColourFollowsTheFlagAndNoColor) {
  const auto always = run_command(kSampleBench + " --test --filter copy --color always");
  EXPECT_THAT(always.out, HasSubstr("\033["));
  const auto never = run_command(kSampleBench + " --test --filter copy --color never");
  EXPECT_EQ(never.out.find("\033["), std::string::npos);
  const auto no_color = run_command("NO_COLOR=1 " + kSampleBench + " --test --filter copy");
  EXPECT_EQ(no_color.out.find("\033["), std::string::npos);
}

}  // namespace
}  // namespace benchkit

namespace benchkit {
namespace {

TEST(BenchBinaryProcesses, SamplesFromSeveralProcessesAreMergedAndNumbered) {
  const std::string out = ::testing::TempDir() + "/processes.json";
  const auto result =
      testing::run_command(kSampleBench + kShortRun + " --filter copy --processes 3 --out " + out);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto text = store::read_file(out);
  ASSERT_TRUE(text);
  auto parsed = formats::from_json(*text, out);
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->run.benchmarks.size(), 1u);
  std::set<std::uint32_t> processes;
  for (const auto& sample : parsed->run.benchmarks[0].samples) processes.insert(sample.process);
  EXPECT_EQ(processes, (std::set<std::uint32_t>{0, 1, 2}));
  EXPECT_GT(parsed->run.benchmarks[0].estimates.median.value, 0.0);
}

TEST(BenchBinary, AHangingBenchmarkIsKilledAndTheRunGoesOn) {
  for (const char* where : {"setup", "sample"}) {
    const auto result =
        testing::run_command(std::string("SAMPLE_BENCH_HANG=") + where + " " + kSampleBench +
                             kShortRun + " --filter 'may_fail|copy' --timeout 1s");
    EXPECT_EQ(result.exit_code, 1) << where;
    EXPECT_THAT(result.err,
                ::testing::HasSubstr("error: may_fail failed: did not finish within 1 s"));
    EXPECT_THAT(result.err, ::testing::HasSubstr("raise --timeout"));
    EXPECT_THAT(result.out, ::testing::ContainsRegex("copy_string +[0-9.]+ (ns|µs)"));
  }
  // Smoke tests (what CTest runs) go on too.
  const auto smoke = testing::run_command("SAMPLE_BENCH_HANG=setup " + kSampleBench +
                                          " --test --filter 'may_fail|copy' --timeout 1s");
  EXPECT_EQ(smoke.exit_code, 1);
  EXPECT_THAT(smoke.err, ::testing::HasSubstr("may_fail failed: did not finish"));
  EXPECT_THAT(smoke.out, ::testing::HasSubstr("copy_string"));
  // In fresh processes: named once, not run again in the second process.
  const auto workers = testing::run_command("SAMPLE_BENCH_HANG=setup " + kSampleBench + kShortRun +
                                            " --filter may_fail --processes 2 --timeout 1s");
  EXPECT_EQ(workers.exit_code, 1);
  EXPECT_THAT(workers.err, ::testing::HasSubstr("may_fail failed: did not finish within 1 s"));
  EXPECT_THAT(workers.err, ::testing::HasSubstr("1 benchmark(s) failed"));
  // A bad value is a usage error.
  const auto bad = testing::run_command(kSampleBench + " --timeout never");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, ::testing::HasSubstr("--timeout \"never\" is not a positive duration"));
}

TEST(BenchBinaryProcesses, ACrashingWorkerIsReportedWithItsSignal) {
  const auto result = testing::run_command("SAMPLE_BENCH_CRASH=1 " + kSampleBench + kShortRun +
                                           " --filter may_fail --processes 2");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err,
              ::testing::HasSubstr("may_fail failed: crashed: its process was killed by signal 6 "
                                   "(SIGABRT)"));
}

}  // namespace
}  // namespace benchkit
