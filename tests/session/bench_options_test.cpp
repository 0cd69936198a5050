#include "session/bench_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "session/side_by_side.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> texts(const std::vector<ParamValue>& values) {
  std::vector<std::string> out;
  for (const ParamValue& value : values) out.push_back(value.to_string());
  return out;
}

TEST(BenchOptions, ParamOverridesReadNumbersAndText) {
  const auto overrides = parse_param_overrides({"size=64,4096", "kind=text", "ratio=0.5,", "n=1"});
  ASSERT_EQ(overrides.size(), 4u);
  EXPECT_THAT(texts(overrides.at("size")), ElementsAre("64", "4096"));
  EXPECT_EQ(overrides.at("size")[1].as_int(), 4096);
  EXPECT_THAT(texts(overrides.at("kind")), ElementsAre("text"));
  EXPECT_EQ(overrides.at("kind")[0].as_string(), "text");
  EXPECT_THAT(texts(overrides.at("ratio")), ElementsAre("0.5"));
  EXPECT_DOUBLE_EQ(overrides.at("ratio")[0].as_double(), 0.5);
}

TEST(BenchOptions, ALaterParamReplacesAnEarlierOne) {
  const auto overrides = parse_param_overrides({"n=1,2", "n=3"});
  EXPECT_THAT(texts(overrides.at("n")), ElementsAre("3"));
}

TEST(BenchOptions, RunSettingsTakeTheDurationsAndRefuseBadOnes) {
  BenchOptions o;
  o.time_budget = "2s";
  o.warm_up = "10ms";
  o.sample_size = 40;
  o.tags = {"compiler=clang"};
  const auto settings = run_settings(o);
  ASSERT_TRUE(settings) << settings.error().message;
  EXPECT_EQ(settings->engine.time_budget_ns, 2'000'000'000);
  EXPECT_EQ(settings->engine.warm_up_ns, 10'000'000);
  EXPECT_FALSE(settings->engine.warm_up_until_steady);  // a chosen warm-up runs whole
  EXPECT_EQ(settings->engine.min_samples, 40u);
  EXPECT_EQ(settings->engine.fewest_samples, 40u);  // a chosen size is kept whole
  EXPECT_EQ(settings->timeout_ns, 300'000'000'000);
  EXPECT_EQ(settings->tags.at("compiler"), "clang");
  EXPECT_EQ(o.worker_timeout_ns, 120'000'000'000);
  for (auto field : {&BenchOptions::time_budget, &BenchOptions::warm_up, &BenchOptions::timeout,
                     &BenchOptions::worker_timeout}) {
    BenchOptions bad;
    bad.*field = "soon";
    const auto refused = run_settings(bad);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
    EXPECT_THAT(refused.error().message, HasSubstr("\"soon\" is not a positive duration"));
  }
}

TEST(BenchOptions, ACountedRunWarnsOfNoMachineAndOpensNoCounters) {
  process::WorkerInvocation counted;
  counted.mode = Mode::instructions;
  counted.sample_size = 2;
  const RunSettings settings = run_settings(counted);
  EXPECT_FALSE(settings.machine_warnings);
  EXPECT_FALSE(settings.counters);
  EXPECT_EQ(settings.engine.counted_samples, 2u);
}

TEST(BenchOptions, WorkersChooseAsTheUserChose) {
  BenchOptions o;
  o.filter = "sort";
  o.exact = true;
  o.params = {"n=1"};
  o.skip_tags = {"ci"};
  o.repetitions = 3;
  o.tags = {"a=b"};
  const auto selection = selection_of(o);
  EXPECT_EQ(selection.filter, "sort");
  EXPECT_TRUE(selection.exact);
  EXPECT_THAT(selection.params, ElementsAre("n=1"));
  EXPECT_THAT(selection.skip_tags, ElementsAre("ci"));
  RunSettings settings;
  settings.seed = 9;
  const auto shared = shared_worker_invocation(o, settings);
  EXPECT_EQ(shared.filter, "sort");
  EXPECT_THAT(shared.skip_tags, ElementsAre("ci"));
  EXPECT_EQ(shared.seed, 9u);
  EXPECT_EQ(shared.repetitions, 3u);
  EXPECT_THAT(shared.tags, ElementsAre("a=b"));
}

TEST(BenchOptions, ProcessesDefaultToThreeForAVerdictRun) {
  BenchOptions plain;
  default_processes(plain);
  EXPECT_EQ(plain.processes, 1u);
  BenchOptions verdict;
  verdict.baseline = "main";
  default_processes(verdict);
  EXPECT_EQ(verdict.processes, 3u);
  BenchOptions counted = verdict;
  counted.processes = 0;
  counted.mode = Mode::instructions;
  default_processes(counted);
  EXPECT_EQ(counted.processes, 1u);
  BenchOptions given;
  given.processes = 7;
  default_processes(given);
  EXPECT_EQ(given.processes, 7u);
}

TEST(BenchOptions, MaxRoundsDefaultToNineTimesTheRounds) {
  BenchOptions o;
  o.rounds = 12;
  EXPECT_EQ(max_rounds_of(o), 108u);
  o.max_rounds = 20;
  EXPECT_EQ(max_rounds_of(o), 20u);
}

TEST(BenchOptions, FlagsThatNeedABaselineAreRefusedAlone) {
  BenchOptions rounds;
  rounds.given = {"--rounds"};
  EXPECT_THAT(check_before_running(rounds)->message, HasSubstr("--rounds applies to comparisons"));
  BenchOptions fail;
  fail.fail_on_regression = true;
  EXPECT_THAT(check_before_running(fail)->message, HasSubstr("--fail-on-regression needs"));
  BenchOptions max;
  max.rounds = 10;
  max.max_rounds = 5;
  EXPECT_THAT(check_before_running(max)->message, HasSubstr("--max-rounds 5 is below"));
  BenchOptions store;
  store.store = "h.db";
  EXPECT_THAT(check_before_running(store)->message, HasSubstr("add --record"));
  BenchOptions save;
  save.save_baseline = "../out";
  EXPECT_THAT(check_before_running(save)->message, HasSubstr("--save-baseline"));
  BenchOptions out;
  out.out = "/proc/benchkit-no/results.json";
  EXPECT_THAT(check_before_running(out)->message, HasSubstr("cannot write --out"));
  const BenchOptions plain;
  EXPECT_FALSE(check_before_running(plain));
}

TEST(BenchOptions, ACountedWorkerStartedByHandIsRefused) {
  process::WorkerInvocation counted;
  counted.mode = Mode::instructions;
  counted.stream_fd = 3;
  const auto refused = check_worker_mode(counted);
  ASSERT_TRUE(refused);
  EXPECT_THAT(refused->message, HasSubstr("valgrind --tool=callgrind"));
}

TEST(BenchOptions, ProfileTimeRunsOneBenchmarkForAPositiveDuration) {
  std::vector<measure::Instance> none;
  EXPECT_THAT(check_profiled(std::nullopt, "soon", none)->message,
              HasSubstr("--profile-time \"soon\""));
  EXPECT_THAT(check_profiled(0, "0s", none)->message, HasSubstr("not a positive duration"));
  std::vector<measure::Instance> two(2);
  two[0].name = "a";
  two[1].name = "b";
  EXPECT_THAT(check_profiled(1000, "1us", two)->message, HasSubstr("2 match (a, b)"));
  EXPECT_FALSE(check_profiled(1000, "1us", {two[0]}));
}

TEST(BenchOptions, ThePlanCarriesTheChoiceAndTheSteps) {
  BenchOptions o;
  o.processes = 2;
  o.rounds = 4;
  o.command_line = "bench --processes 2";
  o.comparison.noise_threshold = 0.05;
  Chosen chosen;
  chosen.chosen.resize(1);
  chosen.scenarios_left_out = 1;
  const auto plan = plan_for(o, RunSettings{}, std::move(chosen));
  ASSERT_TRUE(plan) << plan.error().message;
  const auto& bench = std::get<BenchPlan>(plan->what);
  EXPECT_EQ(bench.processes, 2u);
  EXPECT_EQ(bench.max_rounds, 36u);
  EXPECT_EQ(bench.chosen.size(), 1u);
  EXPECT_EQ(bench.scenarios_left_out, 1u);
  EXPECT_EQ(bench.settings.command_line, "bench --processes 2");
  EXPECT_FALSE(bench.baseline);
  EXPECT_DOUBLE_EQ(plan->then.compare.noise_threshold, 0.05);
  EXPECT_TRUE(plan->then.keep_executable.empty());
  // No baseline to run beside: nothing is looked at, and no sequential levels are set.
  EXPECT_TRUE(plan->then.compare.sequential_alpha.empty());
}

TEST(BenchOptions, AShardedPlanRecordsItsShardAndTellsItsWorkersThePositions) {
  Chosen chosen;
  chosen.chosen.resize(2);
  chosen.shard = Shard{2, 3, "count", 2, 7};
  chosen.shard_positions = std::vector<std::size_t>{1, 4};
  BenchOptions o;
  o.command_line = "bench --shard 2/3";
  const auto plan = plan_for(o, RunSettings{}, std::move(chosen));
  ASSERT_TRUE(plan) << plan.error().message;
  const auto& bench = std::get<BenchPlan>(plan->what);
  ASSERT_TRUE(bench.shard);
  EXPECT_EQ(bench.shard->index, 2u);
  ASSERT_TRUE(bench.worker.shard_positions);
  EXPECT_THAT(*bench.worker.shard_positions, ElementsAre(1u, 4u));
}

TEST(BenchOptions, ABadShardIsRefusedBeforeAnythingIsChosen) {
  BenchOptions o;
  o.shard = "5/4";
  auto chosen = choose_for_run(o);
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(chosen.error().message, HasSubstr("--shard 5/4"));
  BenchOptions by_alone;
  by_alone.given = {"--shard-by"};
  by_alone.shard_by = "history";
  chosen = choose_for_run(by_alone);
  ASSERT_FALSE(chosen);
  EXPECT_THAT(chosen.error().message, HasSubstr("add --shard K/N"));
}

TEST(BenchOptions, AMissingBaselineFileStopsThePlan) {
  BenchOptions o;
  o.baseline_file = "/nonexistent/base.json";
  EXPECT_FALSE(plan_for(o, RunSettings{}, Chosen{}));
}

TEST(BenchOptions, ATurnsWorkerMeasuresInThisProcessThroughTheGate) {
  process::WorkerInvocation invocation;
  invocation.test = true;
  TurnGate gate(-1);
  const Plan plan = turns_plan(invocation, RunSettings{}, Chosen{}, gate);
  const auto& bench = std::get<BenchPlan>(plan.what);
  EXPECT_TRUE(bench.in_process);
  EXPECT_TRUE(bench.test);
  EXPECT_TRUE(bench.settings.measuring_only);
  EXPECT_EQ(bench.settings.gate, &gate);
}

TEST(BenchOptions, ATurnsWorkerWarmsUpUntilSteadyUnlessTheUserChoseAWarmUp) {
  TurnGate gate(-1);
  process::WorkerInvocation invocation;
  const Plan steady = turns_plan(invocation, RunSettings{}, Chosen{}, gate);
  EXPECT_TRUE(std::get<BenchPlan>(steady.what).settings.engine.warm_up_until_steady);
  invocation.warm_up_ns = 20'000'000;
  const Plan chosen = turns_plan(invocation, RunSettings{}, Chosen{}, gate);
  EXPECT_FALSE(std::get<BenchPlan>(chosen.what).settings.engine.warm_up_until_steady);
  // Only a --warm-up the user gave reaches the workers.
  BenchOptions o;
  EXPECT_FALSE(shared_worker_invocation(o, RunSettings{}).warm_up_ns.has_value());
  o.warm_up = "10ms";
  RunSettings settings;
  settings.engine.warm_up_ns = 10'000'000;
  EXPECT_EQ(shared_worker_invocation(o, settings).warm_up_ns, 10'000'000);
}

}  // namespace
}  // namespace benchkit::session
