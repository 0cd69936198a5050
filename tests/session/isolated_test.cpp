#include "session/isolated.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "session/fake_launcher.hpp"

namespace benchkit::session {
namespace {

using session::testing::Act;
using session::testing::FakeLauncher;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::vector<std::string> kBenchmarkNames = {"a", "b", "c", "d"};

class IsolationRecorder final : public IsolationObserver {
 public:
  void started(std::size_t, const std::string& name) override { events.push_back("start " + name); }
  void finished(std::size_t, BenchmarkResult& r) override { events.push_back("done " + r.name); }
  void failed(std::size_t, const BenchmarkResult& r) override {
    events.push_back("failed " + r.name);
  }
  std::vector<std::string> events;
};

std::vector<std::size_t> all() {
  return {0, 1, 2, 3};
}

Isolation one_each() {
  Isolation isolation;
  isolation.timeout = std::chrono::seconds(2);
  return isolation;
}

Supervised supervised_run(FakeLauncher& launcher, Isolation isolation, IsolationRecorder& recorder,
                          std::vector<std::size_t> order = all()) {
  return supervise(launcher, kBenchmarkNames, order, isolation, testing::decode_fake, recorder);
}

std::map<std::string, const BenchmarkResult*> by_name(const Supervised& outcome) {
  std::map<std::string, const BenchmarkResult*> found;
  for (const BenchmarkResult& r : outcome.results) found[r.name] = &r;
  return found;
}

TEST(Supervise, HealthyBenchmarksEachGetAWorkerAndFinish) {
  FakeLauncher launcher(kBenchmarkNames, [](const std::string&) { return Act::finish; });
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder);
  EXPECT_EQ(outcome.failed, 0u);
  EXPECT_FALSE(outcome.interrupted);
  ASSERT_EQ(outcome.results.size(), 4u);
  EXPECT_THAT(launcher.launches,
              ElementsAre(ElementsAre(0), ElementsAre(1), ElementsAre(2), ElementsAre(3)));
  EXPECT_EQ(outcome.worker_peak_rss_bytes, 4096);
  EXPECT_THAT(recorder.events, ElementsAre("start a", "done a", "start b", "done b", "start c",
                                           "done c", "start d", "done d"));
}

TEST(Supervise, WithoutKeepResultsTheObserverAloneHearsOfEachResult) {
  FakeLauncher launcher(kBenchmarkNames,
                        [](const std::string& n) { return n == "b" ? Act::crash : Act::finish; });
  IsolationRecorder recorder;
  Isolation isolation = one_each();
  isolation.keep_results = false;
  const Supervised outcome = supervised_run(launcher, isolation, recorder);
  EXPECT_TRUE(outcome.results.empty());
  EXPECT_EQ(outcome.failed, 1u);
  EXPECT_THAT(recorder.events, ElementsAre("start a", "done a", "start b", "failed b", "start c",
                                           "done c", "start d", "done d"));
}

TEST(Supervise, ACrashMidBenchmarkIsRecordedWithItsSignalAndTheRestRunInAFreshWorker) {
  FakeLauncher launcher(kBenchmarkNames,
                        [](const std::string& n) { return n == "b" ? Act::crash : Act::finish; });
  IsolationRecorder recorder;
  Isolation isolation = one_each();
  isolation.per_worker = 0;  // one worker for all, as a fresh process of --processes N
  const Supervised outcome = supervised_run(launcher, isolation, recorder);
  EXPECT_EQ(outcome.failed, 1u);
  EXPECT_THAT(launcher.launches, ElementsAre(ElementsAre(0, 1, 2, 3), ElementsAre(2, 3)));
  const auto results = by_name(outcome);
  ASSERT_EQ(results.size(), 4u);
  const BenchmarkResult& b = *results.at("b");
  ASSERT_TRUE(b.failure);
  EXPECT_EQ(b.failure->cause, Failure::Cause::crashed);
  EXPECT_EQ(b.failure->signal, SIGSEGV);
  EXPECT_EQ(b.failure->stderr_tail, "last words of b");
  EXPECT_FALSE(b.valid());
  EXPECT_THAT(b.failures.front(), HasSubstr("killed by signal 11 (SIGSEGV)"));
  EXPECT_TRUE(b.samples.empty());
  for (const char* healthy : {"a", "c", "d"}) EXPECT_TRUE(results.at(healthy)->valid()) << healthy;
  EXPECT_THAT(recorder.events, ElementsAre("start a", "done a", "start b", "failed b", "start c",
                                           "done c", "start d", "done d"));
}

TEST(Supervise, AHangIsKilledAtTheDeadlineAndNamedWithTheTimeout) {
  FakeLauncher launcher(kBenchmarkNames,
                        [](const std::string& n) { return n == "c" ? Act::hang : Act::finish; });
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder);
  const BenchmarkResult& c = *by_name(outcome).at("c");
  ASSERT_TRUE(c.failure);
  EXPECT_EQ(c.failure->cause, Failure::Cause::timed_out);
  EXPECT_THAT(c.failures.front(), HasSubstr("did not finish within 2 s"));
  EXPECT_THAT(c.failures.front(), HasSubstr("raise --timeout"));
  EXPECT_EQ(outcome.failed, 1u);
  EXPECT_TRUE(by_name(outcome).at("d")->valid()) << "the run goes on after the hang";
}

TEST(Supervise, ABenchmarkThatEndsItsProcessIsRecordedWithItsStatus) {
  FakeLauncher launcher(kBenchmarkNames, [](const std::string& n) {
    return n == "a" ? Act::exit_early : Act::finish;
  });
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder);
  const BenchmarkResult& a = *by_name(outcome).at("a");
  ASSERT_TRUE(a.failure);
  EXPECT_EQ(a.failure->cause, Failure::Cause::exited);
  EXPECT_EQ(a.failure->exit_code, 3);
  EXPECT_THAT(a.failures.front(), HasSubstr("exited with status 3"));
  EXPECT_EQ(outcome.results.size(), 4u);
}

TEST(Supervise, AnInterruptionStopsTheRunAndKeepsWhatFinished) {
  FakeLauncher launcher(kBenchmarkNames, [](const std::string& n) {
    return n == "b" ? Act::interrupt : Act::finish;
  });
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder);
  EXPECT_TRUE(outcome.interrupted);
  ASSERT_EQ(outcome.results.size(), 2u) << "a finished, b was interrupted, c and d never ran";
  EXPECT_TRUE(outcome.results[0].valid());
  ASSERT_TRUE(outcome.results[1].failure);
  EXPECT_EQ(outcome.results[1].failure->cause, Failure::Cause::interrupted);
  EXPECT_EQ(launcher.launches.size(), 2u);
}

TEST(Supervise, AResultThatCannotBeReadFailsThatBenchmarkOnly) {
  FakeLauncher launcher(kBenchmarkNames,
                        [](const std::string& n) { return n == "d" ? Act::garble : Act::finish; });
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder);
  const BenchmarkResult& d = *by_name(outcome).at("d");
  ASSERT_TRUE(d.failure);
  EXPECT_THAT(d.failures.front(), HasSubstr("cannot be read: not a result"));
  EXPECT_EQ(outcome.failed, 1u);
}

TEST(Supervise, AWorkerThatDiesBeforeStartingIsBlamedOnItsNextBenchmarkSoTheRunEnds) {
  // Every worker crashes before it says anything: each launch costs one benchmark, so a broken
  // binary ends the run after one try per benchmark instead of looping.
  class Dead final : public Launcher {
   public:
    model::Result<std::unique_ptr<Worker>> launch(const std::vector<std::size_t>&) override {
      ++launches;
      std::deque<WorkerEvent> events{testing::FakeWorker::ended(process::Exit{-1, SIGABRT})};
      return std::unique_ptr<Worker>(std::make_unique<testing::FakeWorker>(std::move(events)));
    }
    int launches = 0;
  } dead;
  IsolationRecorder recorder;
  Isolation isolation = one_each();
  isolation.per_worker = 0;
  const Supervised outcome =
      supervise(dead, kBenchmarkNames, all(), isolation, testing::decode_fake, recorder);
  EXPECT_EQ(dead.launches, 4);
  EXPECT_EQ(outcome.failed, 4u);
  EXPECT_THAT(outcome.results.front().failures.front(),
              HasSubstr("its worker process ended before it started it (killed by signal 6"));
}

TEST(Supervise, NoWorkerCanStartEveryBenchmarkFailsWithTheReason) {
  FakeLauncher launcher(kBenchmarkNames, [](const std::string&) { return Act::finish; });
  launcher.refuse = true;
  IsolationRecorder recorder;
  const Supervised outcome = supervised_run(launcher, one_each(), recorder, {2, 0});
  EXPECT_EQ(outcome.failed, 2u);
  ASSERT_EQ(outcome.results.size(), 2u);
  EXPECT_EQ(outcome.results[0].name, "c") << "in the order asked for";
  EXPECT_THAT(outcome.results[0].failures.front(), HasSubstr("fork failed"));
  EXPECT_EQ(launcher.launches.size(), 1u);
}

}  // namespace
}  // namespace benchkit::session
