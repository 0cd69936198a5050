// A driver's worker by its role (session/worker.hpp), with a host that records what it was
// handed: no process started, no turn taken, no routine profiled.
#include "session/worker.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <variant>

// The benchmarks the workers choose from (never run here).
static void worker_a(benchkit::Bencher& b) {
  b.iter([] { return 1; });
}
BENCHKIT(worker_a);
static void worker_b(benchkit::Bencher& b) {
  b.iter([] { return 2; });
}
BENCHKIT(worker_b);

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RecordingHost final : public WorkerHost {
 public:
  int refused(const model::Error& error) override {
    calls.push_back("refused: " + error.message);
    return 2;
  }
  int list(const std::vector<measure::Instance>& chosen) override {
    calls.push_back("list");
    for (const auto& instance : chosen) names.push_back(instance.name);
    return 0;
  }
  int take_turns(const process::WorkerInvocation& invocation, Plan plan) override {
    calls.push_back("turns to " + invocation.out);
    turns_plan_is_a_bench_plan = std::holds_alternative<BenchPlan>(plan.what);
    return 0;
  }
  int profile(const ProfiledRequest& request, bool /*quiet*/, const RunSettings& /*settings*/,
              const std::vector<measure::Instance>& chosen) override {
    calls.push_back("profile for " + request.shown + " with markers " + request.markers);
    for (const auto& instance : chosen) names.push_back(instance.name);
    return 0;
  }

  std::vector<std::string> calls;
  std::vector<std::string> names;
  bool turns_plan_is_a_bench_plan = false;
};

process::WorkerInvocation choosing(const std::string& name) {
  process::WorkerInvocation invocation;
  invocation.filter = name;
  invocation.exact = true;
  return invocation;
}

TEST(RunWorker, ATurnsWorkerHandsItsOneBenchmarksPlanToTheHost) {
  process::WorkerInvocation invocation = choosing("worker_b");
  invocation.turns_fd = 7;
  invocation.out = "result.json";
  RecordingHost host;
  EXPECT_EQ(run_worker(invocation.to_argv(), "bench --turns-fd 7", host), 0);
  EXPECT_THAT(host.calls, ElementsAre("turns to result.json"));
  EXPECT_TRUE(host.turns_plan_is_a_bench_plan);
}

TEST(RunWorker, AProfiledWorkerIsGivenItsDurationAsShownAndItsMarkers) {
  process::WorkerInvocation invocation = choosing("worker_a");
  invocation.profile_time_ns = 5'000'000;
  invocation.profile_markers = "markers.fifo";
  RecordingHost host;
  EXPECT_EQ(run_worker(invocation.to_argv(), "", host), 0);
  EXPECT_THAT(host.calls, ElementsAre("profile for 5000000ns with markers markers.fifo"));
  EXPECT_THAT(host.names, ElementsAre("worker_a"));
}

TEST(RunWorker, AListerNamesWhatItsSelectionChooses) {
  process::WorkerInvocation invocation = choosing("worker_.");
  invocation.exact = false;
  invocation.list = true;
  invocation.turns_fd = 7;  // --list answers before any role
  RecordingHost host;
  EXPECT_EQ(run_worker(invocation.to_argv(), "", host), 0);
  EXPECT_THAT(host.calls, ElementsAre("list"));
  EXPECT_THAT(host.names, ElementsAre("worker_a", "worker_b"));
}

TEST(RunWorker, WhatNoWorkerCanHonourIsRefusedBeforeAnythingRuns) {
  RecordingHost unknown;
  EXPECT_EQ(run_worker(std::vector<std::string>{"--turns-fd", "3", "--no-such-flag"}, "", unknown),
            2);
  ASSERT_EQ(unknown.calls.size(), 1u);
  EXPECT_THAT(unknown.calls.front(), HasSubstr("--no-such-flag"));

  // A counted worker outside valgrind (this test is not run under it).
  process::WorkerInvocation counted = choosing("worker_a");
  counted.mode = Mode::instructions;
  counted.turns_fd = 3;
  RecordingHost host;
  EXPECT_EQ(run_worker(counted.to_argv(), "", host), 2);
  ASSERT_EQ(host.calls.size(), 1u);
  EXPECT_THAT(host.calls.front(), HasSubstr("refused: a counted worker runs under valgrind"));

  RecordingHost none;
  process::WorkerInvocation nothing = choosing("no_such_benchmark");
  nothing.turns_fd = 3;
  EXPECT_EQ(run_worker(nothing.to_argv(), "", none), 2);
  ASSERT_EQ(none.calls.size(), 1u);
  EXPECT_THAT(none.calls.front(), HasSubstr("refused: "));
}

}  // namespace
}  // namespace benchkit::session
