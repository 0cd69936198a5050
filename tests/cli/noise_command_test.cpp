// `benchkit noise` as a user runs it, on the real sample bench binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kGbenchSuiteSlower;
using benchkit::testing::kSampleBench;
using benchkit::testing::kTool;
const std::string kHelper = std::string(BENCHKIT_BINARY_DIR) + "/tests/process_helper";
// Short budgets keep the suite fast; these tests check behaviour, not timings.
const std::string kShortRunAfterDashes = " -- --time-budget 20ms --warm-up 1ms --sample-size 5";

TEST(NoiseCommand, RunsTheBenchBinaryInFreshProcesses) {
  const auto result =
      run_command(kTool + " noise " + kSampleBench + " --processes 3 --format json" +
                  kShortRunAfterDashes + " --filter add");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("in 3 fresh processes"));
  const auto document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document["schema"], "benchkit/noise");
  EXPECT_EQ(document["processes"], 3);
  ASSERT_EQ(document["benchmarks"].size(), 2u);  // the flags after -- reached the binary
  for (const auto& benchmark : document["benchmarks"]) {
    EXPECT_EQ(benchmark["process_medians_ns"].size(), 3u) << benchmark["name"];
    EXPECT_TRUE(benchmark.contains("thresholds")) << benchmark["name"];
  }
  EXPECT_TRUE(document["recommendation"].is_object());
}

TEST(NoiseCommand, PrintsATableAndTheFlagsToUseOrWritesThemToAFile) {
  const std::string out = ::testing::TempDir() + "/noise-report.txt";
  std::filesystem::remove(out);
  const auto result = run_command(kTool + " noise " + kSampleBench + " --processes 3 --out " + out +
                                  kShortRunAfterDashes + " --filter copy");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  std::ifstream file(out);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("A/A noise of " + kSampleBench + ": 3 fresh processes"));
  EXPECT_THAT(text.str(), HasSubstr("spread"));
  EXPECT_THAT(text.str(), HasSubstr("copy_string"));
  EXPECT_THAT(text.str(), HasSubstr("Over 3 fresh processes the process medians spread by"));
  // The flags to use, unless this machine moved the benchmark beyond any threshold (as under a
  // sanitizer on a busy machine): the test checks the report, not the machine.
  EXPECT_THAT(text.str(), ::testing::AnyOf(HasSubstr("--baseline NAME --processes"),
                                           HasSubstr("No threshold a comparison accepts")));
}

TEST(NoiseCommand, AnalysesASavedResultFile) {
  const std::string saved = ::testing::TempDir() + "/noise-run.json";
  const auto run = run_command(kSampleBench + " --processes 3 --quiet --out " + saved +
                               " --time-budget 20ms --warm-up 1ms --filter add/amount=1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto result = run_command(kTool + " noise " + saved + " --format csv");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("add/amount=1,3,"));
}

TEST(NoiseCommand, ACrashingBenchmarkIsNamedAndTheOthersAreAnalysed) {
  const auto result = run_command("SAMPLE_BENCH_CRASH=1 " + kTool + " noise " + kSampleBench +
                                  " --processes 3" + kShortRunAfterDashes);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err,
              HasSubstr("may_fail failed: crashed: its process was killed by signal 6"));
  EXPECT_THAT(result.out, HasSubstr("copy_string"));
}

TEST(NoiseCommand, ABinaryThatCannotRunIsAnError) {
  // Every worker ends before it measures anything: nothing to analyse.
  const auto result =
      run_command(kTool + " noise " + kSampleBench + " --processes 3 -- --filter '('");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("exited with status 2 while running in 3 fresh processes"));
}

TEST(NoiseCommand, InputErrorsExitWithStatus2AndAMessage) {
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"/no/such/bench", "/no/such/bench: no such file"},
      {"/bin/true", "/bin/true is not a benchkit bench binary"},
      {"/bin/true", "benchkit noise -- /bin/true ARGS"},
      {kGbenchSuiteSlower, "benchkit compare " + kGbenchSuiteSlower + " " + kGbenchSuiteSlower},
      {"/tmp", "/tmp is not a file"},
      {kSampleBench + " --bogus", "--bogus"},
      {kSampleBench + " --processes 2", "--processes"},
      {kSampleBench + " --format xml", "--format"},
      {kSampleBench + " stray", "unexpected argument \"stray\""},
      {kSampleBench + " -- --out x.json", "--out after -- is not allowed"},
      {"-- " + kHelper + " exit 3", "exited with status 3"},
      {"", "needs a bench binary"},
  };
  for (const Case& c : cases) {
    const auto result = run_command(kTool + " noise " + c.arguments);
    EXPECT_EQ(result.exit_code, 2) << c.arguments;
    EXPECT_THAT(result.err, HasSubstr(c.message)) << c.arguments;
  }
}

TEST(NoiseCommand, ACommandIsRunInFreshProcessesOneRunEach) {
  const auto result =
      run_command(kTool + " noise --processes 5 --format json -- " + kHelper + " sleep 1");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto doc = nlohmann::json::parse(result.out);
  ASSERT_EQ(doc["benchmarks"].size(), 1u);
  EXPECT_EQ(doc["benchmarks"][0]["processes"], 5);
  EXPECT_THAT(result.err, HasSubstr("5 times, each a fresh process"));
}

// The lines of `path` (0 when it does not exist yet).
std::size_t lines_of(const std::string& path) {
  std::ifstream file(path);
  std::size_t lines = 0;
  for (std::string line; std::getline(file, line);) ++lines;
  return lines;
}

// Ctrl-C, sent to the whole job as a terminal sends it, once some processes have finished: the
// noise of those is reported and the exit status is 130, for a command (each run marks a file
// as it starts: the warm-up and three runs began) and for a bench binary (its result file holds
// a second process).
TEST(NoiseCommand, CtrlCAfterSomeProcessesReportsTheirNoise) {
  const std::string folder = ::testing::TempDir() + "/noise-interrupted";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder + "/tmp");
  const std::string marks = folder + "/marks";
  const std::string script = folder + "/mark.sh";
  std::ofstream(script) << "#!/bin/sh\necho x >> " << marks << "\nsleep 0.05\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  const auto command =
      testing::run_interrupted_when(kTool + " noise --processes 500 --format json -- " + script,
                                    [&] { return lines_of(marks) >= 4; });
  ASSERT_EQ(command.exit_code, 130) << command.out << command.err;
  const auto runs = nlohmann::json::parse(command.out);
  ASSERT_EQ(runs["benchmarks"].size(), 1u);
  EXPECT_GE(runs["benchmarks"][0]["processes"].get<int>(), 2);  // the third had begun
  EXPECT_LT(runs["benchmarks"][0]["processes"].get<int>(), 500);
  EXPECT_THAT(command.err, HasSubstr("interrupted: the figures rest on the processes that "
                                     "finished before it"));

  const std::string tmp = folder + "/tmp";
  const auto second_process = [&] {
    for (const auto& entry : std::filesystem::directory_iterator(tmp)) {
      std::ifstream result(entry.path().string() + "/result.json");
      std::stringstream text;
      text << result.rdbuf();
      if (text.str().find("\"process\": 1") != std::string::npos) return true;
    }
    return false;
  };
  const auto binary = testing::run_interrupted_when(
      "TMPDIR=" + tmp + " " + kTool + " noise " + kSampleBench +
          " --processes 40 --format json -- --filter copy --time-budget 10s --warm-up 1ms",
      second_process);
  ASSERT_EQ(binary.exit_code, 130) << binary.out << binary.err;
  const auto processes = nlohmann::json::parse(binary.out);
  ASSERT_EQ(processes["benchmarks"].size(), 1u);
  EXPECT_GE(processes["benchmarks"][0]["process_medians_ns"].size(), 2u)
      << binary.out << binary.err;
  EXPECT_LT(processes["benchmarks"][0]["process_medians_ns"].size(), 40u);
  EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "the experiment's folder is removed";
  std::filesystem::remove_all(folder);
}

TEST(NoiseCommand, AFileThatIsNeitherExecutableNorAResultIsNamed) {
  const std::string path = ::testing::TempDir() + "/not-a-bench.txt";
  std::ofstream(path) << "hello\n";
  const auto result = run_command(kTool + " noise " + path);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("is not executable"));
}

}  // namespace
}  // namespace benchkit
