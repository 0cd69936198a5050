// `benchkit history` and --record as a user runs them: real processes, a real SQLite file, and
// bad input (a damaged file, a PostgreSQL URL whose server refuses, a password never printed).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "store/history_backends.hpp"
#include "support/history_runs.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_command;

using benchkit::testing::kSampleBench;
using benchkit::testing::kTool;

class HistoryCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-history-cli-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    store_ = folder_ + "/history.db";
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Writes made_run(made) as a result file and returns its path.
  std::string result_file(const testing::MadeRun& made) {
    const std::string path = folder_ + "/" + made.commit + ".json";
    EXPECT_TRUE(store::write_file_atomically(path, formats::to_json(testing::made_run(made))).ok());
    return path;
  }
  testing::CommandResult history(const std::string& arguments) {
    return run_command(kTool + " history " + arguments + " --store " + store_);
  }
  std::string folder_;
  std::string store_;
};

TEST_F(HistoryCommand, ABenchBinaryRecordsItsRunAndTheFileOfItIsNotADuplicate) {
  const std::string out = folder_ + "/run.json";
  const auto ran = run_command(kSampleBench +
                               " --filter copy --time-budget 50ms --warm-up 5ms "
                               "--no-machine-warnings --record --store " +
                               store_ + " --out " + out);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_THAT(ran.out, HasSubstr("recorded run "));
  const auto added = history("add " + out);
  ASSERT_EQ(added.exit_code, 0) << added.err;
  EXPECT_THAT(added.out, HasSubstr("already recorded:"));
  const auto listed = history("list");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("1 run in " + store_));
}

// Other tools' files go into the history as they are read everywhere else (formats/result_file).
TEST_F(HistoryCommand, GoogleBenchmarkAndHyperfineFilesAreAdded) {
  const std::string fixtures = std::string(BENCHKIT_TEST_FIXTURES) + "/interop/";
  const auto added = history("add " + fixtures + "gbench_repetitions.json " + fixtures +
                             "hyperfine_two_commands.json");
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto listed = history("list");
  EXPECT_THAT(listed.out, HasSubstr("2 runs in"));
  const auto again = history("add " + fixtures + "gbench_repetitions.json");
  EXPECT_THAT(again.out, HasSubstr("already recorded:"));
}

TEST_F(HistoryCommand, ListsShowsAndTrends) {
  const auto added = history(
      "add " +
      result_file({.commit = "aaaa1111", .date = "2026-11-01T00:00:00Z", .ns = 100, .seed = 1}) +
      " " +
      result_file({.commit = "bbbb2222", .date = "2026-11-02T00:00:00Z", .ns = 120, .seed = 2}));
  ASSERT_EQ(added.exit_code, 0) << added.err;
  EXPECT_THAT(added.out, HasSubstr("recorded "));
  const auto listed = history("list");
  EXPECT_THAT(listed.out, HasSubstr("2 runs in"));
  EXPECT_THAT(listed.out, HasSubstr("aaaa1111"));
  EXPECT_THAT(listed.out, HasSubstr("runner=runner-1"));
  const auto csv = history("trend 'bench_0000' --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_THAT(csv.out, HasSubstr("benchmark,commit,date,run,median_ns"));
  EXPECT_THAT(csv.out, HasSubstr("bench_0000,bbbb2222,2026-11-02T00:00:00Z"));
  const auto console = history("trend bench");
  EXPECT_THAT(console.out, HasSubstr("bench_0001 (2 commits)"));
  EXPECT_THAT(console.out, HasSubstr("+19.4%"));
  const auto json = history("trend bench --format json");
  EXPECT_THAT(json.out, HasSubstr("\"schema\": \"benchkit/trend\""));
  // Written as it is made (console, markdown, csv): the same text in a file as on stdout.
  const std::string streamed = folder_ + "/trend.txt";
  ASSERT_EQ(history("trend bench --out " + streamed).exit_code, 0);
  EXPECT_EQ(slurp(streamed), console.out);
  EXPECT_THAT(history("trend nothing_matches").out, HasSubstr("no benchmark matches"));
  const std::string id = listed.out.substr(listed.out.find("\n", listed.out.find("tags")) + 1, 12);
  const auto shown = history("show " + id);
  ASSERT_EQ(shown.exit_code, 0) << shown.err << " for " << id;
  EXPECT_THAT(shown.out, HasSubstr("bench_0001"));
  // list in JSON: every run with its whole identity, oldest first.
  const auto listed_json = history("list --format json");
  ASSERT_EQ(listed_json.exit_code, 0) << listed_json.err;
  const auto runs = nlohmann::json::parse(listed_json.out);
  EXPECT_EQ(runs["schema"], "benchkit/history-runs");
  ASSERT_EQ(runs["runs"].size(), 2u);
  EXPECT_EQ(runs["runs"][0]["commit"], "aaaa1111");
  EXPECT_EQ(runs["runs"][0]["id"].get<std::string>().substr(0, 12),
            listed.out.substr(listed.out.find("\n", listed.out.find("tags")) + 1, 12));
  EXPECT_EQ(runs["runs"][0]["id"].get<std::string>().size(), 32u);
  EXPECT_EQ(runs["runs"][1]["benchmarks"], 2);
  EXPECT_EQ(runs["runs"][1]["tags"]["runner"], "runner-1");
  // The trend page, printed and beside another format.
  const std::string page = folder_ + "/trend.html";
  const auto html = history("trend bench --format markdown --html " + page);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_THAT(html.out, HasSubstr("### bench_0000"));
  EXPECT_EQ(slurp(page), history("trend bench --format html").out);
  EXPECT_THAT(slurp(page), HasSubstr("\"line_sections\""));
  // --format is parsed where the flags are read: a name of the command's own list (md for
  // markdown), else refused naming them.
  EXPECT_EQ(history("trend bench --format md").out, history("trend bench --format markdown").out);
  const auto junit = history("trend bench --format junit");
  EXPECT_EQ(junit.exit_code, 2);
  EXPECT_THAT(junit.err, HasSubstr("\"junit\" is not a format here; choose console, markdown, "
                                   "json, csv or html"));
}

TEST_F(HistoryCommand, ReportWritesTheSnapshot) {
  ASSERT_EQ(
      history("add " +
              result_file({.commit = "c1", .date = "2026-11-01T00:00:00Z", .ns = 100, .seed = 1}) +
              " " +
              result_file({.commit = "c2", .date = "2026-11-05T00:00:00Z", .ns = 150, .seed = 2}))
          .exit_code,
      0);
  const std::string out = folder_ + "/perf.md";
  const auto reported = history("report --since 2026-11-01 --out " + out);
  ASSERT_EQ(reported.exit_code, 0) << reported.err;
  const std::string text = slurp(out);
  EXPECT_THAT(text, HasSubstr("# Performance since 2026-11-01"));
  EXPECT_THAT(text, HasSubstr("2 runs of 2 commits"));
  EXPECT_THAT(text, HasSubstr("regressed"));
  EXPECT_THAT(text, HasSubstr("## Runs"));
  const std::string page = folder_ + "/perf.html";
  const auto html = history("report --since 2026-11-01 --format html --out " + page);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_THAT(slurp(page), HasSubstr("History since 2026-11-01"));
  EXPECT_THAT(slurp(page), HasSubstr("\"verdict\":\"regressed\""));
}

TEST_F(HistoryCommand, CheckGatesCiOnARegression) {
  std::string files;
  for (int i = 0; i < 6; ++i) {
    files += " " + result_file({.commit = "m" + std::to_string(i),
                                .date = "2026-11-0" + std::to_string(i + 1) + "T00:00:00Z",
                                .seed = static_cast<std::uint64_t>(i)});
  }
  ASSERT_EQ(history("add" + files).exit_code, 0);
  const auto passing = history("check --fail-on-regression");
  EXPECT_EQ(passing.exit_code, 0) << passing.out << passing.err;
  EXPECT_THAT(passing.out, HasSubstr("against 5 earlier runs"));
  ASSERT_EQ(history("add " + result_file({.commit = "slow",
                                          .branch = "topic",
                                          .date = "2026-11-09T00:00:00Z",
                                          .ns = 130,
                                          .seed = 9}))
                .exit_code,
            0);
  const auto failing = history("check --fail-on-regression --base-branch main");
  EXPECT_EQ(failing.exit_code, 1) << failing.out << failing.err;
  EXPECT_THAT(failing.out, HasSubstr("regressed"));
  EXPECT_THAT(failing.out, HasSubstr("change point"));
  EXPECT_EQ(history("check").exit_code, 0);  // without --fail-on-regression: advice only
}

// Shards of one CI run added by separate jobs: the group comes from the CI's environment (here
// GitLab's pipeline id), list shows one run with its shards, and check refuses the group with
// exit status 2 until its last shard is there.
TEST_F(HistoryCommand, ShardsOfOneCiRunAreOneRunAndCheckWaitsForAllOfThem) {
  auto shard_file = [&](std::uint32_t k) {
    RunResult run = testing::made_run({.commit = "c1", .seed = k});
    for (BenchmarkResult& benchmark : run.benchmarks) {
      benchmark.name = "s" + std::to_string(k) + "_" + benchmark.name;
    }
    run.context.shard =
        Shard{.index = k, .count = 3, .by = "count", .benchmarks = 2, .selected = 6};
    const std::string path = folder_ + "/shard-" + std::to_string(k) + ".json";
    EXPECT_TRUE(store::write_file_atomically(path, formats::to_json(run)).ok());
    return path;
  };
  const std::string env = "env -u GITHUB_RUN_ID CI_PIPELINE_ID=55 ";
  const auto added = run_command(env + kTool + " history add " + shard_file(1) + " " +
                                 shard_file(3) + " --store " + store_);
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto listed = history("list");
  EXPECT_THAT(listed.out, HasSubstr("1 run in"));
  EXPECT_THAT(listed.out, HasSubstr("gitlab:55"));
  EXPECT_THAT(listed.out, HasSubstr("2/3"));
  const auto refused = history("check");
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("shard 2/3 was not recorded"));
  const auto late =
      run_command(env + kTool + " history add " + shard_file(2) + " --store " + store_);
  ASSERT_EQ(late.exit_code, 0) << late.err;
  const auto checked = history("check");
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_THAT(checked.out, HasSubstr("group gitlab:55, 3/3 shards"));
  EXPECT_EQ(history("check --expect-shards 4").exit_code, 2);
  const auto bad_wait = history("check --wait soon");
  EXPECT_EQ(bad_wait.exit_code, 2);
  EXPECT_THAT(bad_wait.err, HasSubstr("--wait soon: not a duration"));
}

TEST_F(HistoryCommand, ExportImportAndPrune) {
  ASSERT_EQ(
      history("add " + result_file({.commit = "c1", .date = "2026-11-01T00:00:00Z", .seed = 1}) +
              " " + result_file({.commit = "c2", .date = "2026-11-02T00:00:00Z", .seed = 2}))
          .exit_code,
      0);
  const std::string file = folder_ + "/export.json";
  ASSERT_EQ(history("export --out " + file).exit_code, 0);
  const auto imported =
      run_command(kTool + " history import " + file + " --store " + folder_ + "/copy.db");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_THAT(imported.out, HasSubstr("imported 2 new runs"));
  const auto refused = history("prune");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("--keep N"));
  const auto pruned = history("prune --keep 1");
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_THAT(pruned.out, HasSubstr("removed 1 run"));
}

TEST_F(HistoryCommand, ADamagedFileIsNamedAndLeftAsItWas) {
  std::ofstream(store_, std::ios::binary) << std::string(4096, 'x');
  const std::string before = slurp(store_);
  const auto listed = history("list");
  EXPECT_EQ(listed.exit_code, 2);
  EXPECT_THAT(listed.err, HasSubstr(store_));
  EXPECT_THAT(listed.err, HasSubstr("damaged or not an SQLite database"));
  const auto added = history("add " + result_file({}));
  EXPECT_EQ(added.exit_code, 2);
  EXPECT_EQ(slurp(store_), before);
}

TEST_F(HistoryCommand, ARefusedServerIsNamedWithoutItsPassword) {
  const std::string url = "postgresql://ci:very-secret-pw@127.0.0.1:1/bench";
  const auto listed = run_command(kTool + " history list --store " + url);
  EXPECT_EQ(listed.exit_code, 2);
  EXPECT_THAT(listed.err, HasSubstr("postgresql://ci:***@127.0.0.1:1/bench"));
  EXPECT_THAT(listed.err + listed.out, Not(HasSubstr("very-secret-pw")));
  // From the environment, and before a bench binary runs anything.
  const auto ran =
      run_command("BENCHKIT_STORE=" + url + " " + kSampleBench + " --filter copy --record");
  EXPECT_EQ(ran.exit_code, 2);
  EXPECT_THAT(ran.err, HasSubstr("cannot connect to history"));
  EXPECT_THAT(ran.err + ran.out, Not(HasSubstr("very-secret-pw")));
  EXPECT_THAT(ran.out, Not(HasSubstr("copy")));
}

TEST_F(HistoryCommand, RecordsIntoPostgresql) {
  testing::PostgresBackend backend;
  BENCHKIT_NEED_POSTGRES(backend.server);
  const std::string location = "'" + backend.location() + "'";
  const auto added = run_command(kTool + " history add " + result_file({.commit = "pg1"}) +
                                 " --store " + location);
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto listed = run_command(kTool + " history list --store " + location);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("1 run in postgresql://benchkit:***@"));
  EXPECT_THAT(listed.out, HasSubstr("pg1"));
}

// A bench binary of the default build carries its own libstdc++ (BENCHKIT_STATIC_RUNTIME), and
// the PostgreSQL module it loads brings libstdc++.so with libpqxx: the two runtimes live in one
// process, and the run still goes into the store and comes back out whole.
TEST_F(HistoryCommand, ABenchBinaryRecordsIntoPostgresqlThroughTheModule) {
  testing::PostgresBackend backend;
  BENCHKIT_NEED_POSTGRES(backend.server);
  const std::string location = "'" + backend.location() + "'";
  const auto ran = run_command(kSampleBench +
                               " --filter copy --time-budget 50ms --warm-up 5ms "
                               "--no-machine-warnings --record --store " +
                               location);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_THAT(ran.out, HasSubstr("recorded run "));
  const auto listed = run_command(kTool + " history list --store " + location);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("1 run in postgresql://benchkit:***@"));
  const auto trend = run_command(kTool + " history trend copy --format csv --store " + location);
  ASSERT_EQ(trend.exit_code, 0) << trend.err;
  EXPECT_THAT(trend.out, HasSubstr("\ncopy_string,"));
}

}  // namespace
}  // namespace benchkit::cli
