#include "session/commands.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <string>
#include <vector>

#include "fakes/fake_clock.hpp"
#include "fakes/fake_executor.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::FakeClock;
using benchkit::testing::FakeExecutor;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

process::CommandSpec command(const std::string& name) {
  process::CommandSpec spec;
  spec.name = name;
  spec.argv = {name};
  return spec;
}

// Exactly `runs` rounds, no warm-up: the tests count runs and checkpoints.
CommandRequest request_of(std::vector<process::CommandSpec> commands, std::size_t runs) {
  CommandRequest request;
  request.commands = std::move(commands);
  request.settings.warmup = 0;
  request.settings.runs = runs;
  request.settings.min_runs = runs;
  return request;
}

// Runs named in `milliseconds` take that long; every run succeeds.
class CommandRecorder final : public CommandObserver {
 public:
  void run_started(const std::string& name, std::size_t round, bool warmup,
                   double elapsed_seconds) override {
    started.push_back(fmt::format("{}{} {}", warmup ? "w" : "", round, name));
    last_elapsed = elapsed_seconds;
  }
  void failed(const std::string& name, const std::string& message) override {
    failures.push_back(name + ": " + message);
  }
  void checkpoint(const RunResult& so_far) override {
    checkpoint_samples.push_back(so_far.benchmarks.at(0).samples.size());
    checkpoint_seeds.push_back(so_far.context.seed);
  }
  std::vector<std::string> started;
  std::vector<std::string> failures;
  std::vector<std::size_t> checkpoint_samples;
  std::vector<std::uint64_t> checkpoint_seeds;
  double last_elapsed = 0.0;
};

CommandOutcome run_request(const CommandRequest& request, FakeExecutor::Script script,
                           CommandRecorder& observer) {
  FakeClock clock;
  FakeExecutor executor(clock, std::move(script));
  const auto plan = plan_commands(request);
  EXPECT_TRUE(plan) << plan.error().message;
  return run_command_rounds(request, *plan, executor, clock, observer);
}

TEST(CommandPlan, ExpandsParametersSubstitutesHooksAndPutsTheShellProbeFirst) {
  CommandRequest request;
  process::CommandSpec spec;
  spec.shell_command = "sort -S {size}";
  request.commands = {spec};
  request.parameters = {{"size", {"1K", "1M"}}};
  request.shell = "/bin/sh";
  request.hooks.prepare = "make input-{size}";
  const auto plan = plan_commands(request);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_TRUE(plan->shell_probe);
  ASSERT_EQ(plan->benchmarks.size(), 3u);
  EXPECT_EQ(plan->measured(), 2u);
  EXPECT_EQ(plan->benchmarks[0].command.name, kShellProbe);
  EXPECT_THAT(plan->benchmarks[0].command.argv, ElementsAre("/bin/sh", "-c", ""));
  EXPECT_EQ(plan->benchmarks[2].hooks.prepare, "make input-1M");
  EXPECT_THAT(plan->benchmarks[2].command.argv, ElementsAre("/bin/sh", "-c", "sort -S 1M"));
}

TEST(CommandPlan, AParameterNamedTwiceIsAUsageError) {
  CommandRequest request;
  process::CommandSpec spec;
  spec.argv = {"sort", "-S", "{size}"};
  request.commands = {spec};
  request.parameters = {{"size", {"1K"}}, {"size", {"1M"}}};
  const auto plan = plan_commands(request);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().kind, model::ErrorKind::usage);
}

TEST(CommandRounds, TheShellsStartUpIsSubtractedAndNotListed) {
  CommandRequest request = request_of({}, 6);
  process::CommandSpec spec;
  spec.shell_command = "work";
  request.commands = {spec};
  request.shell = "/bin/sh";
  CommandRecorder observer;
  const CommandOutcome outcome = run_request(
      request, FakeExecutor::timed({{"/bin/sh -c ", 2.0}, {"/bin/sh -c work", 10.0}}), observer);
  ASSERT_EQ(outcome.run.benchmarks.size(), 1u);
  const BenchmarkResult& work = outcome.run.benchmarks[0];
  EXPECT_EQ(work.kind, "command");
  EXPECT_EQ(work.samples.size(), 6u);
  EXPECT_DOUBLE_EQ(work.overhead_ns_per_sample, 2e6);
  EXPECT_DOUBLE_EQ(work.counters.at("shell_startup_ns"), 2e6);
  EXPECT_NEAR(work.estimates.median.value, 8e6, 1.0);
  EXPECT_FALSE(outcome.against_reference);  // the probe is no benchmark to compare with
}

TEST(CommandRounds, AFailingCommandIsReportedAndTheOthersGoOn) {
  CommandRequest request = request_of({command("good"), command("bad")}, 5);
  CommandRecorder observer;
  const CommandOutcome outcome = run_request(
      request,
      [](const process::RunRequest& r) {
        process::RunRecord record = FakeExecutor::ok_after(1e6);
        if (r.argv.front() == "bad") record.resources.exit_code = 3;
        return record;
      },
      observer);
  EXPECT_EQ(outcome.failed, 1u);
  ASSERT_EQ(observer.failures.size(), 1u);
  EXPECT_THAT(observer.failures[0], HasSubstr("bad: "));
  ASSERT_EQ(outcome.run.benchmarks.size(), 2u);
  EXPECT_EQ(outcome.run.benchmarks[0].samples.size(), 5u);
  EXPECT_TRUE(outcome.run.benchmarks[0].valid());
  EXPECT_FALSE(outcome.run.benchmarks[1].valid());
  EXPECT_FALSE(outcome.run.benchmarks[1].failures.empty());
}

TEST(CommandRounds, CheckpointsAreOfferedEveryTwoSecondsWhenAsked) {
  CommandRequest request = request_of({command("slow")}, 10);
  request.context.seed = 42;
  CommandRecorder quiet;
  run_request(request, FakeExecutor::timed({{"slow", 500.0}}), quiet);
  EXPECT_TRUE(quiet.checkpoint_samples.empty());  // not asked: no estimates computed

  request.checkpoints = true;
  CommandRecorder observer;
  const CommandOutcome outcome =
      run_request(request, FakeExecutor::timed({{"slow", 500.0}}), observer);
  // Rounds of 0.5 s: a checkpoint after 2 s and after 4 s, each with the runs so far.
  EXPECT_THAT(observer.checkpoint_samples, ElementsAre(4u, 8u));
  EXPECT_THAT(observer.checkpoint_seeds, ElementsAre(42u, 42u));
  EXPECT_EQ(outcome.run.context.seed, 42u);
  EXPECT_EQ(observer.started.size(), 10u);
  EXPECT_DOUBLE_EQ(observer.last_elapsed, 4.5);  // the tenth run starts after nine
}

TEST(CommandRounds, PendingGitFactsAreWaitedForAfterTheWarmUpAndBeforeTheFirstMeasuredRun) {
  CommandRequest request = request_of({command("work")}, 3);
  request.settings.warmup = 2;
  // A deferred future runs its function where it is waited for: it sees how many runs the
  // executor had started by then.
  std::size_t runs_started = 0;
  std::size_t runs_when_waited = 0;
  request.pending_git = std::async(std::launch::deferred, [&] {
                          runs_when_waited = runs_started;
                          vcs::GitFacts facts;
                          facts.commit = "0123abcd";
                          facts.branch = "main";
                          facts.dirty = true;
                          return facts;
                        }).share();
  CommandRecorder observer;
  const CommandOutcome outcome = run_request(
      request,
      [&](const process::RunRequest&) {
        ++runs_started;
        return FakeExecutor::ok_after(1e6);
      },
      observer);
  EXPECT_EQ(runs_when_waited, 2u);  // both warm-ups ran beside git, no measured run did
  EXPECT_EQ(runs_started, 5u);
  EXPECT_EQ(outcome.run.context.git_commit, "0123abcd");
  EXPECT_EQ(outcome.run.context.git_branch, "main");
  EXPECT_EQ(outcome.run.context.git_dirty, true);
}

TEST(CommandRounds, PendingGitFactsAreRecordedEvenWhenNoRunIsMeasured) {
  CommandRequest request = request_of({command("bad")}, 3);
  request.settings.warmup = 1;
  request.pending_git = std::async(std::launch::deferred, [] {
                          vcs::GitFacts facts;
                          facts.commit = "0123abcd";
                          return facts;
                        }).share();
  CommandRecorder observer;
  const CommandOutcome outcome = run_request(
      request,
      [](const process::RunRequest&) {
        process::RunRecord record = FakeExecutor::ok_after(1e6);
        record.resources.exit_code = 1;  // the warm-up fails: the benchmark stops there
        return record;
      },
      observer);
  EXPECT_EQ(outcome.failed, 1u);
  EXPECT_EQ(outcome.run.context.git_commit, "0123abcd");
}

TEST(CommandRounds, EveryCommandIsComparedWithTheReferenceOnThePairedRounds) {
  CommandRequest request = request_of({command("fast"), command("slow")}, 8);
  CommandRecorder observer;
  auto script = [](const process::RunRequest& r) {
    static int calls = 0;
    const double jitter = (calls++ % 3) * 1e4;
    return FakeExecutor::ok_after((r.argv.front() == "fast" ? 10e6 : 20e6) + jitter);
  };
  const CommandOutcome first = run_request(request, script, observer);
  EXPECT_EQ(first.reference, "fast");
  ASSERT_TRUE(first.against_reference);
  ASSERT_EQ(first.against_reference->benchmarks.size(), 1u);
  EXPECT_EQ(first.against_reference->benchmarks[0].name, "slow");
  EXPECT_NEAR(first.against_reference->benchmarks[0].ratio, 2.0, 0.01);
  EXPECT_EQ(first.against_reference->benchmarks[0].verdict, analysis::Verdict::regressed);
  // Rounds alternate A B, B A: each run keeps its place in its round (Sample::turn), which lets
  // the comparison read them as a crossover when the order matters (here it does not: pairs).
  ASSERT_EQ(first.run.benchmarks.size(), 2u);
  for (std::size_t b = 0; b < 2; ++b) {
    const std::vector<Sample>& samples = first.run.benchmarks[b].samples;
    ASSERT_EQ(samples.size(), 8u);
    for (const Sample& sample : samples) {
      ASSERT_TRUE(sample.round && sample.turn);
      EXPECT_EQ(*sample.turn, b == 0 ? *sample.round % 2 : 1 - *sample.round % 2);
    }
  }
  EXPECT_TRUE(first.against_reference->benchmarks[0].baseline_first.empty());

  request.reference = "slow";
  const CommandOutcome second = run_request(request, script, observer);
  EXPECT_EQ(second.reference, "slow");
  ASSERT_TRUE(second.against_reference);
  EXPECT_EQ(second.against_reference->benchmarks[0].name, "fast");
  EXPECT_EQ(second.against_reference->benchmarks[0].verdict, analysis::Verdict::improved);

  request.reference = "neither";
  const CommandOutcome third = run_request(request, script, observer);
  EXPECT_FALSE(third.against_reference);
  ASSERT_TRUE(third.reference_error);
  EXPECT_EQ(third.reference_error->kind, model::ErrorKind::usage);
  EXPECT_THAT(third.reference_error->message, HasSubstr("the names are:\n  fast\n  slow"));
}

TEST(CommandRepeatedly, EachRunIsItsOwnProcessAfterOneWarmUp) {
  FakeClock clock;
  FakeExecutor executor(clock, FakeExecutor::timed({{"tool --flag", 3.0}}));
  CommandRecorder observer;
  const auto run = run_command_repeatedly({"tool", "--flag"}, 4, executor, clock, observer);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(executor.log.size(), 5u);  // the warm-up and four runs
  ASSERT_EQ(run->benchmarks.size(), 1u);
  const BenchmarkResult& result = run->benchmarks[0];
  EXPECT_EQ(result.name, "tool --flag");
  ASSERT_EQ(result.samples.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(result.samples[i].process, i);
    EXPECT_FALSE(result.samples[i].round);
  }
}

// Ctrl-C during the fourth run (the warm-up, then three runs): the three runs are the result,
// said to be interrupted; a caller that cannot take part of a run gets the error instead, as
// does one interrupted in the warm-up.
TEST(CommandRepeatedly, CtrlCAfterSomeRunsGivesThoseRuns) {
  for (const int stop_at : {5, 1}) {
    FakeClock clock;
    int calls = 0;
    FakeExecutor executor(clock, [&](const process::RunRequest&) {
      process::RunRecord record = FakeExecutor::ok_after(1e6);
      if (++calls == stop_at) record.interrupted = true;
      return record;
    });
    CommandRecorder observer;
    bool interrupted = false;
    const auto run = run_command_repeatedly({"tool"}, 6, executor, clock, observer, &interrupted);
    if (stop_at == 1) {
      ASSERT_FALSE(run);
      EXPECT_EQ(run.error().kind, model::ErrorKind::interrupted);
      continue;
    }
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(interrupted);
    ASSERT_EQ(run->benchmarks.size(), 1u);
    EXPECT_EQ(run->benchmarks[0].samples.size(), 3u);
    calls = 0;
    const auto refused = run_command_repeatedly({"tool"}, 6, executor, clock, observer);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, model::ErrorKind::interrupted);
  }
}

TEST(CommandRepeatedly, AFailedRunIsAnErrorAndTheObserverHearsHow) {
  FakeClock clock;
  FakeExecutor executor(clock, [](const process::RunRequest&) {
    process::RunRecord record = FakeExecutor::ok_after(1e6);
    record.resources.exit_code = 2;
    return record;
  });
  CommandRecorder observer;
  const auto run = run_command_repeatedly({"tool"}, 4, executor, clock, observer);
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().kind, model::ErrorKind::failed);
  EXPECT_THAT(run.error().message, HasSubstr("tool failed"));
  EXPECT_EQ(observer.failures.size(), 1u);
}

}  // namespace
}  // namespace benchkit::session
