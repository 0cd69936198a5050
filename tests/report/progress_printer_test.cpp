#include "report/progress_printer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace benchkit::report {
namespace {

// Every call, in order: "show TEXT", "clear", "print TEXT", "error MESSAGE".
class RecordingSink final : public ProgressSink {
 public:
  void show(std::string_view text) override { calls.push_back("show " + std::string(text)); }
  void clear() override { calls.push_back("clear"); }
  void print(std::string_view text) override { calls.push_back("print " + std::string(text)); }
  void error(std::string_view message) override {
    calls.push_back("error " + std::string(message));
  }
  std::vector<std::string> calls;
};

using Calls = std::vector<std::string>;

// Every event once, with the same data, so that each command's subset shows.
Calls every_event(ProgressOf command, bool quiet = false) {
  RecordingSink sink;
  ProgressPrinter printer(sink, command, quiet);
  printer.measuring_started("./bench in 3 fresh processes");
  printer.revision_step("BASE v1", "checking out");
  printer.revision_built("BASE v1", false, 1.0, "/b");
  printer.counting_started("BASE v1", "bench", 2);
  printer.started(0, 1, 0, 2, "sort");
  printer.round_started(0, 4, 1, 2, "sort", false);
  printer.pair_round_started("bench", 0, 4, 0, 1, "sort");
  printer.command_run_started("nap", 2, false, 1.26);
  printer.note("no spawner");
  printer.benchmark_failed("nap", "exit status 3");
  printer.measuring_ended();
  return sink.calls;
}

TEST(ProgressPrinter, ABenchBinaryShowsItsBenchmarksAndRoundsAndNamesWhatFailed) {
  EXPECT_EQ(every_event(ProgressOf::bench_binary),
            (Calls{"show [1/2] sort", "show [round 1/4] [2/2] sort (baseline and new in turns)",
                   "clear", "error nap failed: exit status 3", "clear"}));
}

TEST(ProgressPrinter, ABenchBinarysExtraRoundSaysItIsStillInconclusive) {
  RecordingSink sink;
  ProgressPrinter printer(sink, ProgressOf::bench_binary, false);
  printer.round_started(5, 4, 0, 1, "sort", true);
  EXPECT_EQ(sink.calls,
            (Calls{"show [round 6/4] [1/1] sort (baseline and new in turns; more rounds: still "
                   "inconclusive)"}));
}

TEST(ProgressPrinter, ABenchmarkThatFailedIsNamedWithItsFirstFailure) {
  RecordingSink sink;
  ProgressPrinter printer(sink, ProgressOf::bench_binary, false);
  BenchmarkResult failed;
  failed.name = "sort";
  failed.failures = {"crashed (SIGSEGV)", "second"};
  printer.failed(failed);
  EXPECT_EQ(sink.calls, (Calls{"clear", "error sort failed: crashed (SIGSEGV)"}));
  // Only the bench binary names a failed benchmark of its suite: the others see it in the run.
  RecordingSink other;
  ProgressPrinter run(other, ProgressOf::run, false);
  run.failed(failed);
  EXPECT_TRUE(other.calls.empty());
}

TEST(ProgressPrinter, RunShowsItsCommandsAndAGoogleBenchmarkBinarysProcesses) {
  EXPECT_EQ(every_event(ProgressOf::run),
            (Calls{"show [process 1/1] Google Benchmark suite", "show round 3 · nap · 1.3 s",
                   "print note: no spawner", "clear", "error nap: exit status 3", "clear"}));
}

TEST(ProgressPrinter, QuietLeavesOutNotesAndRevisionStepsButNotFailures) {
  EXPECT_EQ(every_event(ProgressOf::run, true),
            (Calls{"show [process 1/1] Google Benchmark suite", "show round 3 · nap · 1.3 s",
                   "clear", "error nap: exit status 3", "clear"}));
  EXPECT_EQ(
      every_event(ProgressOf::revisions, true),
      (Calls{"show [round 1/4] [1/1] bench sort (both builds in turns)",
             "show round 3 · nap · 1.3 s", "clear", "error nap failed: exit status 3", "clear"}));
}

TEST(ProgressPrinter, RevisionsSayEachStepAndShowBothBuildsRounds) {
  EXPECT_EQ(
      every_event(ProgressOf::revisions),
      (Calls{"print benchkit: BASE v1: checking out",
             "print benchkit: BASE v1: built in 1.0 s (/b)",
             "print benchkit: BASE v1: counting 2 benchmarks of bench under valgrind (a "
             "fresh process each)",
             "show [round 1/4] [1/1] bench sort (both builds in turns)",
             "show round 3 · nap · 1.3 s", "clear", "error nap failed: exit status 3", "clear"}));
}

TEST(ProgressPrinter, RevisionCommandsSayAFailedCommandAsRunDoes) {
  const Calls calls = every_event(ProgressOf::revision_commands);
  ASSERT_GE(calls.size(), 2U);
  EXPECT_EQ(calls[calls.size() - 2], "error nap: exit status 3");
}

TEST(ProgressPrinter, ACommandsNameCannotMoveTheCursor) {
  RecordingSink sink;
  ProgressPrinter printer(sink, ProgressOf::noise, false);
  printer.benchmark_failed("a\033[2Jb", "out\rput");
  ASSERT_EQ(sink.calls.size(), 2U);
  EXPECT_EQ(sink.calls[1].find('\033'), std::string::npos);
  EXPECT_EQ(sink.calls[1].find('\r'), std::string::npos);
}

TEST(ProgressPrinter, NoiseSaysWhatItStartsAndShowsItsCommands) {
  EXPECT_EQ(every_event(ProgressOf::noise),
            (Calls{"print benchkit noise: ./bench in 3 fresh processes",
                   "show round 3 · nap · 1.3 s", "clear", "error nap: exit status 3", "clear"}));
}

TEST(ProgressPrinter, CompareShowsItsRoundsWithoutANoteAndSaysNoFailure) {
  EXPECT_EQ(every_event(ProgressOf::compare),
            (Calls{"show [round 1/4] [2/2] sort", "print note: no spawner", "clear"}));
}

TEST(ProgressPrinter, ACheckpointIsHandedOnWithTheSinkForItsWarning) {
  RecordingSink sink;
  std::vector<std::string> seen;
  ProgressPrinter printer(sink, ProgressOf::bench_binary, false,
                          [&](const RunResult& so_far, ProgressSink& to) {
                            seen.push_back(so_far.benchmarks.empty() ? "empty" : "some");
                            to.print("warning: cannot write");
                          });
  printer.checkpoint(RunResult{});
  EXPECT_EQ(seen, (std::vector<std::string>{"empty"}));
  EXPECT_EQ(sink.calls, (Calls{"print warning: cannot write"}));
  // Without one, a checkpoint is nothing.
  RecordingSink quiet;
  ProgressPrinter none(quiet, ProgressOf::run, false);
  none.checkpoint(RunResult{});
  EXPECT_TRUE(quiet.calls.empty());
}

}  // namespace
}  // namespace benchkit::report
