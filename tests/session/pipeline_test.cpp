// The run pipeline with fake measurers and a fake keeper: what every kind of run does after
// measuring (judge, save, record, exit status), whatever went wrong while measuring.
#include "session/pipeline.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "session/fake_keeper.hpp"
#include "session/isolated.hpp"
#include "support/history_runs.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::made_run;
using benchkit::testing::MadeRun;
using session::testing::FakeKeeper;

// Gives back what the test made, and records what the observer was told.
class FakeMeasurer final : public Measurer {
 public:
  explicit FakeMeasurer(std::function<model::Result<Measured>(Observer&)> body)
      : body_(std::move(body)) {}
  model::Result<Measured> measure(Observer& observer) override {
    ++calls;
    return body_(observer);
  }
  int calls = 0;

 private:
  std::function<model::Result<Measured>(Observer&)> body_;
};

class CountingObserver final : public Observer {
 public:
  void measuring_ended() override { ++ended; }
  void benchmark_failed(const std::string& name, const std::string& /*message*/) override {
    failed.push_back(name);
  }
  int ended = 0;
  std::vector<std::string> failed;
};

RunResult made(const std::string& cpu, double ns, std::uint64_t seed) {
  MadeRun run;
  run.cpu = cpu;
  run.ns = ns;
  run.seed = seed;
  return made_run(run);
}

Measured measured_run(double ns = 100.0, std::uint64_t seed = 1) {
  Measured measured;
  measured.run = made("Example CPU @ 3.00GHz", ns, seed);
  return measured;
}

Steps every_step() {
  Steps steps;
  steps.save_baseline = "main";
  steps.keep_executable = "/tmp/bench";
  steps.record = true;
  steps.record_store = "history.db";
  steps.fail_on_regression = true;
  return steps;
}

TEST(RunPipeline, ACleanRunIsSavedRecordedAndExitsZero) {
  FakeMeasurer measurer([](Observer&) { return model::Result<Measured>(measured_run()); });
  FakeKeeper keeper;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_TRUE(outcome.measured);
  EXPECT_EQ(measurer.calls, 1);
  EXPECT_EQ(observer.ended, 1);
  EXPECT_FALSE(outcome.comparison);  // no baseline: nothing to judge
  ASSERT_TRUE(outcome.saved);
  EXPECT_EQ(outcome.saved->path, ".benchkit/baselines/main.json");
  EXPECT_EQ(outcome.saved->executable, ".benchkit/baselines/main.bin");
  EXPECT_EQ(keeper.kept, std::vector<std::string>{"/tmp/bench"});
  ASSERT_TRUE(outcome.recorded);
  EXPECT_EQ(outcome.record_store, "history.db");
  EXPECT_EQ(keeper.recorded, std::vector<std::string>{"history.db"});
  EXPECT_EQ(outcome.exit_status(), 0);
}

// --group ID reaches the keeper with the run (session/run_groups.hpp); without it, "" (the
// default of a shard is chosen where it is recorded).
TEST(RunPipeline, TheRunGroupGoesWithTheRecord) {
  FakeMeasurer measurer([](Observer&) { return model::Result<Measured>(measured_run()); });
  FakeKeeper keeper;
  CountingObserver observer;
  Steps steps = every_step();
  steps.group = "nightly-7";
  (void)run_pipeline(measurer, steps, observer, keeper);
  steps.group.clear();
  (void)run_pipeline(measurer, steps, observer, keeper);
  EXPECT_EQ(keeper.groups, (std::vector<std::string>{"nightly-7", ""}));
}

TEST(RunPipeline, AWorkerThatCrashedHungOrExitedFailsTheRunButEverythingElseIsKept) {
  // Recorded as failed as the suite and the side-by-side runner record them.
  auto failure_of = [](Failure::Cause cause, std::optional<int> signal,
                       std::optional<int> exit_code) {
    Failure failure;
    failure.cause = cause;
    failure.signal = signal;
    failure.exit_code = exit_code;
    return failure;
  };
  const std::vector<std::pair<Failure, std::string>> failures = {
      {failure_of(Failure::Cause::crashed, 11, std::nullopt), "crashed: SIGSEGV"},
      {failure_of(Failure::Cause::timed_out, 9, std::nullopt), "hung: killed after 300 s"},
      {failure_of(Failure::Cause::exited, std::nullopt, 3), "exited with status 3"}};
  for (const auto& entry : failures) {
    // Named, not bound: clang 14 cannot capture a structured binding in the lambda below.
    const Failure& failure = entry.first;
    const std::string& why = entry.second;
    FakeMeasurer measurer([&](Observer& observer) {
      Measured measured = measured_run();
      observer.benchmark_failed("bench_0001", why);
      measured.run.benchmarks[1] = failed_benchmark("bench_0001", failure, why);
      return model::Result<Measured>(std::move(measured));
    });
    FakeKeeper keeper;
    CountingObserver observer;
    const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
    EXPECT_EQ(outcome.failed_benchmarks(), 1u) << why;
    EXPECT_EQ(observer.failed, std::vector<std::string>{"bench_0001"});
    // The benchmarks that did run are saved and recorded all the same.
    EXPECT_EQ(keeper.saved_benchmarks, 2u) << why;
    EXPECT_EQ(keeper.recorded.size(), 1u) << why;
    EXPECT_TRUE(outcome.errors.empty()) << why;
    EXPECT_EQ(outcome.exit_status(), 1) << why;
  }
}

TEST(RunPipeline, AMeasurerThatCannotStartEndsThePipelineBeforeAnythingIsSaved) {
  FakeMeasurer measurer([](Observer&) {
    return model::Result<Measured>(
        model::Error{"cannot start ./bench: No such file or directory", model::ErrorKind::failed});
  });
  FakeKeeper keeper;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_FALSE(outcome.measured);
  EXPECT_EQ(observer.ended, 1);  // a progress line is cleared on every end
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_TRUE(keeper.saved.empty());
  EXPECT_TRUE(keeper.recorded.empty());
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(RunPipeline, AUsageErrorWhileMeasuringExitsTwo) {
  FakeMeasurer measurer([](Observer&) {
    return model::Result<Measured>(model::Error{"no benchmark in common", model::ErrorKind::usage});
  });
  FakeKeeper keeper;
  CountingObserver observer;
  EXPECT_EQ(run_pipeline(measurer, Steps{}, observer, keeper).exit_status(), 2);
}

TEST(RunPipeline, AnInterruptedRunIsReportedAndSavedButNotRecorded) {
  FakeMeasurer measurer([](Observer&) {
    Measured measured = measured_run();
    measured.run.benchmarks.pop_back();  // what finished before Ctrl-C
    measured.interrupted = true;
    return model::Result<Measured>(std::move(measured));
  });
  FakeKeeper keeper;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_TRUE(outcome.measured);
  EXPECT_EQ(keeper.saved_benchmarks, 1u);
  EXPECT_TRUE(keeper.recorded.empty());
  EXPECT_FALSE(outcome.recorded);
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(RunPipeline, CtrlCBeforeAnythingWasKeptExits130) {
  FakeMeasurer measurer([](Observer&) {
    return model::Result<Measured>(model::Error{"interrupted", model::ErrorKind::interrupted});
  });
  FakeKeeper keeper;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(RunPipeline, AFailedSaveIsAnErrorButTheRunIsStillRecorded) {
  FakeMeasurer measurer([](Observer&) { return model::Result<Measured>(measured_run()); });
  FakeKeeper keeper;
  keeper.fail_save = true;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_FALSE(outcome.saved);
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_NE(outcome.errors.front().message.find("disk full"), std::string::npos);
  EXPECT_EQ(keeper.recorded.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 2);
}

TEST(RunPipeline, AFailedRecordIsAnError) {
  FakeMeasurer measurer([](Observer&) { return model::Result<Measured>(measured_run()); });
  FakeKeeper keeper;
  keeper.fail_record = true;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  EXPECT_TRUE(outcome.saved);
  EXPECT_FALSE(outcome.recorded);
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_EQ(outcome.exit_status(), 2);
}

TEST(RunPipeline, AnExecutableThatCannotBeKeptIsAWarningNotAnError) {
  FakeMeasurer measurer([](Observer&) { return model::Result<Measured>(measured_run()); });
  FakeKeeper keeper;
  keeper.fail_keep = true;
  CountingObserver observer;
  const Outcome outcome = run_pipeline(measurer, every_step(), observer, keeper);
  ASSERT_TRUE(outcome.saved);
  EXPECT_FALSE(outcome.saved->executable);
  EXPECT_NE(outcome.saved->executable_problem.find("/tmp/bench"), std::string::npos);
  EXPECT_TRUE(outcome.errors.empty());
  EXPECT_EQ(outcome.exit_status(), 0);
}

Measured against_baseline(double baseline_ns, double new_ns) {
  Measured measured = measured_run(new_ns, 3);
  measured.baseline = made("Other CPU @ 2.00GHz", baseline_ns, 5);
  measured.method_note = "measured side by side";
  return measured;
}

TEST(RunPipeline, ARegressionFailsTheRunOnlyUnderFailOnRegression) {
  for (const bool fail : {false, true}) {
    FakeMeasurer measurer(
        [](Observer&) { return model::Result<Measured>(against_baseline(100.0, 150.0)); });
    FakeKeeper keeper;
    CountingObserver observer;
    Steps steps;
    steps.fail_on_regression = fail;
    const Outcome outcome = run_pipeline(measurer, steps, observer, keeper);
    ASSERT_TRUE(outcome.comparison);
    EXPECT_TRUE(outcome.regressed());
    EXPECT_EQ(outcome.comparison->method_note, "measured side by side");
    EXPECT_EQ(outcome.exit_status(), fail ? 1 : 0);
  }
}

TEST(RunPipeline, RunsMeasuredApartCarryTheirDifferencesRunsMeasuredTogetherDoNot) {
  for (const bool together : {false, true}) {
    Measured measured = against_baseline(100.0, 100.0);
    measured.measured_together = together;
    FakeKeeper keeper;
    const Outcome outcome = finish(std::move(measured), Steps{}, keeper);
    ASSERT_TRUE(outcome.comparison);
    EXPECT_EQ(outcome.comparison->context_warning.empty(), together)
        << outcome.comparison->context_warning;
    EXPECT_FALSE(outcome.regressed());
  }
}

TEST(RunPipeline, AScenarioWhoseCheckFailedFailsTheRunAndIsNamedOnce) {
  Measured measured = measured_run();
  for (const char* phase : {"lifecycle/load", "lifecycle/drain"}) {
    BenchmarkResult result;
    result.name = phase;
    result.kind = "scenario";
    result.failures.push_back("every item read back in order");
    measured.run.benchmarks.push_back(result);
  }
  FakeKeeper keeper;
  const Outcome outcome = finish(std::move(measured), Steps{}, keeper);
  const auto invalid = outcome.invalid_runs();
  ASSERT_EQ(invalid.size(), 1u);
  EXPECT_EQ(invalid.front().first, "lifecycle");
  EXPECT_EQ(outcome.failed_benchmarks(), 0u);
  EXPECT_EQ(outcome.exit_status(), 1);
  // Read rather than measured (compare FILE FILE): the comparison alone decides.
  Steps read;
  read.fail_on_failed_benchmark = false;
  Measured again;
  again.run = outcome.run;
  EXPECT_EQ(finish(std::move(again), read, keeper).exit_status(), 0);
}

TEST(RunPipeline, ErrorsAreAddedAfterwardsByTheCommandLineAndTheFirstDecides) {
  FakeKeeper keeper;
  Outcome outcome = finish(measured_run(), Steps{}, keeper);
  EXPECT_EQ(outcome.exit_status(), 0);
  outcome.errors.push_back(model::Error{"cannot write --out x.json", model::ErrorKind::input});
  outcome.errors.push_back(model::Error{"later", model::ErrorKind::failed});
  EXPECT_EQ(outcome.exit_status(), 2);
  outcome.interrupted = true;  // Ctrl-C outranks everything
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(RunPipeline, ARegressionAgainstTheReferenceCommandCountsAsOneAgainstTheBaseline) {
  Measured against = against_baseline(100.0, 150.0);
  Measured among = measured_run();
  among.rounds = Rounds{6, "--runs reached", "short", std::nullopt};
  among.rounds->against_reference =
      judge(against.baseline.value(), against.run, analysis::CompareSettings{}, {}, true);
  Steps steps;
  steps.fail_on_regression = true;
  FakeKeeper keeper;
  const Outcome outcome = finish(std::move(among), steps, keeper);
  EXPECT_FALSE(outcome.comparison);  // no baseline
  ASSERT_TRUE(outcome.rounds);
  EXPECT_EQ(outcome.rounds->reference, "short");
  EXPECT_TRUE(outcome.regressed());
  EXPECT_EQ(outcome.exit_status(), 1);
  EXPECT_EQ(outcome.deciding_comparison(), &*outcome.rounds->against_reference);
}

TEST(RunPipeline, TheComparisonThatDecidesIsTheBaselinesThenTheReferences) {
  FakeKeeper keeper;
  EXPECT_EQ(finish(measured_run(), Steps{}, keeper).deciding_comparison(), nullptr);
  Measured both = against_baseline(100.0, 150.0);
  both.rounds = Rounds{6, "--runs reached", "short", std::nullopt};
  both.rounds->against_reference =
      judge(both.baseline.value(), both.run, analysis::CompareSettings{}, {}, true);
  const Outcome outcome = finish(std::move(both), Steps{}, keeper);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_EQ(outcome.deciding_comparison(), &*outcome.comparison);
}

TEST(RunPipeline, ErrorsFoundWhileMeasuringComeFirstAndTheRunIsStillSavedAndRecorded) {
  Measured measured = measured_run();
  measured.errors.push_back(
      model::Error{"--reference \"c\" is not one of the benchmarks", model::ErrorKind::usage});
  FakeKeeper keeper;
  keeper.fail_record = true;
  const Outcome outcome = finish(std::move(measured), every_step(), keeper);
  EXPECT_TRUE(outcome.measured);
  EXPECT_TRUE(outcome.saved);
  ASSERT_EQ(outcome.errors.size(), 2u);
  EXPECT_NE(outcome.errors[0].message.find("--reference"), std::string::npos);
  EXPECT_EQ(outcome.exit_status(), 2);
}

TEST(RunPipeline, ModesAreParsedAtTheBoundaryAndNamedBack) {
  for (const Mode mode : {Mode::time, Mode::instructions, Mode::counters}) {
    EXPECT_EQ(parse_mode(to_string(mode)), mode);
  }
  EXPECT_FALSE(parse_mode("Time"));
  EXPECT_FALSE(parse_mode(""));
}

TEST(RunPipeline, BothSidesMeasuredFailOnAFailedBenchmarkOfEitherSideNotOnAScenarioCheck) {
  FakeKeeper keeper;
  Steps both;
  both.both_sides_measured = true;
  Failure crashed;
  crashed.cause = Failure::Cause::crashed;
  Measured baseline_failed = measured_run();
  baseline_failed.baseline = made("Example CPU @ 3.00GHz", 100.0, 2);
  baseline_failed.baseline->benchmarks[0] = failed_benchmark("bench_0000", crashed, "crashed");
  baseline_failed.measured_together = true;
  EXPECT_EQ(finish(baseline_failed, both, keeper).exit_status(), 1);
  // Only the run answers otherwise (a saved baseline's failures are not this run's).
  EXPECT_EQ(finish(baseline_failed, Steps{}, keeper).exit_status(), 0);
  // A scenario's failed checks: an invalid verdict of the comparison, not an exit status.
  Measured checked = measured_run();
  checked.baseline = made("Example CPU @ 3.00GHz", 100.0, 2);
  checked.run.benchmarks[0].failures.push_back("verify: every item read back");
  EXPECT_EQ(finish(checked, both, keeper).exit_status(), 0);
  EXPECT_EQ(finish(checked, Steps{}, keeper).exit_status(), 1);
}

TEST(RunPipeline, BothRunsAreRecordedBaselineFirstAndAFailedRecordStopsTheSecond) {
  Steps steps;
  steps.record = true;
  steps.record_baseline = true;
  steps.record_store = "history.db";
  Measured both = measured_run();
  both.baseline = made("Example CPU @ 3.00GHz", 100.0, 2);
  FakeKeeper keeper;
  const Outcome outcome = finish(both, steps, keeper);
  EXPECT_EQ(keeper.recorded.size(), 2u);
  EXPECT_TRUE(outcome.recorded_baseline && outcome.recorded);
  FakeKeeper failing;
  failing.fail_record = true;
  const Outcome failed = finish(both, steps, failing);
  EXPECT_FALSE(failed.recorded_baseline || failed.recorded);
  ASSERT_EQ(failed.errors.size(), 1u);
  EXPECT_EQ(failed.exit_status(), 2);
}

TEST(RunPipeline, AComparisonJudgedWhileMeasuringIsKept) {
  Measured measured = measured_run();
  measured.comparison = analysis::Comparison{};
  measured.comparison->method_note = "paired rounds";
  measured.baseline = made("Other CPU", 100.0, 2);  // not judged again
  FakeKeeper keeper;
  const Outcome outcome = finish(std::move(measured), Steps{}, keeper);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_EQ(outcome.comparison->method_note, "paired rounds");
  EXPECT_TRUE(outcome.comparison->benchmarks.empty());
}

}  // namespace
}  // namespace benchkit::session
