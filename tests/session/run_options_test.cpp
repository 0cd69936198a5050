#include "session/run_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "support/test_programs.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Two commands given with --cmd, as the command line fills the options.
RunOptions two_commands() {
  RunOptions o;
  o.commands = {"sleep 0", "sleep 0.001"};
  o.flag_order = {"--cmd", "--cmd"};
  return o;
}

TEST(ParseCpus, ReadsNumbersAndRanges) {
  const auto cpus = parse_cpus("0,2-4,7");
  ASSERT_TRUE(cpus) << cpus.error().message;
  EXPECT_THAT(*cpus, ElementsAre(0, 2, 3, 4, 7));
}

TEST(ParseCpus, RefusesWhatIsNotACpuAndNamesTheItem) {
  for (const std::string text : {"a", "1,,2", "3-1", "-1", "1-2-3", "2x"}) {
    const auto cpus = parse_cpus(text);
    ASSERT_FALSE(cpus) << text;
    EXPECT_EQ(cpus.error().kind, model::ErrorKind::usage);
    EXPECT_THAT(cpus.error().message, HasSubstr("--pin \"" + text + "\""));
  }
}

TEST(IgnoredExitCodes, ReadsCodesAndRefusesOthers) {
  const auto codes = ignored_exit_codes("1,2,255");
  ASSERT_TRUE(codes);
  EXPECT_THAT(*codes, ElementsAre(1, 2, 255));
  for (const std::string text : {"256", "x", "-1", "1,a"}) {
    const auto refused = ignored_exit_codes(text);
    ASSERT_FALSE(refused) << text;
    EXPECT_THAT(refused.error().message, HasSubstr("--ignore-failure=" + text));
  }
}

TEST(Parameters, ScansThenLists) {
  RunOptions o;
  o.scans = {{"n", "1", "3"}};
  o.lists = {{"mode", "a,b"}};
  const auto p = parameters(o);
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[0].name, "n");
  EXPECT_THAT((*p)[0].values, ElementsAre("1", "2", "3"));
  EXPECT_EQ((*p)[1].name, "mode");
  EXPECT_THAT((*p)[1].values, ElementsAre("a", "b"));
}

TEST(Parameters, RefusesWrongWordCountsAndNonNumbers) {
  RunOptions scan;
  scan.scans = {{"n=1"}};
  EXPECT_THAT(parameters(scan).error().message, HasSubstr("three words"));
  scan.scans = {{"n", "one", "3"}};
  EXPECT_THAT(parameters(scan).error().message, HasSubstr("MIN and MAX must be numbers"));
  RunOptions list;
  list.lists = {{"n=1,2"}};
  EXPECT_THAT(parameters(list).error().message, HasSubstr("two words"));
}

TEST(CommandSpecs, NamesAndEnvironmentGoToTheCommandBeforeThem) {
  RunOptions o = two_commands();
  o.names = {"first", "second"};
  o.env = {"ALL=1", "ONE=1", "TWO=2"};
  o.flag_order = {"--env", "--cmd", "--name", "--env", "--cmd", "--env", "--name"};
  const auto specs = command_specs(o);
  ASSERT_TRUE(specs) << specs.error().message;
  ASSERT_EQ(specs->size(), 2u);
  EXPECT_EQ((*specs)[0].name, "first");
  EXPECT_THAT((*specs)[0].argv, ElementsAre("sleep", "0"));
  EXPECT_THAT((*specs)[0].env, ElementsAre("ALL=1", "ONE=1"));
  EXPECT_EQ((*specs)[1].name, "second");
  EXPECT_THAT((*specs)[1].env, ElementsAre("ALL=1", "TWO=2"));
}

TEST(CommandSpecs, TheCommandAfterDoubleDashComesFirst) {
  RunOptions o = two_commands();
  o.trailing = {"echo", "a b"};
  const auto specs = command_specs(o);
  ASSERT_TRUE(specs);
  ASSERT_EQ(specs->size(), 3u);
  EXPECT_THAT((*specs)[0].argv, ElementsAre("echo", "a b"));
}

TEST(CommandSpecs, ThroughTheShellTheTextIsKept) {
  RunOptions o;
  o.shell = "/bin/sh";
  o.trailing = {"echo", "hi"};
  const auto specs = command_specs(o);
  ASSERT_TRUE(specs);
  EXPECT_EQ((*specs)[0].shell_command, "echo hi");
  EXPECT_TRUE((*specs)[0].argv.empty());
}

TEST(CommandSpecs, RefusesWhatCannotBeLaidOut) {
  RunOptions none;
  EXPECT_THAT(command_specs(none).error().message, HasSubstr("no command to run"));
  RunOptions both;
  both.positional = {"/bin/true"};  // a program, but no bench binary
  both.trailing = {"echo"};
  EXPECT_THAT(command_specs(both).error().message, HasSubstr("nothing may come before --"));
  both.positional = {"./no_such_prog"};
  EXPECT_THAT(command_specs(both).error().message, HasSubstr("./no_such_prog: no such file"));
  RunOptions names = two_commands();
  names.names = {"a", "b", "c"};
  names.flag_order = {"--cmd", "--name", "--cmd", "--name", "--name"};
  EXPECT_THAT(command_specs(names).error().message, HasSubstr("two --name values for command 2"));
  RunOptions env = two_commands();
  env.env = {"NOEQUALS"};
  env.flag_order = {"--cmd", "--env", "--cmd"};
  EXPECT_THAT(command_specs(env).error().message, HasSubstr("is not KEY=VALUE"));
  RunOptions quote;
  quote.commands = {"echo 'open"};
  quote.flag_order = {"--cmd"};
  EXPECT_THAT(command_specs(quote).error().message, HasSubstr("--cmd "));
}

TEST(RoundSettings, TakesRunsBudgetOrderAndFailures) {
  RunOptions o;
  o.runs = 4;
  o.time_budget = "500ms";
  o.order = "random";
  o.seed = 7;
  o.ignore_failure = "3,4";
  o.pin = "1";
  const auto settings = round_settings(o);
  ASSERT_TRUE(settings) << settings.error().message;
  EXPECT_EQ(settings->min_runs, 4u);
  EXPECT_DOUBLE_EQ(settings->budget_ns, 5e8);
  EXPECT_EQ(settings->order, process::Order::random);
  EXPECT_EQ(settings->seed, 7u);
  EXPECT_THAT(settings->ignored_exit_codes, ElementsAre(3, 4));
  EXPECT_FALSE(settings->ignore_all_failures);
  EXPECT_THAT(settings->run_template.cpus, ElementsAre(1));
  o.ignore_failure = "all";
  EXPECT_TRUE(round_settings(o)->ignore_all_failures);
}

TEST(RoundSettings, RefusesBadValues) {
  RunOptions runs;
  runs.min_runs = 10;
  runs.max_runs = 5;
  EXPECT_THAT(round_settings(runs).error().message, HasSubstr("--max-runs 5 is below"));
  RunOptions budget;
  budget.time_budget = "soon";
  EXPECT_THAT(round_settings(budget).error().message, HasSubstr("--time-budget \"soon\""));
  RunOptions input;
  input.input = "/nonexistent/benchkit-input";
  EXPECT_THAT(round_settings(input).error().message, HasSubstr("--input"));
  RunOptions output;
  output.output = "/nonexistent/folder/out.txt";
  EXPECT_THAT(round_settings(output).error().message, HasSubstr("--output"));
}

TEST(PlanFor, CommandsArePlannedInRoundsWithTheirSteps) {
  RunOptions o = two_commands();
  o.fail_on_regression = true;
  o.command_line = "benchkit run --cmd ...";
  o.export_csv = "out.csv";
  const auto target = plan_for(o);
  ASSERT_TRUE(target) << target.error().message;
  const auto& plan = std::get<Plan>(*target);
  const auto* commands = std::get_if<CommandsPlan>(&plan.what);
  ASSERT_NE(commands, nullptr);
  EXPECT_EQ(commands->planned.measured(), 2u);
  EXPECT_TRUE(commands->request.checkpoints);
  EXPECT_EQ(commands->command_line, "benchkit run --cmd ...");
  EXPECT_TRUE(plan.then.fail_on_regression);
}

// --timeout with a Google Benchmark binary: how long each of its benchmarks may take in a process.
TEST(PlanFor, AGoogleBenchmarkBinaryTakesTheTimeoutPerBenchmark) {
  RunOptions o;
  o.positional = {std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite"};
  const auto plain = plan_for(o);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_FALSE(std::get<GbenchRunPlan>(std::get<Plan>(*plain).what).timeout);
  o.timeout = 2.5;
  const auto target = plan_for(o);
  ASSERT_TRUE(target) << target.error().message;
  EXPECT_EQ(std::get<GbenchRunPlan>(std::get<Plan>(*target).what).timeout,
            std::chrono::milliseconds(2500));
}

TEST(PlanFor, FailOnRegressionNeedsSomethingToCompare) {
  RunOptions o;
  o.trailing = {"true"};
  o.fail_on_regression = true;
  const auto target = plan_for(o);
  ASSERT_FALSE(target);
  EXPECT_THAT(target.error().message, HasSubstr("--fail-on-regression needs something"));
}

TEST(PlanFor, CountedCommandTakesOneCommandAndThreeRuns) {
  RunOptions o;
  o.mode = Mode::instructions;
  o.trailing = {"true"};
  o.names = {"t"};
  const auto target = plan_for(o);
  ASSERT_TRUE(target) << target.error().message;
  const auto& counted = std::get<CountedCommandPlan>(std::get<Plan>(*target).what);
  EXPECT_THAT(counted.request.argv, ElementsAre("true"));
  EXPECT_EQ(counted.request.name, "t");
  EXPECT_EQ(counted.request.runs, 3u);
  RunOptions two = two_commands();
  two.mode = Mode::instructions;
  EXPECT_THAT(plan_for(two).error().message, HasSubstr("counts one command given after --"));
}

TEST(PlanFor, RefusesWhatDoesNotApplyToCommands) {
  RunOptions counters = two_commands();
  counters.mode = Mode::counters;
  EXPECT_THAT(plan_for(counters).error().message, HasSubstr("--mode counters"));
  RunOptions processes = two_commands();
  processes.processes = 3;
  EXPECT_THAT(plan_for(processes).error().message, HasSubstr("--processes applies to"));
  RunOptions store = two_commands();
  store.store = "history.db";
  EXPECT_THAT(plan_for(store).error().message, HasSubstr("add --record"));
  RunOptions save = two_commands();
  save.save_baseline = "../escape";
  EXPECT_THAT(plan_for(save).error().message, HasSubstr("--save-baseline"));
  RunOptions baseline = two_commands();
  baseline.baseline = "no-such-baseline-anywhere";
  const auto missing = plan_for(baseline);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, model::ErrorKind::usage);
  // The rounds of a side-by-side comparison: nothing runs side by side here.
  for (const auto& [set, flag] :
       std::vector<std::pair<std::function<void(RunOptions&)>, std::string>>{
           {[](RunOptions& o) { o.rounds = 6; }, "--rounds"},
           {[](RunOptions& o) { o.max_rounds = 40; }, "--max-rounds"},
           {[](RunOptions& o) { o.budget = "30s"; }, "--budget"}}) {
    RunOptions side = two_commands();
    set(side);
    const auto refused = plan_for(side);
    ASSERT_FALSE(refused) << flag;
    EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
    EXPECT_THAT(refused.error().message,
                HasSubstr(flag + " sets the rounds of a side-by-side comparison with a baseline"));
    EXPECT_THAT(refused.error().message, HasSubstr("no --baseline"));
  }
  // --together too: commands run whole, not beside a kept Google Benchmark binary.
  RunOptions together = two_commands();
  together.together = true;
  const auto refused = plan_for(together);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(refused.error().message, HasSubstr("here commands run: leave --together out"));
}

// A bench binary is handed the rounds of its side-by-side comparison with its baseline.
TEST(PlanFor, ABenchBinaryIsHandedTheRoundsOfItsComparison) {
  RunOptions o;
  o.positional = {benchkit::testing::kSampleBench};
  o.baseline = "main";
  o.rounds = 6;
  o.max_rounds = 40;
  o.budget = "30s";
  const auto target = plan_for(o);
  ASSERT_TRUE(target) << target.error().message;
  const auto* command = std::get_if<BenchBinaryCommand>(&*target);
  ASSERT_NE(command, nullptr);
  const std::string argv = fmt::format("{}", fmt::join(command->argv, " "));
  EXPECT_THAT(argv, HasSubstr("--baseline main --rounds 6 --max-rounds 40 --budget 30s"));
}

// A bench binary's own run: its exit status is the command's; a signal or a program that cannot
// start is an error naming it.
TEST(RunBenchBinary, GivesTheExitStatusOrAnErrorNamingTheProgram) {
  const auto ok = run_bench_binary({{"/bin/sh", "-c", "exit 0"}});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, 0);
  const auto three = run_bench_binary({{"/bin/sh", "-c", "exit 3"}});
  ASSERT_TRUE(three) << three.error().message;
  EXPECT_EQ(*three, 3);
  const auto killed = run_bench_binary({{"/bin/sh", "-c", "kill -9 $$"}});
  ASSERT_FALSE(killed);
  EXPECT_EQ(killed.error().kind, model::ErrorKind::failed);
  EXPECT_THAT(killed.error().message, HasSubstr("/bin/sh"));
  EXPECT_THAT(killed.error().message, HasSubstr("signal 9"));
  const auto missing = run_bench_binary({{"/nonexistent/bench"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, model::ErrorKind::input);
  EXPECT_THAT(missing.error().message, HasSubstr("/nonexistent/bench"));
}

}  // namespace
}  // namespace benchkit::session
