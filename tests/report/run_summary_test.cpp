#include "report/run_summary.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/sample_run.hpp"

namespace benchkit::report {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

BenchmarkResult failed(std::string name, std::string cause, bool failure) {
  BenchmarkResult benchmark;
  benchmark.name = std::move(name);
  benchmark.failures = {std::move(cause), "a later failure, not shown"};
  if (failure) benchmark.failure = Failure{};
  return benchmark;
}

TEST(RunSummary, StartLinesCountInTheSingularAndThePlural) {
  EXPECT_EQ(commands_start_line(1, false, "alternate"),
            "benchkit run: 1 benchmark, interleaved in rounds (alternate order)\n");
  EXPECT_EQ(commands_start_line(3, true, "random"),
            "benchkit run: 3 benchmarks and the shell's start-up, interleaved in rounds (random "
            "order)\n");
  EXPECT_EQ(counted_start_line({"./tool", "--fast"}, 1),
            "benchkit run: counting ./tool --fast under valgrind's callgrind, children traced, 1 "
            "run\n");
  EXPECT_THAT(counted_start_line({"./tool"}, 3), EndsWith("3 runs\n"));
  EXPECT_EQ(bench_binary_start_line({"./bench", "--sample-size", "5"}),
            "benchkit run: ./bench --sample-size 5\n");
}

TEST(RunSummary, CommandsEndWithTheRoundsAndWhyTheyStopped) {
  const RunResult run = testing::sample_run();
  const std::string text =
      run_summary(run, RunSummary{.kind = RunKind::commands, .rounds = 1, .stop_reason = "done"});
  EXPECT_THAT(text, EndsWith("\n1 round: done\n"));
  EXPECT_THAT(run_summary(run, {.kind = RunKind::commands, .rounds = 4, .stop_reason = "budget"}),
              EndsWith("4 rounds: budget\n"));
}

TEST(RunSummary, AGoogleBenchmarkBinarySaysItsFreshProcesses) {
  const RunResult run = testing::sample_run();
  EXPECT_THAT(run_summary(run, {.kind = RunKind::gbench, .processes = 5, .program = "./gb"}),
              EndsWith("5 fresh processes of ./gb\n"));
  EXPECT_THAT(run_summary(run, {.kind = RunKind::gbench, .processes = 1, .program = "./gb"}),
              EndsWith("1 fresh process of ./gb\n"));
  EXPECT_THAT(
      run_summary(run,
                  {.kind = RunKind::gbench, .processes = 5, .program = "./gb", .min_time_s = 0.1}),
      EndsWith("5 fresh processes of ./gb, each given --benchmark_min_time=0.1 (Google "
               "Benchmark's 0.5 s a benchmark shared among them; give --benchmark_min_time after "
               "-- to choose)\n"));
  EXPECT_THAT(run_summary(run, {.kind = RunKind::counted, .processes = 5, .program = "./gb"}),
              Not(HasSubstr("fresh process")));
  EXPECT_THAT(
      run_summary(
          run, {.kind = RunKind::gbench, .processes = 5, .program = "./gb", .interrupted = true}),
      EndsWith("5 fresh processes of ./gb planned, the table holding those that finished\n"));
}

TEST(RunSummary, ComparisonsFollowTheReferenceFirstItsNameMadeSafe) {
  const RunResult run = testing::sample_run();
  const analysis::Comparison comparison;
  const std::string text = run_summary(run, {.kind = RunKind::commands,
                                             .against_reference = &comparison,
                                             .reference = "evil\x1b]0;title\x07",
                                             .against_baseline = &comparison,
                                             .baseline = "main"});
  const auto reference = text.find("\nagainst evil\\e]0;title\\x07 (paired rounds):\n");
  const auto baseline = text.find("\nagainst baseline main:\n");
  ASSERT_NE(reference, std::string::npos) << text;
  ASSERT_NE(baseline, std::string::npos) << text;
  EXPECT_LT(reference, baseline);
  EXPECT_THAT(run_summary(run, {.kind = RunKind::commands}), Not(HasSubstr("against")));
}

TEST(RunFailures, InterruptedSaysWhereTheRunsAreAndNothingElse) {
  RunResult run;
  run.benchmarks = {failed("a", "crashed", true)};
  const RunFailures shown = run_failures(run, RunKind::gbench, true, "out.json");
  EXPECT_TRUE(shown.errors.empty());
  EXPECT_EQ(shown.note,
            "interrupted: the processes finished so far are in the table and in out.json\n");
  EXPECT_EQ(run_failures(run, RunKind::commands, true, "").note,
            "interrupted: the runs so far are in the table\n");
}

TEST(RunFailures, EachKindSaysItsFailuresItsWay) {
  RunResult run;
  run.benchmarks = {testing::sample_run().benchmarks.front(), failed("a", "crashed", true),
                    failed("b", "exit 3", false)};
  const RunFailures gbench = run_failures(run, RunKind::gbench, false, "");
  EXPECT_THAT(gbench.errors, ElementsAre("a: crashed", "b: exit 3"));
  EXPECT_EQ(gbench.note, "");
  const RunFailures counted = run_failures(run, RunKind::counted, false, "");
  EXPECT_THAT(counted.errors, ElementsAre("crashed"));
  const RunFailures commands = run_failures(run, RunKind::commands, false, "");
  EXPECT_TRUE(commands.errors.empty());
  EXPECT_EQ(commands.note, "2 benchmarks failed\n");
  run.benchmarks.pop_back();
  EXPECT_EQ(run_failures(run, RunKind::commands, false, "").note, "1 benchmark failed\n");
  run.benchmarks.pop_back();
  EXPECT_EQ(run_failures(run, RunKind::commands, false, "").note, "");
}

}  // namespace
}  // namespace benchkit::report
