// benchkit ab's orchestration (RevisionsPlan through the run pipeline) with a fake workshop and a
// fake keeper: no git, no compiler, no processes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fake_workshop.hpp"
#include "formats/comparison_json.hpp"
#include "session/isolated.hpp"
#include "session/plans.hpp"
#include "session/revision_pairs.hpp"
#include "session/shard_merge.hpp"
#include "system/context.hpp"

namespace benchkit::session {
namespace {

using session::testing::FakeWorkshop;
using session::testing::made;

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

RevisionsPlan revisions_plan_for(const std::string& base, const std::string& candidate) {
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

// ab --record: both runs recorded, the baseline first.
Steps recording_steps() {
  Steps steps = ab_steps();
  steps.record = true;
  steps.record_baseline = true;
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
  const Outcome outcome = run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper);
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

// ab --together reaches the pairs' request (where ab.cpp runs Google Benchmark pairs with a
// round's benchmarks in one process a build), and the method note says so.
TEST(AbPipeline, TogetherReachesTheRequestAndTheMethodNote) {
  for (const bool together : {false, true}) {
    FakeWorkshop workshop;
    Told told;
    Keeping keeper;
    RevisionsPlan plan = revisions_plan_for("c2", "c3");
    plan.pairs.together = together;
    const Outcome outcome = run_ab_plan(plan, workshop, told, keeper);
    ASSERT_TRUE(outcome.measured) << outcome.errors.front().message;
    ASSERT_EQ(workshop.requests.size(), 1u);
    EXPECT_EQ(workshop.requests[0].together, together);
  }
  FakeWorkshop gbench;
  gbench.measure = [](const AbRequest&) -> model::Result<AbRuns> {
    AbRuns runs{made(100.0, 1), made(100.0, 2), "5", {}, {}};
    runs.gbench = true;
    return runs;
  };
  Told told;
  Keeping keeper;
  RevisionsPlan plan = revisions_plan_for("c2", "c3");
  plan.pairs.together = true;
  const Outcome outcome = run_ab_plan(plan, gbench, told, keeper);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_THAT(outcome.comparison->method_note,
              HasSubstr("a round's benchmarks together, one process a build, as --together asks"));
  EXPECT_THAT(outcome.comparison->method_note,
              HasSubstr("rounds of fresh process pairs (each running the benchmarks left)"));
}

// Ctrl-C once a round had finished: the comparison of the rounds before it is the outcome, its
// method note says so, the exit status is 130, and the history keeps nothing of a partial run.
TEST(AbPipeline, CtrlCAfterARoundIsJudgedOnTheRoundsBeforeItAndNotRecorded) {
  FakeWorkshop workshop;
  workshop.first_slow = 3;
  workshop.measure = [](const AbRequest&) -> model::Result<AbRuns> {
    AbRuns runs{made(100.0, 1), made(120.0, 2), "4", {}, {}};
    runs.interrupted_note = "; Ctrl-C stopped it in round 5";
    return runs;
  };
  Told told;
  Keeping keeper;
  const Outcome outcome =
      run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper, recording_steps());
  ASSERT_TRUE(outcome.measured);
  EXPECT_TRUE(outcome.interrupted);
  ASSERT_TRUE(outcome.comparison);
  EXPECT_TRUE(outcome.regressed());
  EXPECT_THAT(outcome.comparison->method_note,
              ::testing::EndsWith("; Ctrl-C stopped it in round 5"));
  EXPECT_TRUE(keeper.recorded.empty());
  EXPECT_EQ(outcome.exit_status(), 130);
}

// A folder standing for the repository, whose bench binaries are files a test writes.
class BinariesFolder {
 public:
  BinariesFolder()
      : root_(::testing::TempDir() + "/benchkit-ab-builds-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(root_);
  }
  ~BinariesFolder() { std::filesystem::remove_all(root_); }
  const std::string& root() const { return root_; }
  // COMMIT's build of the fake workshop's bench binary, holding `content`.
  void write(const std::string& commit, const std::string& content) const {
    const std::string folder = root_ + "/.benchkit/worktrees/" + commit + "/build";
    std::filesystem::create_directories(folder);
    std::ofstream(folder + "/bench") << content;
  }

 private:
  std::string root_;
};

// ab --shard K/N: one benchmark a shard, named after it, its shard recorded as measure_ab does.
model::Result<AbRuns> one_benchmark_a_shard(const AbRequest& request, std::uint64_t& seed) {
  AbRuns runs;
  runs.baseline = made(100.0, ++seed);
  runs.candidate = made(100.0, ++seed);
  for (RunResult* run : {&runs.baseline, &runs.candidate}) {
    run->benchmarks.resize(1);
    run->benchmarks[0].name = "bench_" + std::to_string(request.shard->index);
    run->context.shard = shard_record(*request.shard, 1, request.shard->count);
  }
  runs.rounds = "5";
  return runs;
}

// Each ab shard's comparison names the builds it compared (their executables' SHA-256, as
// `compare OLD NEW` records them), written to and read back from its file; `benchkit merge` then
// joins the shards of one build and refuses those of two builds of one commit (another compiler
// or other flags on one runner), which it could not tell apart by their commits.
TEST(AbPipeline, ShardsNameTheirBuildsAndMergeRefusesTheShardsOfTwoBuilds) {
  const BinariesFolder binaries;
  FakeWorkshop workshop;
  workshop.root = binaries.root();
  workshop.measure = [&workshop](const AbRequest& request) {
    return one_benchmark_a_shard(request, workshop.seed);
  };
  const auto shard = [&workshop](std::size_t index) {
    RevisionsPlan plan = revisions_plan_for("c2", "c3");
    plan.pairs.shard = ShardSpec{index, 2, ShardBy::count};
    Told told;
    Keeping keeper;
    const Outcome outcome = run_ab_plan(plan, workshop, told, keeper);
    EXPECT_TRUE(outcome.comparison.has_value());
    const std::string path = "compare-" + std::to_string(index) + ".json";
    auto read =
        formats::comparison_from_json(formats::comparison_to_json(*outcome.comparison), path);
    EXPECT_TRUE(read.ok()) << read.error().message;
    return ComparisonFile{path, std::move(*read)};
  };
  binaries.write("c2", "the base build");
  binaries.write("c3", "the new build");
  const ComparisonFile first = shard(1);
  EXPECT_EQ(first.comparison.baseline_build.executable_sha256,
            system::sha256_of_text("the base build"));
  EXPECT_EQ(first.comparison.candidate_build.executable_sha256,
            system::sha256_of_text("the new build"));
  EXPECT_EQ(first.comparison.candidate_build.git_commit, "c3");
  const auto joined = merge_shard_comparisons({first, shard(2)});
  ASSERT_TRUE(joined.ok()) << joined.error().message;
  EXPECT_EQ(joined->comparison.benchmarks.size(), 2u);

  binaries.write("c3", "the new build, made with other flags");
  const auto refused = merge_shard_comparisons({first, shard(2)});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, model::ErrorKind::input);
  EXPECT_THAT(refused.error().message,
              ::testing::HasSubstr("compare-1.json and compare-2.json were measured by different "
                                   "new builds (executable SHA-256 "));
}

// Several bench targets: each side is named by one SHA-256 of its binaries' hashes, which
// changes with any one of them.
TEST(AbPipeline, SeveralTargetsAreIdentifiedByOneHashOfTheirHashes) {
  const BinariesFolder binaries;
  binaries.write("a", "target a");
  binaries.write("b", "target b");
  const auto path = [&binaries](const std::string& commit) {
    return binaries.root() + "/.benchkit/worktrees/" + commit + "/build/bench";
  };
  std::vector<BinaryPair> pairs = {{"one", path("a"), path("a")}, {"two", path("b"), path("a")}};
  Context baseline;
  Context candidate;
  identify_builds(pairs, baseline, candidate);
  const std::string a = system::sha256_of_text("target a");
  const std::string b = system::sha256_of_text("target b");
  EXPECT_EQ(baseline.executable_sha256, system::sha256_of_text("one " + a + "\ntwo " + b + "\n"));
  EXPECT_EQ(candidate.executable_sha256, system::sha256_of_text("one " + a + "\ntwo " + a + "\n"));
  EXPECT_TRUE(baseline.executable.empty());

  // One target: its binary, as a bench binary names itself.
  identify_builds({pairs.front()}, baseline, candidate);
  EXPECT_EQ(baseline.executable_sha256, a);
  EXPECT_EQ(baseline.executable, path("a"));

  // A binary that cannot be read: the context stays as it was.
  Context unread;
  unread.executable_sha256 = "kept";
  identify_builds({{"one", path("missing"), path("missing")}}, unread, unread);
  EXPECT_EQ(unread.executable_sha256, "kept");
}

TEST(AbPipeline, TheWorkingTreeIsNewAndBothRunsAreRecordedBaseFirst) {
  FakeWorkshop workshop;
  Told told;
  Keeping keeper;
  const Steps steps = recording_steps();
  const Outcome outcome = run_ab_plan(revisions_plan_for("c1", ""), workshop, told, keeper, steps);
  ASSERT_TRUE(outcome.measured);
  EXPECT_EQ(keeper.recorded, (std::vector<std::string>{"c1", "c99"}));
  EXPECT_TRUE(outcome.recorded_baseline && outcome.recorded);
  EXPECT_TRUE(outcome.run.context.git_dirty);
  EXPECT_EQ(outcome.exit_status(), 0);

  // A history that cannot be written: the baseline's record fails, the run is not recorded.
  Keeping failing;
  failing.fail_record = true;
  const Outcome unrecorded =
      run_ab_plan(revisions_plan_for("c1", ""), workshop, told, failing, steps);
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
    const Outcome outcome = run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper);
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
  run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper);
  EXPECT_EQ(workshop.built, std::vector<std::string>{"c3"});
}

TEST(AbPipeline, AnUnknownRevisionOrNoRepositoryIsAnInputOrUsageError) {
  FakeWorkshop workshop;
  Told told;
  Keeping keeper;
  EXPECT_EQ(run_ab_plan(revisions_plan_for("nope", "c3"), workshop, told, keeper).exit_status(), 2);
  workshop.open_error = "not in a git repository";
  EXPECT_EQ(run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper).exit_status(), 2);
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
      const Outcome outcome = run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper);
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
  const Outcome outcome =
      run_ab_plan(revisions_plan_for("c2", "c3"), workshop, told, keeper, steps);
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
  RevisionsPlan plan = revisions_plan_for("c2", "c3");
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
  RevisionsPlan plan = revisions_plan_for("c2", "c3");
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

  // Interrupted before a comparison could be made, or too few rounds to compare: nothing
  // compared.
  workshop.measure_command_rounds = [](const CommandRequest&, CommandObserver&) {
    CommandOutcome outcome;
    outcome.interrupted = true;
    return outcome;
  };
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 130);
  // Interrupted once rounds could be compared: the comparison of those, exit status 130.
  workshop.measure_command_rounds = [](const CommandRequest& request, CommandObserver&) {
    CommandOutcome outcome;
    outcome.interrupted = true;
    outcome.rounds = 4;
    outcome.against_reference = analysis::Comparison{};
    outcome.run.benchmarks.resize(request.commands.size());
    return outcome;
  };
  const Outcome partial = run_ab_plan(plan, workshop, told, keeper, Steps{});
  ASSERT_TRUE(partial.measured);
  ASSERT_TRUE(partial.comparison);
  EXPECT_THAT(partial.comparison->method_note,
              ::testing::HasSubstr("interleaved in 4 rounds (BASE NEW, NEW BASE, ...), compared on "
                                   "the paired rounds; Ctrl-C stopped them"));
  EXPECT_EQ(partial.exit_status(), 130);
  workshop.measure_command_rounds = [](const CommandRequest&, CommandObserver&) {
    return CommandOutcome{};
  };
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 1);
  plan.command = "'unclosed";
  EXPECT_EQ(run_ab_plan(plan, workshop, told, keeper, Steps{}).exit_status(), 2);
}

}  // namespace
}  // namespace benchkit::session
