#include "process/rounds.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "fakes/fake_clock.hpp"
#include "fakes/fake_executor.hpp"

namespace benchkit::process {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Eq;
using testing::FakeClock;
using testing::FakeExecutor;
using ::testing::HasSubstr;

RoundBenchmark bench(const std::string& name, Hooks hooks = {}) {
  RoundBenchmark b;
  b.command.name = name;
  b.command.argv = {name};
  b.hooks = std::move(hooks);
  return b;
}

// Every command takes `ms` milliseconds and succeeds.
FakeExecutor::Script constant_ms(double ms) {
  return [ms](const RunRequest&) { return FakeExecutor::ok_after(ms * 1e6); };
}

const PrecisionCheck never = [](const std::vector<double>&) { return false; };
const PrecisionCheck always = [](const std::vector<double>&) { return true; };

class Recorder : public RoundObserver {
 public:
  void benchmark_failed(std::size_t b, const std::string& message) override {
    failed.push_back(std::to_string(b) + ": " + message);
  }
  void round_finished(const RoundsResult& so_far) override { rounds_seen.push_back(so_far.rounds); }
  std::vector<std::string> failed;
  std::vector<std::size_t> rounds_seen;
};

TEST(Rounds, CommandsAlternateWithinRoundsAfterInterleavedWarmUp) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 1;
  settings.runs = 3;
  const RoundsResult r =
      run_rounds({bench("A"), bench("B")}, settings, executor, clock, never, observer);
  EXPECT_THAT(executor.log, ElementsAre("A", "B",                        // warm-up
                                        "A", "B", "B", "A", "A", "B"));  // rounds 1-3
  EXPECT_EQ(r.rounds, 3u);
  EXPECT_EQ(r.stop_reason, "--runs reached");
  ASSERT_EQ(r.benchmarks[0].runs.size(), 3u);
  EXPECT_EQ(r.benchmarks[0].warmups.size(), 1u);
  EXPECT_EQ(r.benchmarks[1].runs[2].round, 2u);
  // Each run's place in its round, which the comparison uses to cancel what coming second does.
  for (std::size_t round = 0; round < 3; ++round) {
    EXPECT_EQ(r.benchmarks[0].runs[round].turn, round % 2);
    EXPECT_EQ(r.benchmarks[1].runs[round].turn, 1 - round % 2);
  }
  EXPECT_THAT(observer.rounds_seen, ElementsAre(1, 2, 3));
}

TEST(Rounds, StopAtMinRunsWhenPreciseOtherwiseAtTheBudget) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(100));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.min_runs = 5;
  settings.budget_ns = 2e9;  // per benchmark: 2 benchmarks → 4 s of rounds
  auto precise = run_rounds({bench("A"), bench("B")}, settings, executor, clock, always, observer);
  EXPECT_EQ(precise.rounds, 5u);
  EXPECT_EQ(precise.stop_reason, "precision reached");
  auto budget = run_rounds({bench("A"), bench("B")}, settings, executor, clock, never, observer);
  EXPECT_EQ(budget.rounds, 20u);  // 20 rounds × 2 × 100 ms = 4 s
  EXPECT_EQ(budget.stop_reason, "time budget spent");
  settings.max_runs = 8;
  auto capped = run_rounds({bench("A"), bench("B")}, settings, executor, clock, never, observer);
  EXPECT_EQ(capped.rounds, 8u);
  EXPECT_EQ(capped.stop_reason, "--max-runs reached");
}

TEST(Rounds, PrecisionIsJudgedOnTheWallTimesOfEveryRunningBenchmark) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.min_runs = 3;
  std::vector<std::size_t> sizes;
  const PrecisionCheck after_seven = [&](const std::vector<double>& times) {
    sizes.push_back(times.size());
    EXPECT_EQ(times.front(), 1e6);
    return times.size() >= 7;
  };
  auto r = run_rounds({bench("A")}, settings, executor, clock, after_seven, observer);
  EXPECT_EQ(r.rounds, 7u);
  EXPECT_THAT(sizes, ElementsAre(3, 4, 5, 6, 7));
}

TEST(Rounds, HooksRunAroundEveryRunAndAreNotMeasured) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 1;
  settings.runs = 2;
  settings.hook_shell = "sh";
  Hooks hooks{"mk", "prep", "done", "rm"};
  auto r = run_rounds({bench("A", hooks)}, settings, executor, clock, never, observer);
  EXPECT_THAT(
      executor.log,
      ElementsAre("sh -c mk", "sh -c prep", "A", "sh -c done",  // set-up, warm-up
                  "sh -c prep", "A", "sh -c done", "sh -c prep", "A", "sh -c done", "sh -c rm"));
  EXPECT_EQ(r.benchmarks[0].runs.size(), 2u);
  EXPECT_TRUE(r.benchmarks[0].failure.empty());
}

// The runs that follow for certain are announced to the executor (the spawner starts each as
// soon as the one before it ends), as many as it takes (the fake: 3), across rounds; each run
// is then asked for in its turn. The first measured run is announced only once its turn has
// come (the observer hears of it first: `benchkit run` waits there for `git status`).
TEST(Rounds, WithRunsTheRunsAheadAreAnnouncedAcrossRounds) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 1;
  settings.runs = 2;
  run_rounds({bench("A"), bench("B")}, settings, executor, clock, never, observer);
  EXPECT_THAT(executor.log, ElementsAre("A", "B", "A", "B", "B", "A"));
  EXPECT_THAT(executor.announced, Each(Eq("ahead")));
  // "N:X": X announced when N runs had been asked for.
  EXPECT_THAT(executor.ahead_log, ElementsAre("0:A", "0:B", "2:A", "2:B", "2:B", "3:A"));
}

// Without --runs the stopping rule decides after each round from --min-runs on, so a round it
// may skip is not announced before that decision; a hook between two runs (--conclude after
// one, --prepare before the next) stops the announcements too.
TEST(Rounds, AnnouncementsStopAtTheStoppingRuleAndAtHooks) {
  FakeClock clock;
  FakeExecutor adaptive(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.min_runs = 2;
  settings.budget_ns = 1e12;
  const PrecisionCheck after_three = [](const std::vector<double>& times) {
    return times.size() >= 3;
  };
  run_rounds({bench("A"), bench("B")}, settings, adaptive, clock, after_three, observer);
  EXPECT_THAT(adaptive.log, ElementsAre("A", "B", "B", "A", "A", "B"));
  // Rounds 1 and 2 (below --min-runs) ahead; round 3 only once round 2 was done.
  EXPECT_THAT(adaptive.ahead_log, ElementsAre("0:A", "0:B", "0:B", "1:A", "4:A", "4:B"));

  FakeExecutor hooked(clock, constant_ms(1));
  settings.runs = 2;
  settings.hook_shell = "sh";
  Hooks prepare;
  prepare.prepare = "prep";
  Hooks conclude;
  conclude.conclude = "done";
  run_rounds({bench("A", conclude), bench("B", prepare), bench("C")}, settings, hooked, clock,
             never, observer);
  EXPECT_THAT(hooked.log, ElementsAre("A", "sh -c done", "sh -c prep", "B", "C",  // round 1
                                      "C", "sh -c prep", "B", "A", "sh -c done"));
  EXPECT_THAT(hooked.announced, ElementsAre("ahead", "now", "now", "ahead", "ahead", "ahead", "now",
                                            "ahead", "ahead", "now"));
  EXPECT_THAT(hooked.ahead_log, ElementsAre("0:A", "3:B", "3:C", "3:C", "7:B", "7:A"));
}

// After a failed run the next one is asked for now (the spawner skips the runs announced after
// a failure), and the failed benchmark is not announced again.
TEST(Rounds, AFailedBenchmarkIsNotAnnouncedAgain) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest& request) {
    RunRecord record = FakeExecutor::ok_after(1e6);
    if (request.argv[0] == "B") record.resources.exit_code = 1;
    return record;
  });
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 3;
  run_rounds({bench("A"), bench("B"), bench("C")}, settings, executor, clock, never, observer);
  EXPECT_THAT(executor.log, ElementsAre("A", "B", "C",  // B fails in round 1
                                        "C", "A", "A", "C"));
  EXPECT_THAT(executor.announced,
              ElementsAre("ahead", "ahead", "now", "ahead", "ahead", "ahead", "ahead"));
  EXPECT_THAT(executor.ahead_log,
              ElementsAre("0:A", "0:B", "0:C", "1:C", "3:C", "3:A", "3:A", "4:C"));
}

TEST(Rounds, AFailingRunStopsOnlyItsBenchmarkWithTheStatusAndStderr) {
  FakeClock clock;
  int b_runs = 0;
  FakeExecutor executor(clock, [&](const RunRequest& request) {
    RunRecord r = FakeExecutor::ok_after(1e6);
    if (request.argv[0] == "B" && ++b_runs == 3) {
      r.resources.exit_code = 3;
      r.stderr_tail = "line 1\nline 2\nfatal: disk full\n";
    }
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 5;
  auto r = run_rounds({bench("A"), bench("B")}, settings, executor, clock, never, observer);
  EXPECT_EQ(r.benchmarks[0].runs.size(), 5u);
  EXPECT_EQ(r.benchmarks[1].runs.size(), 2u);  // the failed run is not a sample
  EXPECT_THAT(r.benchmarks[1].failure, HasSubstr("run 3 exited with status 3"));
  EXPECT_THAT(r.benchmarks[1].failure, HasSubstr("fatal: disk full"));
  EXPECT_THAT(r.benchmarks[1].failure, HasSubstr("--ignore-failure=3"));
  ASSERT_EQ(observer.failed.size(), 1u);
  EXPECT_THAT(observer.failed[0], HasSubstr("1: run 3"));
}

TEST(Rounds, IgnoredFailuresCountAsRuns) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest&) {
    RunRecord r = FakeExecutor::ok_after(1e6);
    r.resources.exit_code = 1;
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 4;
  settings.ignored_exit_codes = {1};
  auto listed = run_rounds({bench("A")}, settings, executor, clock, never, observer);
  EXPECT_EQ(listed.benchmarks[0].runs.size(), 4u);
  EXPECT_TRUE(listed.benchmarks[0].failure.empty());
  settings.ignored_exit_codes = {2};
  auto other = run_rounds({bench("A")}, settings, executor, clock, never, observer);
  EXPECT_EQ(other.benchmarks[0].runs.size(), 0u);
  EXPECT_FALSE(other.benchmarks[0].failure.empty());
  settings.ignored_exit_codes.clear();
  settings.ignore_all_failures = true;
  auto all = run_rounds({bench("A")}, settings, executor, clock, never, observer);
  EXPECT_EQ(all.benchmarks[0].runs.size(), 4u);
}

TEST(Rounds, TimeoutsAreNeverIgnoredAndSaySo) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest& request) {
    RunRecord r = FakeExecutor::ok_after(request.timeout_seconds * 1e9);
    r.resources.exit_code.reset();
    r.resources.signal = 15;
    r.resources.timed_out = true;
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 3;
  settings.timeout_seconds = 2;
  settings.ignore_all_failures = true;
  auto r = run_rounds({bench("A")}, settings, executor, clock, never, observer);
  EXPECT_THAT(r.benchmarks[0].failure, HasSubstr("timed out after 2 s"));
  EXPECT_EQ(executor.requests[0].timeout_seconds, 2);
}

TEST(Rounds, AFailingHookStopsTheBenchmarkButCleanupStillRuns) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest& request) {
    RunRecord r = FakeExecutor::ok_after(1e6);
    if (request.argv.back() == "prep") r.resources.exit_code = 1;
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 3;
  settings.hook_shell = "sh";
  auto r = run_rounds({bench("A", Hooks{"", "prep", "", "rm"}), bench("B")}, settings, executor,
                      clock, never, observer);
  EXPECT_THAT(r.benchmarks[0].failure,
              HasSubstr("the --prepare hook \"prep\" exited with status 1"));
  EXPECT_EQ(r.benchmarks[0].runs.size(), 0u);
  EXPECT_EQ(r.benchmarks[1].runs.size(), 3u);
  EXPECT_EQ(executor.log.back(), "sh -c rm");
}

TEST(Rounds, AFailedSetupSkipsTheBenchmarkAndItsCleanup) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest& request) {
    RunRecord r = FakeExecutor::ok_after(1e6);
    if (request.argv.back() == "mk") r.resources.exit_code = 2;
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  settings.runs = 2;
  settings.hook_shell = "sh";
  auto r = run_rounds({bench("A", Hooks{"mk", "", "", "rm"})}, settings, executor, clock, never,
                      observer);
  EXPECT_THAT(r.benchmarks[0].failure, HasSubstr("--setup"));
  EXPECT_THAT(executor.log, ElementsAre("sh -c mk"));
  EXPECT_EQ(r.stop_reason, "every benchmark failed");
}

TEST(Rounds, AProgramThatCannotStartIsReportedAsSuch) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const RunRequest&) {
    RunRecord r;
    r.error = "cannot start nosuch: No such file or directory";
    return r;
  });
  Recorder observer;
  RoundSettings settings;
  auto r = run_rounds({bench("nosuch")}, settings, executor, clock, never, observer);
  EXPECT_EQ(r.benchmarks[0].failure, "cannot start nosuch: No such file or directory");
}

TEST(Rounds, EveryRunGetsTheTemplateAndItsCommandsEnvironment) {
  FakeClock clock;
  FakeExecutor executor(clock, constant_ms(1));
  Recorder observer;
  RoundSettings settings;
  settings.warmup = 0;
  settings.runs = 1;
  settings.run_template.input_path = "in.txt";
  settings.run_template.output = Output::pipe;
  settings.run_template.cpus = {1};
  RoundBenchmark b = bench("A");
  b.command.env = {"LEVEL=3"};
  run_rounds({b}, settings, executor, clock, never, observer);
  ASSERT_EQ(executor.requests.size(), 1u);
  EXPECT_EQ(executor.requests[0].input_path, "in.txt");
  EXPECT_EQ(executor.requests[0].output, Output::pipe);
  EXPECT_THAT(executor.requests[0].cpus, ElementsAre(1));
  EXPECT_THAT(executor.requests[0].env, ElementsAre("LEVEL=3"));
}

}  // namespace
}  // namespace benchkit::process
