// benchkit ab's orchestration (RevisionsPlan through the run pipeline) with a fake workshop and a
// fake keeper: no git, no compiler, no processes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_workshop.hpp"
#include "session/isolated.hpp"
#include "session/plans.hpp"

namespace benchkit::session {
namespace {

using testing::FakeWorkshop;
using testing::made;

class Keeping final : public Keeper {
 public:
  model::Result<std::string> save_baseline(const std::string& name, const RunResult&) override {
    return name;
  }
  model::Result<std::string> keep_executable(const std::string& name, const std::string&) override {
    return name;
  }
  model::Result<Recorded> record(const std::string& store, const RunResult& run,
                                 const std::string& /*group*/) override {
    if (fail_record) return model::Error{"cannot open history " + store, model::ErrorKind::input};
    recorded.push_back(run.context.git_commit);
    return Recorded{run.context.git_commit, true};
  }
  bool fail_record = false;
  std::vector<std::string> recorded;
};

class Told final : public Observer {
 public:
  void revision_step(const std::string& revision, const std::string& step) override {
    steps.push_back(revision + ": " + step);
  }
  void revision_built(const std::string& revision, bool, double, const std::string&) override {
    built.push_back(revision);
  }
  void benchmark_failed(const std::string& name, const std::string&) override {
    failed.push_back(name);
  }
  void counting_started(const std::string& revision, const std::string&, std::size_t) override {
    counted.push_back(revision);
  }
  std::vector<std::string> steps, built, failed, counted;
};

RevisionsPlan plan_of(const std::string& base, const std::string& candidate) {
  RevisionsPlan plan;
  plan.base = base;
  plan.candidate = candidate;
  plan.pairs.rounds = 5;
  plan.pairs.max_rounds = 45;
  return plan;
}

Steps ab_steps() {
  Steps steps;
  steps.fail_on_regression = true;
  steps.both_sides_measured = true;
  return steps;
}

Outcome run_ab_plan(RevisionsPlan plan, FakeWorkshop& workshop, Observer& observer, Keeper& keeper,
                    const Steps& steps = ab_steps()) {
  const auto measurer = make_measurer(std::move(plan), workshop);
  return run_pipeline(*measurer, steps, observer, keeper);
}

TEST(AbPipeline, BuildsNewThenBaseAndJudgesTheRegressionOnce) {
  FakeWorkshop workshop;
  workshop.first_slow = 3;
  Told told;
  Keeping keeper;
  const Outcome outcome = run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper);
  ASSERT_TRUE(outcome.measured) << outcome.errors.front().message;
  EXPECT_EQ(workshop.built, (std::vector<std::string>{"c3", "c2"}));  // NEW first
  EXPECT_EQ(told.built, (std::vector<std::string>{"NEW c3", "BASE c2"}));
  ASSERT_EQ(workshop.requests.size(), 1u);
  EXPECT_EQ(workshop.requests[0].binaries.at(0).baseline,
            "/repo/.benchkit/worktrees/c2/build/bench");
  // 1 s over 5 rounds: 200 ms a round and side.
  EXPECT_EQ(workshop.requests[0].round_budget_ns, 200'000'000);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_TRUE(outcome.regressed());
  EXPECT_EQ(outcome.run.context.git_commit, "c3");
  EXPECT_EQ(outcome.baseline->context.git_commit, "c2");
  EXPECT_NE(outcome.comparison->method_note.find("NEW c3 against BASE c2"), std::string::npos);
  EXPECT_NE(outcome.comparison->method_note.find("5 rounds"), std::string::npos);
  EXPECT_TRUE(outcome.comparison->context_warning.empty());  // measured together
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(AbPipeline, TheWorkingTreeIsNewAndBothRunsAreRecordedBaseFirst) {
  FakeWorkshop workshop;
  Told told;
  Keeping keeper;
  Steps steps = ab_steps();
  steps.record = true;
  steps.record_baseline = true;
  const Outcome outcome = run_ab_plan(plan_of("c1", ""), workshop, told, keeper, steps);
  ASSERT_TRUE(outcome.measured);
  EXPECT_EQ(keeper.recorded, (std::vector<std::string>{"c1", "c99"}));
  EXPECT_TRUE(outcome.recorded_baseline && outcome.recorded);
  EXPECT_TRUE(outcome.run.context.git_dirty);
  EXPECT_EQ(outcome.exit_status(), 0);

  // A history that cannot be written: the baseline's record fails, the run is not recorded.
  Keeping failing;
  failing.fail_record = true;
  const Outcome unrecorded = run_ab_plan(plan_of("c1", ""), workshop, told, failing, steps);
  ASSERT_EQ(unrecorded.errors.size(), 1u);
  EXPECT_FALSE(unrecorded.recorded);
  EXPECT_EQ(unrecorded.exit_status(), 2);
}

TEST(AbPipeline, ARevisionThatFailsToBuildStopsBeforeAnythingRuns) {
  for (const std::string failing : {"c3", "c2"}) {
    FakeWorkshop workshop;
    workshop.failing_builds = {failing};
    Told told;
    Keeping keeper;
    const Outcome outcome = run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper);
    EXPECT_FALSE(outcome.measured) << failing;
    ASSERT_EQ(outcome.errors.size(), 1u);
    EXPECT_NE(outcome.errors[0].message.find(failing), std::string::npos);
    EXPECT_TRUE(workshop.requests.empty()) << failing;
    EXPECT_EQ(outcome.exit_status(), 1) << failing;
  }
  // NEW fails first: BASE is not even built.
  FakeWorkshop workshop;
  workshop.failing_builds = {"c3"};
  Told told;
  Keeping keeper;
  run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper);
  EXPECT_EQ(workshop.built, std::vector<std::string>{"c3"});
}

TEST(AbPipeline, AnUnknownRevisionOrNoRepositoryIsAnInputOrUsageError) {
  FakeWorkshop workshop;
  Told told;
  Keeping keeper;
  EXPECT_EQ(run_ab_plan(plan_of("nope", "c3"), workshop, told, keeper).exit_status(), 2);
  workshop.open_error = "not in a git repository";
  EXPECT_EQ(run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper).exit_status(), 2);
  EXPECT_TRUE(workshop.built.empty());
}

Failure failure_of(Failure::Cause cause) {
  Failure failure;
  failure.cause = cause;
  return failure;
}

TEST(AbPipeline, AWorkerThatCrashesHangsOrExitsEarlyFailsTheRunOnEitherSide) {
  for (const auto cause :
       {Failure::Cause::crashed, Failure::Cause::timed_out, Failure::Cause::exited}) {
    for (const bool on_baseline : {true, false}) {
      FakeWorkshop workshop;
      workshop.measure = [&](const AbRequest& request) -> model::Result<AbRuns> {
        request.failed("bench_0001", "it went wrong");
        AbRuns runs{made(100.0, 1), made(100.0, 2), "5", {}, {}};
        RunResult& side = on_baseline ? runs.baseline : runs.candidate;
        side.benchmarks[1] = failed_benchmark("bench_0001", failure_of(cause), "it went wrong");
        return runs;
      };
      Told told;
      Keeping keeper;
      const Outcome outcome = run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper);
      ASSERT_TRUE(outcome.measured);
      EXPECT_EQ(told.failed, std::vector<std::string>{"bench_0001"});
      EXPECT_FALSE(outcome.regressed());
      EXPECT_EQ(outcome.exit_status(), 1) << "baseline " << on_baseline;
    }
  }
}

TEST(AbPipeline, AnInterruptedAbComparesNothingAndExits130) {
  FakeWorkshop workshop;
  workshop.measure = [](const AbRequest&) -> model::Result<AbRuns> {
    return model::Error{"interrupted in round 3", model::ErrorKind::interrupted};
  };
  Told told;
  Keeping keeper;
  Steps steps = ab_steps();
  steps.record = true;
  const Outcome outcome = run_ab_plan(plan_of("c2", "c3"), workshop, told, keeper, steps);
  EXPECT_FALSE(outcome.measured);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_TRUE(keeper.recorded.empty());
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(AbPipeline, CountedBuildsSayWhichRevisionCountsAndTakeNoRounds) {
  FakeWorkshop workshop;
  workshop.measure = [](const AbRequest& request) -> model::Result<AbRuns> {
    EXPECT_TRUE(request.counted);
    EXPECT_FALSE(request.progress);
    request.counting("bench", true, 2);
    request.counting("bench", false, 2);
    return AbRuns{made(100.0, 1), made(100.0, 1), "0", {}, {}};
  };
  Told told;
  Keeping keeper;
  RevisionsPlan plan = plan_of("c2", "c3");
  plan.mode = Mode::instructions;
  const Outcome outcome = run_ab_plan(plan, workshop, told, keeper);
  ASSERT_TRUE(outcome.measured);
  EXPECT_EQ(told.counted, (std::vector<std::string>{"BASE c2", "NEW c3"}));
  EXPECT_NE(outcome.comparison->method_note.find("callgrind"), std::string::npos);
  EXPECT_EQ(outcome.exit_status(), 0);
}

TEST(AbPipeline, CommandsOfBothBuildsAreFilledInAndComparedOnTheirRounds) {
  FakeWorkshop workshop;
  workshop.measure_command_rounds = [](const CommandRequest& request, CommandObserver& observer) {
    observer.failed("NEW c3", "exit status 1");
    CommandOutcome outcome;
    outcome.rounds = 7;
    outcome.against_reference = analysis::Comparison{};
    outcome.run.benchmarks.resize(request.commands.size());
    return outcome;
  };
  Told told;
  Keeping keeper;
  RevisionsPlan plan = plan_of("c2", "c3");
  plan.command = "{build}/tool --quick";
  const Outcome outcome = run_ab_plan(plan, workshop, told, keeper, Steps{});
  ASSERT_TRUE(outcome.measured) << outcome.errors.front().message;
  ASSERT_EQ(workshop.commands.size(), 1u);
  const auto& commands = workshop.commands[0].commands;
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].name, "BASE c2");
  EXPECT_EQ(commands[1].argv,
            (std::vector<std::string>{"/repo/.benchkit/worktrees/c3/build/tool", "--quick"}));
  EXPECT_EQ(workshop.commands[0].reference, "BASE c2");
  EXPECT_EQ(told.failed, std::vector<std::string>{"NEW c3"});
  ASSERT_TRUE(outcome.comparison);
  EXPECT_NE(outcome.comparison->method_note.find("interleaved in 7 rounds"), std::string::npos);

  // Interrupted, or too few rounds to compare: nothing compared.
  workshop.measure_command_rounds = [](const CommandRequest&, CommandObserver&) {
    CommandOutcome outcome;
    outcome.interrupted = true;
    return outcome;
  };
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 130);
  workshop.measure_command_rounds = [](const CommandRequest&, CommandObserver&) {
    return CommandOutcome{};
  };
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 1);
  plan.command = "'unclosed";
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 2);
}

}  // namespace
}  // namespace benchkit::session
