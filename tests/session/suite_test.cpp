#include "session/suite.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "formats/result_json.hpp"
#include "session/fake_launcher.hpp"
#include "session/runner.hpp"
#include "support/sample_run.hpp"

// Three registered benchmarks: the suite's instances (the fake launcher never runs them).
static void suite_a(benchkit::Bencher& b) {
  b.iter([] { return 1; });
}
BENCHKIT(suite_a);
static void suite_b(benchkit::Bencher& b) {
  b.iter([] { return 2; });
}
BENCHKIT(suite_b);
static void suite_c(benchkit::Bencher& b) {
  b.iter([] { return 3; });
}
BENCHKIT(suite_c);

namespace benchkit::session {
namespace {

using session::testing::Act;
using session::testing::FakeLauncher;
using ::testing::ElementsAre;

// What a worker sends for `name`: one benchmark with three samples of 100 ns.
using benchkit::testing::served;

class Checkpoints final : public SuiteObserver {
 public:
  void started(std::size_t process, std::size_t, std::size_t, std::size_t,
               const std::string& name) override {
    started_names.push_back(std::to_string(process) + ":" + name);
  }
  void failed(const BenchmarkResult& failed) override { failed_names.push_back(failed.name); }
  void checkpoint(const RunResult& so_far) override { saved.push_back(so_far); }
  std::vector<std::string> started_names;
  std::vector<std::string> failed_names;
  std::vector<RunResult> saved;
};

// Hands out launchers that the test owns, so that it can read them after the run.
class Forward final : public Launcher {
 public:
  explicit Forward(Launcher& to) : to_(to) {}
  model::Result<std::unique_ptr<Worker>> launch(const std::vector<std::size_t>& b) override {
    return to_.launch(b);
  }

 private:
  Launcher& to_;
};

SuiteRequest request_for(std::size_t processes) {
  SuiteRequest request;
  // This test binary registers other benchmarks too (bench_measurers_test.cpp).
  request.chosen = select(measure::expand_registered(), "^suite_", false);
  request.settings.machine_warnings = false;
  request.settings.counters = false;
  request.processes = processes;
  return request;
}

const BenchmarkResult* find(const RunResult& run, const std::string& name) {
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

TEST(Suite, ProcessesRotateAndAFailedBenchmarkIsNotRunAgain) {
  std::vector<std::unique_ptr<FakeLauncher>> made;
  const std::vector<std::string> names = {"suite_a", "suite_b", "suite_c"};
  const LauncherFactory launchers = [&](std::size_t) -> std::unique_ptr<Launcher> {
    made.push_back(std::make_unique<FakeLauncher>(
        names, [](const std::string& n) { return n == "suite_b" ? Act::crash : Act::finish; }));
    made.back()->payload = served;
    return std::make_unique<Forward>(*made.back());
  };
  Checkpoints observer;
  const SuiteOutcome outcome = run_suite(request_for(3), launchers, observer);
  ASSERT_EQ(made.size(), 3u);
  EXPECT_THAT(made[0]->launches, ElementsAre(ElementsAre(0, 1, 2), ElementsAre(2)));
  EXPECT_THAT(made[1]->launches, ElementsAre(ElementsAre(2, 0))) << "rotated by one, b left out";
  EXPECT_THAT(made[2]->launches, ElementsAre(ElementsAre(2, 0)));
  EXPECT_EQ(outcome.failed, 1u);
  EXPECT_THAT(observer.failed_names, ElementsAre("suite_b"));
  EXPECT_FALSE(outcome.interrupted);

  const BenchmarkResult* a = find(outcome.run, "suite_a");
  const BenchmarkResult* b = find(outcome.run, "suite_b");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->samples.size(), 9u) << "three processes of three samples";
  EXPECT_EQ(a->samples.back().process, 2u);
  EXPECT_GT(a->estimates.median.value, 0.0) << "estimates of the merged run";
  ASSERT_TRUE(b->failure);
  EXPECT_EQ(b->failure->cause, Failure::Cause::crashed);
  // The context is collected once, here; the workers' peak is the run's when larger.
  EXPECT_FALSE(outcome.run.context.tool_version.empty());
  ASSERT_TRUE(outcome.run.context.process_peak_rss_bytes);

  // A checkpoint after each benchmark: 3 in the first process, 2 in each of the others.
  ASSERT_EQ(observer.saved.size(), 7u);
  EXPECT_EQ(observer.saved.front().benchmarks.size(), 1u);
  EXPECT_EQ(find(observer.saved[3], "suite_c")->samples.size(), 6u) << "c ran first in process 2";
  EXPECT_EQ(find(observer.saved[3], "suite_a")->samples.size(), 3u);
  EXPECT_EQ(find(observer.saved.back(), "suite_a")->samples.size(), 9u);
  EXPECT_GT(find(observer.saved.back(), "suite_a")->estimates.median.value, 0.0);
  EXPECT_FALSE(observer.saved.front().context.tool_version.empty());
}

// Ctrl-C in the third of three processes, at suite_b: suite_b keeps the samples of the two
// processes that measured it (it is not a failed benchmark), the run stops there and says it
// was interrupted. Interrupted in the first process, where nothing of it finished, it fails.
TEST(Suite, CtrlCInALaterProcessKeepsWhatTheProcessesBeforeItMeasured) {
  for (const std::size_t stop_in : {std::size_t{2}, std::size_t{0}}) {
    std::vector<std::unique_ptr<FakeLauncher>> made;
    const std::vector<std::string> names = {"suite_a", "suite_b", "suite_c"};
    const LauncherFactory launchers = [&](std::size_t process) -> std::unique_ptr<Launcher> {
      made.push_back(std::make_unique<FakeLauncher>(names, [=](const std::string& n) {
        return n == "suite_b" && process == stop_in ? Act::interrupt : Act::finish;
      }));
      made.back()->payload = served;
      return std::make_unique<Forward>(*made.back());
    };
    Checkpoints observer;
    const SuiteOutcome outcome = run_suite(request_for(3), launchers, observer);
    EXPECT_TRUE(outcome.interrupted);
    EXPECT_EQ(made.size(), stop_in + 1) << "no process after the interrupted one";
    const BenchmarkResult* b = find(outcome.run, "suite_b");
    ASSERT_TRUE(b);
    if (stop_in == 0) {
      ASSERT_TRUE(b->failure);
      EXPECT_EQ(b->failure->cause, Failure::Cause::interrupted);
      EXPECT_EQ(outcome.failed, 1u);
      continue;
    }
    EXPECT_FALSE(b->failure);
    EXPECT_EQ(b->samples.size(), 6u) << "three samples from each of the first two processes";
    EXPECT_GT(b->estimates.median.value, 0.0);
    EXPECT_EQ(outcome.failed, 0u);
    EXPECT_TRUE(observer.failed_names.empty());
  }
}

TEST(Suite, OneWorkerPerBenchmarkAndACheckpointAfterEach) {
  const std::vector<std::string> names = {"suite_a", "suite_b", "suite_c"};
  FakeLauncher fake(
      names, [](const std::string& n) { return n == "suite_a" ? Act::exit_early : Act::finish; });
  fake.payload = served;
  FakeLauncher* seen = &fake;
  const LauncherFactory launchers = [&](std::size_t) -> std::unique_ptr<Launcher> {
    return std::make_unique<Forward>(fake);
  };
  Checkpoints observer;
  const SuiteOutcome outcome = run_suite(request_for(1), launchers, observer);
  ASSERT_NE(seen, nullptr);
  EXPECT_THAT(seen->launches, ElementsAre(ElementsAre(0), ElementsAre(1), ElementsAre(2)));
  EXPECT_THAT(observer.started_names, ElementsAre("0:suite_a", "0:suite_b", "0:suite_c"));
  ASSERT_EQ(observer.saved.size(), 3u);
  ASSERT_EQ(outcome.run.benchmarks.size(), 3u);
  EXPECT_TRUE(outcome.run.benchmarks[0].failure);
  EXPECT_EQ(outcome.run.benchmarks[0].failure->exit_code, 3);
  EXPECT_TRUE(outcome.run.benchmarks[2].valid());
}

TEST(Suite, RotatedOrderSpreadsEachBenchmarkOverTheRun) {
  EXPECT_THAT(rotated_order(4, 0, 2), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(rotated_order(4, 1, 2), ElementsAre(2, 3, 0, 1));
  EXPECT_THAT(rotated_order(3, 2, 3), ElementsAre(2, 0, 1));
  EXPECT_TRUE(rotated_order(0, 1, 3).empty());
}

}  // namespace
}  // namespace benchkit::session
