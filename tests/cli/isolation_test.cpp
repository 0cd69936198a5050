// Every benchmark isolated, as a user sees it: a real bench binary whose benchmarks segfault,
// abort, hang, exit(3) and throw among healthy ones (misbehaving_bench.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "formats/result_json.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kMisbehavingBench;
using benchkit::testing::kTool;
const std::string kShortRunWithTimeout =
    " --time-budget 20ms --warm-up 2ms --sample-size 5 --no-machine-warnings --timeout 2s";
// Under AddressSanitizer a SIGSEGV is caught and reported by the sanitizer, which then exits with
// status 1: these tests are about what benchkit does with the signal, so it is let through.
const std::string kSignals = "ASAN_OPTIONS=handle_segv=0 ";
const std::string kAll = kSignals + "MISBEHAVE=segfaults,aborts,hangs,exits,throws ";

struct Isolation : ::testing::Test {
  void SetUp() override {
    folder = std::filesystem::temp_directory_path() /
             ("benchkit-isolation-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
  }
  void TearDown() override { std::filesystem::remove_all(folder); }
  std::string path(const std::string& name) const { return (folder / name).string(); }
  std::filesystem::path folder;
};

std::map<std::string, BenchmarkResult> read_results(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = formats::from_json(text.str(), file);
  std::map<std::string, BenchmarkResult> results;
  if (!parsed) {
    ADD_FAILURE() << parsed.error().message;
    return results;
  }
  for (BenchmarkResult& b : parsed->run.benchmarks) results[b.name] = std::move(b);
  return results;
}

// The causes a run must record, and the words its message says them with.
void expect_each_failure_named(const std::map<std::string, BenchmarkResult>& results,
                               const std::string& err) {
  const std::map<std::string, std::pair<Failure::Cause, std::string>> expected = {
      {"segfaults", {Failure::Cause::crashed, "killed by signal 11 (SIGSEGV)"}},
      {"aborts", {Failure::Cause::crashed, "killed by signal 6 (SIGABRT)"}},
      {"hangs", {Failure::Cause::timed_out, "did not finish within 2 s"}},
      {"exits", {Failure::Cause::exited, "exited with status 3"}},
      {"throws", {Failure::Cause::threw, "asked to throw"}},
  };
  for (const auto& [name, cause] : expected) {
    ASSERT_TRUE(results.count(name)) << name;
    const BenchmarkResult& result = results.at(name);
    ASSERT_TRUE(result.failure) << name;
    EXPECT_EQ(result.failure->cause, cause.first) << name;
    EXPECT_THAT(result.failures.front(), HasSubstr(cause.second)) << name;
    EXPECT_THAT(err, HasSubstr("error: " + name + " failed: ")) << name;
    if (name != "throws") {
      // Its own last words, caught from its stderr.
      EXPECT_THAT(result.failure->stderr_tail, HasSubstr(name + ": about to misbehave")) << name;
    }
  }
  for (const char* healthy : {"first_ok", "last_ok"}) {
    ASSERT_TRUE(results.count(healthy)) << healthy;
    EXPECT_TRUE(results.at(healthy).valid()) << healthy;
    EXPECT_FALSE(results.at(healthy).samples.empty()) << healthy;
  }
  EXPECT_THAT(err, HasSubstr("5 benchmark(s) failed"));
}

TEST_F(Isolation, EveryFailureIsNamedWithItsCauseAndEveryHealthyBenchmarkIsSaved) {
  const auto run =
      run_command(kAll + kMisbehavingBench + kShortRunWithTimeout + " --out " + path("r.json"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  expect_each_failure_named(read_results(path("r.json")), run.err);
  // The console table names them too.
  EXPECT_THAT(run.out, ::testing::ContainsRegex("segfaults +failed +crashed"));
  EXPECT_THAT(run.out, HasSubstr("segfaults failed, kept out of comparisons"));
}

TEST_F(Isolation, TheSameUnderThreeFreshProcesses) {
  const auto run = run_command(kAll + kMisbehavingBench + kShortRunWithTimeout +
                               " --processes 3 --out " + path("r.json"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const auto results = read_results(path("r.json"));
  expect_each_failure_named(results, run.err);
  std::set<std::uint32_t> processes;
  for (const Sample& s : results.at("last_ok").samples) processes.insert(s.process);
  EXPECT_EQ(processes, (std::set<std::uint32_t>{0, 1, 2})) << "healthy: all three processes";
}

TEST_F(Isolation, TheSameSideBySideWithABaselineAndFailedBenchmarksAreNotCompared) {
  const std::string env = "BENCHKIT_DIR=" + folder.string() + " ";
  ASSERT_EQ(
      run_command(env + kMisbehavingBench + kShortRunWithTimeout + " --quiet --save-baseline main")
          .exit_code,
      0);
  const auto run = run_command(env + kAll + kMisbehavingBench + kShortRunWithTimeout +
                               " --baseline main --rounds 2 --max-rounds 2 --worker-timeout 2s "
                               "--out " +
                               path("r.json"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_THAT(run.err, HasSubstr("error: segfaults failed: the "));
  EXPECT_THAT(run.err, HasSubstr("killed by signal 11 (SIGSEGV)"));
  EXPECT_THAT(run.err, HasSubstr("did not answer within 2 s"));
  const auto results = read_results(path("r.json"));
  for (const std::string name : {"segfaults", "aborts", "hangs", "exits", "throws"}) {
    ASSERT_TRUE(results.count(name)) << name;
    EXPECT_FALSE(results.at(name).valid()) << name;
    ASSERT_TRUE(results.at(name).failure) << name;
    if (name != "throws") {
      // Its last words, from the worker's stderr, as when it runs alone.
      EXPECT_THAT(results.at(name).failure->stderr_tail, HasSubstr(name + ": about to misbehave"))
          << name;
    }
  }
  EXPECT_TRUE(results.at("first_ok").valid());
  // The context is the controller's, collected once (its workers leave the machine out).
  std::ifstream file(path("r.json"));
  std::stringstream json;
  json << file.rdbuf();
  const auto parsed = formats::from_json(json.str(), "r.json");
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->run.context.checks.empty());
  EXPECT_FALSE(parsed->run.context.executable_sha256.empty());
  EXPECT_FALSE(parsed->run.context.clock.empty());
  // The comparison lists them as invalid, and compares the healthy ones.
  EXPECT_THAT(run.out, ::testing::ContainsRegex("segfaults [^\n]* invalid"));
  EXPECT_THAT(run.out, HasSubstr("segfaults [invalid]: it failed to run (the "));
  EXPECT_THAT(run.out, ::testing::ContainsRegex(
                           "first_ok [^\n]*(unchanged|inconclusive|improved|regressed)"));
}

TEST_F(Isolation, Kill9OfTheWholeRunKeepsEveryBenchmarkFinishedBeforeIt) {
  // hangs waits for a 60 s timeout: the run is killed while it hangs, after first_ok and the
  // three failures before it.
  const std::string out = path("r.json");
  const std::string command = kSignals + "MISBEHAVE=segfaults,hangs " + kMisbehavingBench +
                              " --time-budget 20ms --warm-up 2ms --sample-size 5 "
                              "--no-machine-warnings --timeout 60s --quiet --out " +
                              out + " & pid=$!; for i in $(seq 300); do grep -q '\"aborts\"' " +
                              out +
                              " 2>/dev/null && break; sleep 0.05; done; sleep 0.3; kill -9 $pid; "
                              "wait $pid";
  const auto run = run_command(command);
  EXPECT_EQ(run.exit_code, 128 + 9) << run.err;
  const auto results = read_results(out);
  ASSERT_TRUE(results.count("first_ok")) << "the file holds what finished";
  EXPECT_TRUE(results.at("first_ok").valid());
  ASSERT_TRUE(results.count("segfaults"));
  EXPECT_TRUE(results.at("segfaults").failure);
  EXPECT_FALSE(results.count("last_ok")) << "it never ran";
  // No temporary file is left beside it.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(Isolation, CtrlCStopsTheRunAndKeepsWhatFinished) {
  const std::string out = path("r.json");
  const std::string command = kSignals + "MISBEHAVE=hangs " + kMisbehavingBench +
                              " --time-budget 20ms --warm-up 2ms --sample-size 5 "
                              "--no-machine-warnings --timeout 60s --out " +
                              out + " 2>" + path("err") +
                              " & pid=$!; for i in $(seq 300); do grep -q "
                              "'hangs: about' " +
                              path("err") +
                              " && break; sleep 0.05; done; kill -INT $pid; wait $pid";
  const auto run = run_command(command);
  EXPECT_EQ(run.exit_code, 130);
  const auto results = read_results(out);
  EXPECT_TRUE(results.at("first_ok").valid());
  ASSERT_TRUE(results.count("hangs"));
  ASSERT_TRUE(results.at("hangs").failure);
  EXPECT_EQ(results.at("hangs").failure->cause, Failure::Cause::interrupted);
  EXPECT_FALSE(results.count("last_ok")) << "nothing runs after Ctrl-C";
  EXPECT_THAT(run.out, HasSubstr("first_ok"));
}

TEST_F(Isolation, InProcessACrashEndsTheRunButKeepsWhatFinished) {
  const auto run = run_command(kSignals + "MISBEHAVE=segfaults " + kMisbehavingBench +
                               kShortRunWithTimeout + " --in-process --out " + path("r.json"));
  EXPECT_EQ(run.exit_code, 128 + 11) << "the signal ends the process itself";
  const auto results = read_results(path("r.json"));
  EXPECT_TRUE(results.count("first_ok"));
  EXPECT_FALSE(results.count("segfaults"));
}

TEST_F(Isolation, BenchkitRunAndNoiseGoOnPastAFailedBenchmark) {
  const auto run =
      run_command(kSignals + "MISBEHAVE=segfaults,exits " + kTool + " run " + kMisbehavingBench +
                  " --processes 2 -- " + kShortRunWithTimeout + " --out " + path("r.json"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_THAT(run.err, HasSubstr("segfaults failed: crashed"));
  const auto results = read_results(path("r.json"));
  EXPECT_TRUE(results.at("last_ok").valid());
  EXPECT_TRUE(results.at("exits").failure);

  const auto noise = run_command(kSignals + "MISBEHAVE=aborts " + kTool + " noise " +
                                 kMisbehavingBench + " --processes 3 -- " + kShortRunWithTimeout);
  EXPECT_THAT(noise.err, HasSubstr("aborts failed: crashed"));
  EXPECT_THAT(noise.out, HasSubstr("first_ok"));
  EXPECT_THAT(noise.out, HasSubstr("aborts"));
}

}  // namespace
}  // namespace benchkit
