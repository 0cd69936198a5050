// The measurers of `benchkit run` (commands in rounds, a counted command, a Google Benchmark
// binary) through the whole pipeline, on a fake executor and clock, a fake counter and runner
// and a fake keeper: no process is started and nothing is written.
#include "session/command_measurers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fakes/fake_clock.hpp"
#include "fakes/fake_executor.hpp"
#include "session/fake_keeper.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::FakeClock;
using benchkit::testing::FakeExecutor;
using session::testing::FakeKeeper;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class PipelineRecorder final : public Observer {
 public:
  void command_run_started(const std::string& name, std::size_t round, bool warmup,
                           double /*elapsed_seconds*/) override {
    runs_started.push_back((warmup ? "w" : "") + std::to_string(round) + " " + name);
  }
  void benchmark_failed(const std::string& name, const std::string& message) override {
    failures.push_back(name + ": " + message);
  }
  void checkpoint(const RunResult& /*so_far*/) override { ++checkpoints; }
  void started(std::size_t process, std::size_t processes, std::size_t /*index*/,
               std::size_t /*total*/, const std::string& name) override {
    processes_started.push_back(std::to_string(process + 1) + "/" + std::to_string(processes) +
                                " " + name);
  }
  void measuring_ended() override { ++ended; }
  std::vector<std::string> runs_started;
  std::vector<std::string> failures;
  std::vector<std::string> processes_started;
  int checkpoints = 0;
  int ended = 0;
};

Steps saved_and_recorded() {
  Steps steps;
  steps.save_baseline = "main";
  steps.record = true;
  steps.record_store = "history.db";
  return steps;
}

// Commands named as their program, run exactly `runs` rounds without warm-up.
CommandsPlan commands(const std::vector<std::string>& names, std::size_t runs) {
  CommandsPlan plan;
  for (const std::string& name : names) {
    process::CommandSpec spec;
    spec.name = name;
    spec.argv = {name};
    plan.request.commands.push_back(spec);
  }
  plan.request.settings.warmup = 0;
  plan.request.settings.runs = runs;
  plan.request.settings.min_runs = runs;
  plan.request.context.seed = 42;
  auto planned = plan_commands(plan.request);
  EXPECT_TRUE(planned) << planned.error().message;
  if (planned) plan.planned = std::move(*planned);
  return plan;
}

// Every run of a command takes the milliseconds given for it.
Outcome run_commands(CommandsPlan plan, const Steps& steps, FakeExecutor::Script script,
                     PipelineRecorder& observer, FakeKeeper& keeper) {
  FakeClock clock;
  FakeExecutor executor(clock, std::move(script));
  const auto measurer = make_measurer(std::move(plan), executor, clock);
  return run_pipeline(*measurer, steps, observer, keeper);
}

TEST(CommandsMeasurer, ACommandThatCrashesHangsOrExitsFailsTheRunAndTheOthersAreKept) {
  auto ended_by = [](std::optional<int> signal, bool timed_out, std::optional<int> exit_code) {
    process::RunRecord record = FakeExecutor::ok_after(5e6);
    record.resources.signal = signal;
    record.resources.timed_out = timed_out;
    record.resources.exit_code = exit_code;
    return record;
  };
  const std::vector<std::pair<process::RunRecord, std::string>> endings = {
      {ended_by(11, false, std::nullopt), "signal 11"},
      {ended_by(9, true, std::nullopt), "timed out"},
      {ended_by(std::nullopt, false, 3), "exited with status 3"}};
  for (const auto& entry : endings) {
    // Named, not bound: clang 14 cannot capture a structured binding in the lambda below.
    const process::RunRecord& ending = entry.first;
    const std::string& said = entry.second;
    PipelineRecorder observer;
    FakeKeeper keeper;
    const Outcome outcome = run_commands(
        commands({"good", "bad"}, 4), saved_and_recorded(),
        [&](const process::RunRequest& request) {
          return FakeExecutor::joined(request) == "bad" ? ending : FakeExecutor::ok_after(2e6);
        },
        observer, keeper);
    ASSERT_TRUE(outcome.measured) << said;
    ASSERT_EQ(outcome.run.benchmarks.size(), 2u);
    EXPECT_EQ(outcome.run.benchmarks[0].samples.size(), 4u) << said;
    EXPECT_FALSE(outcome.run.benchmarks[1].valid()) << said;
    ASSERT_EQ(observer.failures.size(), 1u) << said;
    EXPECT_THAT(observer.failures[0], HasSubstr("bad: ")) << said;
    EXPECT_THAT(observer.failures[0], HasSubstr(said));
    EXPECT_EQ(observer.ended, 1);
    // Saved and recorded all the same, and the run fails.
    EXPECT_EQ(keeper.saved_benchmarks, 2u) << said;
    EXPECT_EQ(keeper.recorded, std::vector<std::string>{"history.db"}) << said;
    EXPECT_TRUE(outcome.errors.empty()) << said;
    EXPECT_EQ(outcome.exit_status(), 1) << said;
  }
}

TEST(CommandsMeasurer, ProgressAndCheckpointsReachTheObserverAndTheContextIsThePlans) {
  CommandsPlan plan = commands({"a", "b"}, 3);
  plan.request.settings.warmup = 1;
  plan.request.checkpoints = true;
  PipelineRecorder observer;
  FakeKeeper keeper;
  // 3 s a run: a checkpoint is due after every round (kCheckpointSeconds).
  const Outcome outcome =
      run_commands(std::move(plan), Steps{}, FakeExecutor::timed({{"a", 3000.0}, {"b", 3000.0}}),
                   observer, keeper);
  // A warm-up run of each, then three rounds of both.
  ASSERT_EQ(observer.runs_started.size(), 8u);
  EXPECT_THAT(observer.runs_started[0], ::testing::StartsWith("w"));
  EXPECT_THAT(observer.runs_started[1], ::testing::StartsWith("w"));
  EXPECT_EQ(observer.runs_started[2], "0 a");
  EXPECT_GE(observer.checkpoints, 2);
  EXPECT_EQ(outcome.run.context.seed, 42u);
  ASSERT_TRUE(outcome.rounds);
  EXPECT_EQ(outcome.rounds->count, 3u);
  EXPECT_FALSE(outcome.rounds->stop_reason.empty());
  EXPECT_EQ(outcome.exit_status(), 0);
}

TEST(CommandsMeasurer, AnInterruptedRunKeepsItsRoundsIsSavedButNotRecordedAndExits130) {
  int runs = 0;
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome outcome = run_commands(
      commands({"a", "b"}, 6), saved_and_recorded(),
      [&](const process::RunRequest&) {
        process::RunRecord record = FakeExecutor::ok_after(1e6);
        // Ctrl-C during the fifth run: the command is killed, that run is void.
        if (++runs == 5) record.interrupted = true;
        return record;
      },
      observer, keeper);
  EXPECT_TRUE(outcome.interrupted);
  ASSERT_EQ(outcome.run.benchmarks.size(), 2u);
  EXPECT_EQ(outcome.run.benchmarks[0].samples.size(), 2u);
  EXPECT_EQ(keeper.saved, std::vector<std::string>{"main"});
  EXPECT_TRUE(keeper.recorded.empty());
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(CommandsMeasurer, AFailedSaveIsAnErrorOfTheOutcomeAndTheRunIsStillRecorded) {
  PipelineRecorder observer;
  FakeKeeper keeper;
  keeper.fail_save = true;
  const Outcome outcome = run_commands(commands({"a"}, 3), saved_and_recorded(),
                                       FakeExecutor::timed({{"a", 1.0}}), observer, keeper);
  EXPECT_FALSE(outcome.saved);
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_THAT(outcome.errors[0].message, HasSubstr("disk full"));
  EXPECT_EQ(keeper.recorded.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 2);
}

TEST(CommandsMeasurer, ARegressionAgainstTheReferenceFailsTheRunOnlyUnderFailOnRegression) {
  for (const bool fail : {false, true}) {
    PipelineRecorder observer;
    FakeKeeper keeper;
    Steps steps;
    steps.fail_on_regression = fail;
    const Outcome outcome =
        run_commands(commands({"fast", "slow"}, 8), steps,
                     FakeExecutor::timed({{"fast", 10.0}, {"slow", 40.0}}), observer, keeper);
    ASSERT_TRUE(outcome.rounds);
    EXPECT_EQ(outcome.rounds->reference, "fast");
    ASSERT_TRUE(outcome.rounds->against_reference);
    EXPECT_TRUE(outcome.rounds->against_reference->any_regression());
    EXPECT_FALSE(outcome.comparison);  // no baseline
    EXPECT_TRUE(outcome.regressed());
    EXPECT_EQ(outcome.exit_status(), fail ? 1 : 0);
  }
}

TEST(CommandsMeasurer, AReferenceThatNamesNoCommandIsAUsageErrorAndTheRunIsKept) {
  CommandsPlan plan = commands({"a", "b"}, 3);
  plan.request.reference = "c";
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome outcome =
      run_commands(std::move(plan), saved_and_recorded(),
                   FakeExecutor::timed({{"a", 1.0}, {"b", 1.0}}), observer, keeper);
  EXPECT_TRUE(outcome.measured);
  EXPECT_EQ(outcome.run.benchmarks.size(), 2u);
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_THAT(outcome.errors[0].message, HasSubstr("is not one of the benchmarks"));
  EXPECT_EQ(keeper.saved.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 2);
}

TEST(CommandsMeasurer, TheBaselineIsJudgedByThePipelineOnce) {
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome before = run_commands(commands({"a"}, 8), Steps{},
                                      FakeExecutor::timed({{"a", 10.0}}), observer, keeper);
  CommandsPlan plan = commands({"a"}, 8);
  plan.baseline = before.run;
  Steps steps;
  steps.fail_on_regression = true;
  const Outcome after =
      run_commands(std::move(plan), steps, FakeExecutor::timed({{"a", 30.0}}), observer, keeper);
  ASSERT_TRUE(after.baseline);
  ASSERT_TRUE(after.comparison);
  EXPECT_TRUE(after.comparison->any_regression());
  EXPECT_FALSE(after.rounds->against_reference);  // one command: nothing among them
  EXPECT_EQ(after.exit_status(), 1);
}

CountedCommandPlan counted_plan() {
  CountedCommandPlan plan;
  plan.request.argv = {"/bin/true"};
  plan.request.runs = 2;
  return plan;
}

BenchmarkResult counted_result(double instructions) {
  BenchmarkResult result;
  result.name = "/bin/true";
  result.kind = "command";
  result.metric = "instructions";
  for (int run = 0; run < 6; ++run) {
    Sample sample;
    sample.ns = instructions;
    result.samples.push_back(sample);
  }
  return result;
}

TEST(CountedCommandMeasurer, TheCountedCommandIsTheRunInTheGivenContext) {
  Context context;
  context.seed = 7;
  std::vector<std::size_t> asked;
  const auto measurer = make_measurer(
      counted_plan(),
      [&](const CountedCommandRequest& request) {
        asked.push_back(request.runs);
        return model::Result<BenchmarkResult>(counted_result(1000.0));
      },
      context);
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome outcome = run_pipeline(*measurer, saved_and_recorded(), observer, keeper);
  EXPECT_EQ(asked, std::vector<std::size_t>{2});
  ASSERT_EQ(outcome.run.benchmarks.size(), 1u);
  EXPECT_EQ(outcome.run.context.seed, 7u);
  EXPECT_THAT(outcome.run.context.clock.at("mode"), HasSubstr("--trace-children=yes"));
  EXPECT_EQ(keeper.saved.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 0);
}

TEST(CountedCommandMeasurer, ACommandThatFailsFailsTheRunAndNoValgrindEndsIt) {
  BenchmarkResult failed = counted_result(1000.0);
  failed.failure = Failure{};
  failed.failure->cause = Failure::Cause::exited;
  failed.failures = {"/bin/false exited with status 1"};
  auto measurer = make_measurer(
      counted_plan(), [&](const CountedCommandRequest&) { return model::Result(failed); },
      Context{});
  PipelineRecorder observer;
  FakeKeeper keeper;
  EXPECT_EQ(run_pipeline(*measurer, Steps{}, observer, keeper).exit_status(), 1);

  measurer = make_measurer(
      counted_plan(),
      [](const CountedCommandRequest&) {
        return model::Result<BenchmarkResult>(
            model::Error{"valgrind was not found", model::ErrorKind::failed});
      },
      Context{});
  const Outcome outcome = run_pipeline(*measurer, saved_and_recorded(), observer, keeper);
  EXPECT_FALSE(outcome.measured);
  EXPECT_TRUE(keeper.saved.empty());
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(CountedCommandMeasurer, MoreInstructionsThanTheBaselineIsARegression) {
  CountedCommandPlan plan = counted_plan();
  RunResult baseline;
  baseline.benchmarks.push_back(counted_result(1000.0));
  plan.baseline = baseline;
  const auto measurer = make_measurer(
      std::move(plan),
      [](const CountedCommandRequest&) {
        return model::Result<BenchmarkResult>(counted_result(1500.0));
      },
      Context{});
  PipelineRecorder observer;
  FakeKeeper keeper;
  Steps steps;
  steps.fail_on_regression = true;
  const Outcome outcome = run_pipeline(*measurer, steps, observer, keeper);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_TRUE(outcome.regressed());
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(GbenchRunMeasurer, ProcessesAreShownTheCommandLineRecordedAndAnErrorFailsTheRun) {
  GbenchRunPlan plan;
  plan.executable = "./gb";
  plan.processes = 2;
  plan.flags = {"--benchmark_filter=BM_a"};
  plan.command_line = "benchkit run ./gb";
  std::vector<std::string> flags;
  std::optional<double> min_time;
  const auto measurer = make_measurer(std::move(plan), [&](const GbenchProcesses& processes) {
    flags = processes.flags;
    min_time = processes.min_time_s;
    for (std::size_t p = 0; p < processes.processes; ++p)
      processes.progress(p, processes.processes);
    RunResult run;
    BenchmarkResult ok = counted_result(10.0);
    ok.name = "BM_a";
    BenchmarkResult errored = ok;
    errored.name = "BM_b";
    errored.failures = {"the benchmark reported an error"};
    run.benchmarks = {ok, errored};
    return model::Result<RunResult>(run);
  });
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome outcome = run_pipeline(*measurer, saved_and_recorded(), observer, keeper);
  // Google Benchmark's 0.5 s a benchmark shared between the two processes (spelt for the
  // binary's version of Google Benchmark by run_gbench_processes).
  EXPECT_THAT(flags, ElementsAre("--benchmark_filter=BM_a"));
  EXPECT_EQ(min_time, 0.25);
  EXPECT_THAT(observer.processes_started, ElementsAre("1/2 ./gb", "2/2 ./gb"));
  EXPECT_EQ(outcome.run.context.command_line, "benchkit run ./gb");
  EXPECT_EQ(keeper.recorded.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 1);

  GbenchRunPlan chosen;
  chosen.processes = 5;
  chosen.flags = {"--benchmark_min_time=0.05"};
  const auto keeps = make_measurer(std::move(chosen), [&](const GbenchProcesses& processes) {
    flags = processes.flags;
    min_time = processes.min_time_s;
    return model::Result<RunResult>(model::Error{"stop here", model::ErrorKind::failed});
  });
  run_pipeline(*keeps, saved_and_recorded(), observer, keeper);
  EXPECT_THAT(flags, ElementsAre("--benchmark_min_time=0.05"));  // the user's, alone
  EXPECT_EQ(min_time, std::nullopt);

  const auto failing = make_measurer(GbenchRunPlan{}, [](const GbenchProcesses&) {
    return model::Result<RunResult>(
        model::Error{"process 1 of ./gb exited with status 1", model::ErrorKind::failed});
  });
  const Outcome failed = run_pipeline(*failing, saved_and_recorded(), observer, keeper);
  EXPECT_FALSE(failed.measured);
  ASSERT_EQ(failed.errors.size(), 1u);
  EXPECT_EQ(failed.exit_status(), 1);
}

// Google Benchmark's own context names no build: the run records the executable's SHA-256, as
// `compare` does for the same binary (`benchkit run` of google/snappy's suite left it empty).
TEST(GbenchRunMeasurer, TheRunNamesTheExecutableItMeasured) {
  GbenchRunPlan plan;
  plan.executable = "/proc/self/exe";
  plan.processes = 1;
  const auto measurer = make_measurer(std::move(plan), [](const GbenchProcesses&) {
    RunResult run;
    BenchmarkResult ok = counted_result(10.0);
    ok.name = "BM_a";
    run.benchmarks = {ok};
    return model::Result<RunResult>(run);
  });
  PipelineRecorder observer;
  FakeKeeper keeper;
  const Outcome outcome = run_pipeline(*measurer, saved_and_recorded(), observer, keeper);
  EXPECT_EQ(outcome.run.context.executable, "/proc/self/exe");
  EXPECT_EQ(outcome.run.context.executable_sha256.size(), 64u);
}

}  // namespace
}  // namespace benchkit::session
