// `benchkit run` end to end: the real command on the real helper program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/run_command.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

const std::string tool = std::string(BENCHKIT_BINARY_DIR) + "/benchkit";
const std::string helper = std::string(BENCHKIT_BINARY_DIR) + "/tests/process_helper";

class RunCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    // A parameterised test's name ends in "/N": one folder, not a folder inside another that
    // TearDown would leave behind.
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '-');
    folder_ = std::filesystem::path(::testing::TempDir()) /
              ("benchkit-run-cli-" + std::to_string(getpid()) + "-" + name);
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  testing::CommandResult benchkit(const std::string& arguments) const {
    return run_command("cd " + folder_.string() + " && BENCHKIT_DIR=" + path(".benchkit") + " " +
                       tool + " " + arguments);
  }
  nlohmann::json json(const std::string& name) const {
    std::ifstream in(path(name));
    return nlohmann::json::parse(in);
  }

 private:
  std::filesystem::path folder_;
};

TEST_F(RunCommand, TwoCommandsAreInterleavedComparedAndExported) {
  const auto r = benchkit("run --runs 6 --cmd '" + helper + " sleep 10' --name short --cmd '" +
                          helper + " sleep 40' --name long --export-json out.json " +
                          "--export-markdown out.md --export-csv out.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("short"));
  EXPECT_THAT(r.out, HasSubstr("peak RSS"));
  EXPECT_THAT(r.out, HasSubstr("against short (paired rounds)"));
  EXPECT_THAT(r.out, HasSubstr("regressed"));  // 40 ms against 10 ms
  const auto doc = json("out.json");
  ASSERT_EQ(doc["benchmarks"].size(), 2u);
  const auto& long_one = doc["benchmarks"][1];
  EXPECT_EQ(long_one["name"], "long");
  EXPECT_EQ(long_one["kind"], "command");
  EXPECT_THAT(long_one["command"].get<std::string>(), HasSubstr("sleep 40"));
  ASSERT_EQ(long_one["samples"].size(), 6u);
  EXPECT_EQ(long_one["samples"][5]["round"], 5);
  EXPECT_GE(long_one["samples"][0]["ns"].get<double>(), 40e6);
  EXPECT_GT(long_one["samples"][0]["resources"]["peak_rss_bytes"].get<double>(), 0);
  EXPECT_EQ(long_one["samples"][0]["resources"]["exit_code"], 0);
  EXPECT_EQ(long_one["warm_up"]["iters"], 1);
  EXPECT_THAT(long_one["memory"]["peak_rss_method"].get<std::string>(),
              HasSubstr("benchkit-spawner"));
  EXPECT_TRUE(std::filesystem::exists(path("out.md")));
  EXPECT_TRUE(std::filesystem::exists(path("out.csv")));
  // The export is a result file like any other: compare reads it.
  const auto compared = benchkit("compare out.json out.json");
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  const auto reported = benchkit("report out.json");
  EXPECT_EQ(reported.exit_code, 0) << reported.err;
  EXPECT_THAT(reported.out, HasSubstr("user / sys"));  // the whole-process table
}

TEST_F(RunCommand, ParameterListsMakeOneBenchmarkPerValue) {
  const auto r =
      benchkit("run --runs 3 --warmup 0 --parameter-list ms 1,5 --export-json p.json -- " + helper +
               " sleep '{ms}'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json("p.json");
  ASSERT_EQ(doc["benchmarks"].size(), 2u);
  EXPECT_EQ(doc["benchmarks"][0]["params"]["ms"], "1");
  EXPECT_THAT(doc["benchmarks"][1]["name"].get<std::string>(), HasSubstr("sleep 5"));
  EXPECT_EQ(doc["benchmarks"][0]["warm_up"]["iters"], 0);
}

TEST_F(RunCommand, AnOptionTakesOneValueSoTheCommandCanFollowIt) {
  // Without a "--": the --name takes its one word and the rest is the command.
  const auto r =
      benchkit("run --runs 2 --warmup 0 --name nap --export-json n.json " + helper + " sleep 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json("n.json");
  EXPECT_EQ(doc["benchmarks"][0]["name"], "nap");
  EXPECT_THAT(doc["benchmarks"][0]["command"].get<std::string>(), HasSubstr("sleep 1"));
}

TEST_F(RunCommand, AFailingCommandStopsWithItsStatusAndStderrAndTheOthersFinish) {
  const auto r = benchkit("run --runs 4 --cmd '" + helper + " sleep 1' --cmd '" + helper +
                          " exit 3' --export-json f.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("exited with status 3"));
  EXPECT_THAT(r.err, HasSubstr("diagnostic line 15"));
  EXPECT_THAT(r.err, HasSubstr("--ignore-failure"));
  const auto doc = json("f.json");
  EXPECT_EQ(doc["benchmarks"][0]["samples"].size(), 4u);
  EXPECT_THAT(doc["benchmarks"][1]["failures"][0].get<std::string>(), HasSubstr("status 3"));
  EXPECT_THAT(r.out, HasSubstr("invalid"));  // not compared
}

TEST_F(RunCommand, IgnoredExitCodesAreRuns) {
  const auto r = benchkit("run --runs 3 --ignore-failure=3 -- " + helper + " exit 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto other = benchkit("run --runs 3 --ignore-failure=4 -- " + helper + " exit 3");
  EXPECT_EQ(other.exit_code, 1);
}

TEST_F(RunCommand, ATimeoutIsReportedAndTheRunEnds) {
  const auto r = benchkit("run --runs 2 --warmup 0 --timeout 0.2 -- " + helper + " hang");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("timed out after 0.2 s"));
}

TEST_F(RunCommand, HooksRunAroundEveryRun) {
  const auto r =
      benchkit("run --runs 4 --warmup 2 --prepare '" + helper + " append " + path("prepared") +
               "' --setup '" + helper + " append " + path("setup") + "' --cleanup '" + helper +
               " append " + path("cleanup") + "' -- " + helper + " sleep 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = [&](const std::string& name) {
    std::ifstream in(path(name));
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  };
  EXPECT_EQ(lines("prepared"), 6u);  // 2 warm-up + 4 measured
  EXPECT_EQ(lines("setup"), 1u);
  EXPECT_EQ(lines("cleanup"), 1u);
  const auto failing = benchkit("run --runs 2 --prepare false -- " + helper + " sleep 1");
  EXPECT_EQ(failing.exit_code, 1);
  EXPECT_THAT(failing.err, HasSubstr("the --prepare hook \"false\" exited with status 1"));
}

TEST_F(RunCommand, AShellsStartUpIsMeasuredAndSubtracted) {
  const auto r =
      benchkit("run --runs 5 --shell --export-json s.json --cmd '" + helper + " sleep 2 && true'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("shell start-up"));
  const auto doc = json("s.json");
  ASSERT_EQ(doc["benchmarks"].size(), 1u);  // the shell's own runs are not a benchmark
  const auto& b = doc["benchmarks"][0];
  const double shell = b["counters"]["shell_startup_ns"].get<double>();
  EXPECT_GT(shell, 0);
  EXPECT_EQ(b["overhead"]["ns_per_sample"].get<double>(), shell);
  EXPECT_LE(b["counters"]["shell_startup_lower_ns"].get<double>(), shell);
}

TEST_F(RunCommand, ABaselineOfCommandsIsSavedAndChecked) {
  const std::string cmd = "run --runs 5 --cmd '" + helper + " sleep 2' --name nap ";
  const auto saved = benchkit(cmd + "--save-baseline naps");
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  EXPECT_TRUE(std::filesystem::exists(path(".benchkit/baselines/naps.json")));
  const auto checked = benchkit(cmd + "--baseline naps --noise-threshold 0.5");
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_THAT(checked.out, HasSubstr("against baseline naps"));
  const auto missing = benchkit(cmd + "--baseline nope");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("--save-baseline"));
}

TEST_F(RunCommand, ABenchBinaryRunsInFreshWorkerProcessesAndIsMerged) {
  const std::string bench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
  const auto r = benchkit("run " + bench +
                          " --processes 2 -- --time-budget 20ms --warm-up 1ms --sample-size 4 "
                          "--filter add/amount=1 --out merged.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json("merged.json");
  ASSERT_EQ(doc["benchmarks"].size(), 1u);
  std::set<int> processes;
  for (const auto& sample : doc["benchmarks"][0]["samples"]) {
    processes.insert(sample.value("process", 0));
  }
  EXPECT_EQ(processes, (std::set<int>{0, 1}));
  // The binary's own flags go after --; before it they are refused.
  const auto stray = benchkit("run " + bench + " --filter x");
  EXPECT_EQ(stray.exit_code, 2);
}

// --export-json was once dropped without a word for a bench binary (only Google Benchmark
// binaries and commands wrote it): it is now the binary's --out, and the exports a bench binary
// cannot write are refused with the way to get them.
TEST_F(RunCommand, ABenchBinaryWritesExportJsonAndRefusesTheOtherExports) {
  const std::string bench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
  const std::string flags =
      " -- --time-budget 20ms --warm-up 1ms --sample-size 4 --filter add/amount=1";
  const auto r = benchkit("run " + bench + " --processes 2 --export-json exported.json" + flags);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json("exported.json");
  ASSERT_EQ(doc["benchmarks"].size(), 1u);
  EXPECT_EQ(doc["benchmarks"][0]["name"], "add/amount=1");
  std::set<int> processes;
  for (const auto& sample : doc["benchmarks"][0]["samples"]) {
    processes.insert(sample.value("process", 0));
  }
  EXPECT_EQ(processes, (std::set<int>{0, 1}));

  const auto markdown = benchkit("run " + bench + " --export-markdown t.md" + flags);
  EXPECT_EQ(markdown.exit_code, 2);
  EXPECT_THAT(markdown.err, HasSubstr("benchkit report run.json --format markdown --out t.md"));
  EXPECT_FALSE(std::filesystem::exists(path("t.md")));
  const auto twice = benchkit("run " + bench + " --export-json a.json" + flags + " --out b.json");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_THAT(twice.err, HasSubstr("give one of them"));
}

struct UsageCase {
  const char* arguments;
  const char* message;
};

class RunUsage : public RunCommand, public ::testing::WithParamInterface<UsageCase> {};

TEST_P(RunUsage, IsRefusedWithAMessageAndStatusTwo) {
  const auto r = benchkit(GetParam().arguments);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RunUsage,
    ::testing::Values(
        UsageCase{"run", "no command to run"},
        UsageCase{"run ./no_such_suite -- --benchmark_filter=x", "./no_such_suite: no such file"},
        UsageCase{"run --format json --out r.json -- true",
                  "benchkit run writes its results with --export-json FILE"},
        UsageCase{"run ./gb --benchmark_filter=x",
                  "A Google Benchmark binary's own flags go after --"},
        UsageCase{"run --cmd 'sort < x'", "--shell"},
        UsageCase{"run --pin 0-x -- true", "is not a CPU number"},
        UsageCase{"run --time-budget soon -- true", "is not a positive duration"},
        UsageCase{"run --reference nope --runs 2 --cmd true --cmd 'true '",
                  "two benchmarks would be named"},
        UsageCase{"run --runs 2 --cmd true --name a --cmd false --name b "
                  "--ignore-failure --reference c",
                  "is not one of the benchmarks"},
        UsageCase{"run --input /nonexistent -- true", "cannot be read"},
        UsageCase{"run --env NOEQUALS -- true", "is not KEY=VALUE"},
        UsageCase{"run --parameter-list n 1,2 -- true", "uses none of the parameters"},
        // One word where two are wanted read past the end (a crash, found by
        // bench/load/load.py).
        UsageCase{"run --parameter-list n=1,2 --cmd 'true {n}'",
                  "--parameter-list takes two words"},
        UsageCase{"run --parameter-scan n=1 --cmd 'true {n}'",
                  "--parameter-scan takes three words"},
        UsageCase{"run --ignore-failure=x -- true", "exit codes"},
        UsageCase{"run --fail-on-regression -- true", "needs something to compare"},
        UsageCase{"run --processes 3 -- true", "bench binaries"}));

}  // namespace
}  // namespace benchkit
