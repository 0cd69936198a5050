// A bench binary's run through the whole pipeline with fake workers (session/fake_launcher.hpp):
// what the BenchPlan's measurer adds to the suite's results, and how a worker that crashes,
// hangs, exits early or is interrupted ends up in the outcome.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/estimates.hpp"
#include "formats/result_json.hpp"
#include "session/fake_keeper.hpp"
#include "session/fake_launcher.hpp"
#include "session/plans.hpp"
#include "session/runner.hpp"
#include "session/skips.hpp"
#include "support/sample_run.hpp"

// The suite the fake workers pretend to run (they never call these).
static void measured_a(benchkit::Bencher& b) {
  b.iter([] { return 1; });
}
BENCHKIT(measured_a);
static void measured_b(benchkit::Bencher& b) {
  b.iter([] { return 2; });
}
BENCHKIT(measured_b);
static void measured_c(benchkit::Bencher& b) {
  b.iter([] { return 3; });
}
BENCHKIT(measured_c);

namespace benchkit::session {
namespace {

using session::testing::Act;
using session::testing::FakeKeeper;
using session::testing::FakeLauncher;
using ::testing::ElementsAre;

const std::vector<std::string> kMeasuredNames = {"measured_a", "measured_b", "measured_c"};

// What a worker sends for `name`: one benchmark with three samples of 100 ns.
using benchkit::testing::served;

BenchPlan plan_of_three() {
  BenchPlan plan;
  plan.settings.machine_warnings = false;
  plan.settings.counters = false;
  plan.settings.command_line = "./bench --record";
  plan.chosen = select(measure::expand_registered(), "^measured_", false);
  return plan;
}

// Every launcher hands out workers that act on each benchmark as `act` says.
LauncherFactory fake_workers(std::function<Act(const std::string&)> act) {
  return [act](std::size_t) -> std::unique_ptr<Launcher> {
    auto launcher = std::make_unique<FakeLauncher>(kMeasuredNames, act);
    launcher->payload = served;
    return launcher;
  };
}

class Names final : public Observer {
 public:
  void failed(const BenchmarkResult& failed) override { failed_names.push_back(failed.name); }
  void measuring_ended() override { ++ended; }
  std::vector<std::string> failed_names;
  int ended = 0;
};

TEST(BenchMeasurer, EveryWorkerFailureIsNamedAndTheHealthyBenchmarkIsSavedAndRecorded) {
  ASSERT_EQ(plan_of_three().chosen.size(), 3u);
  const auto measurer = make_measurer(plan_of_three(), fake_workers([](const std::string& name) {
                                        return name == "measured_b"   ? Act::crash
                                               : name == "measured_c" ? Act::exit_early
                                                                      : Act::finish;
                                      }));
  FakeKeeper keeper;
  Names observer;
  Steps steps;
  steps.save_baseline = "main";
  steps.record = true;
  const Outcome outcome = run_pipeline(*measurer, steps, observer, keeper);
  ASSERT_TRUE(outcome.measured);
  EXPECT_THAT(observer.failed_names, ElementsAre("measured_b", "measured_c"));
  EXPECT_EQ(observer.ended, 1);
  ASSERT_EQ(outcome.run.benchmarks.size(), 3u);
  EXPECT_TRUE(outcome.run.benchmarks[0].valid());
  EXPECT_EQ(outcome.failed_benchmarks(), 2u);
  EXPECT_EQ(keeper.saved, std::vector<std::string>{"main"});
  EXPECT_EQ(keeper.saved_benchmarks, 3u);
  EXPECT_EQ(keeper.recorded.size(), 1u);
  // The measurer stamps the command line once, on the whole run.
  EXPECT_EQ(outcome.run.context.command_line, "./bench --record");
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(BenchMeasurer, AHungWorkerIsKilledAtItsTimeoutAndRecordedAsFailed) {
  BenchPlan plan = plan_of_three();
  plan.settings.timeout_ns = 1'000'000'000;
  const auto measurer = make_measurer(std::move(plan), fake_workers([](const std::string& name) {
                                        return name == "measured_a" ? Act::hang : Act::finish;
                                      }));
  FakeKeeper keeper;
  Names observer;
  const Outcome outcome = run_pipeline(*measurer, Steps{}, observer, keeper);
  ASSERT_EQ(outcome.run.benchmarks.size(), 3u);
  ASSERT_TRUE(outcome.run.benchmarks[0].failure);
  EXPECT_EQ(outcome.run.benchmarks[0].failure->cause, Failure::Cause::timed_out);
  EXPECT_EQ(outcome.exit_status(), 1);
}

TEST(BenchMeasurer, CtrlCKeepsWhatFinishedAndIsNotRecorded) {
  const auto measurer = make_measurer(plan_of_three(), fake_workers([](const std::string& name) {
                                        return name == "measured_b" ? Act::interrupt : Act::finish;
                                      }));
  FakeKeeper keeper;
  Names observer;
  Steps steps;
  steps.record = true;
  const Outcome outcome = run_pipeline(*measurer, steps, observer, keeper);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_TRUE(keeper.recorded.empty());
  ASSERT_FALSE(outcome.run.benchmarks.empty());
  EXPECT_EQ(outcome.run.benchmarks[0].name, "measured_a");
  EXPECT_EQ(outcome.exit_status(), 130);
}

TEST(BenchMeasurer, SkippedBenchmarksJoinTheResultsAndABaselineIsJudged) {
  BenchPlan plan = plan_of_three();
  BenchmarkResult skipped;
  skipped.name = "measured_skipped";
  skipped.skipped = Skipped{"gpu", "needs a GPU"};
  plan.skipped.push_back(skipped);
  RunResult baseline;
  for (const std::string& name : kMeasuredNames) {
    BenchmarkResult saved = formats::from_json(served(name), name)->run.benchmarks.front();
    analysis::compute_estimates(saved);
    baseline.benchmarks.push_back(std::move(saved));
  }
  plan.baseline = baseline;
  plan.scenarios_left_out = 2;
  const auto measurer =
      make_measurer(std::move(plan), fake_workers([](const std::string&) { return Act::finish; }));
  FakeKeeper keeper;
  Names observer;
  Steps steps;
  steps.fail_on_regression = true;
  const Outcome outcome = run_pipeline(*measurer, steps, observer, keeper);
  ASSERT_EQ(outcome.run.benchmarks.size(), 4u);
  EXPECT_EQ(outcome.run.benchmarks.back().name, "measured_skipped");
  ASSERT_TRUE(outcome.comparison);
  EXPECT_FALSE(outcome.regressed());
  const auto& warnings = outcome.run.context.warnings;
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const Diagnostic& warning) {
    return warning.code == "scenarios_not_counted";
  }));
  EXPECT_EQ(outcome.exit_status(), 0);
}

}  // namespace
}  // namespace benchkit::session
