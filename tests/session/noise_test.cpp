// benchkit noise's plans (session/noise.hpp) up to the point where a process would start: the
// checks on the target, each an input error (exit status 2) named for what is wrong.
#include "session/noise.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace benchkit::session {
namespace {

class Heard final : public Observer {
 public:
  void measuring_started(const std::string& what) override { started.push_back(what); }
  std::vector<std::string> started;
};

TEST(NoisePlans, ATargetThatIsNoExecutableFileStopsBeforeAnythingRuns) {
  const std::string folder = ::testing::TempDir();
  const std::string text = folder + "/noise-not-executable.txt";
  std::ofstream(text) << "hello\n";
  for (const auto& [target, said] :
       std::vector<std::pair<std::string, std::string>>{{folder + "/no-such-bench", "no such file"},
                                                        {folder, "is not a file"},
                                                        {text, "is not executable"}}) {
    Heard heard;
    const auto measurer = make_measurer(NoisePlan{target, 3, {}});
    auto keeper = make_keeper();
    const Outcome outcome = run_pipeline(*measurer, Steps{}, heard, *keeper);
    EXPECT_FALSE(outcome.measured) << target;
    ASSERT_EQ(outcome.errors.size(), 1u);
    EXPECT_NE(outcome.errors[0].message.find(said), std::string::npos) << outcome.errors[0].message;
    EXPECT_EQ(outcome.exit_status(), 2) << target;
    EXPECT_TRUE(heard.started.empty());

    const auto counted = check_count_order(CountOrderPlan{target, {}, 0.001}, heard);
    ASSERT_FALSE(counted);
    EXPECT_EQ(exit_status_of(counted.error().kind), 2);
  }
}

TEST(NoisePlans, ANameWithoutASlashIsAFileInThisFolder) {
  const auto path = bench_binary_path("no-such-bench-here");
  ASSERT_FALSE(path);
  EXPECT_NE(path.error().message.find("./no-such-bench-here: no such file"), std::string::npos);
  const auto shell = bench_binary_path("/bin/sh");
  ASSERT_TRUE(shell);
  EXPECT_EQ(*shell, "/bin/sh");
}

TEST(NoisePlans, AProgramThatIsNoBenchBinaryOrFlagsNoiseSetsItselfAreRefused) {
  const auto not_bench = check_noise_binary("/bin/true", NoisePlan{"/bin/true", 3, {}});
  ASSERT_TRUE(not_bench);
  EXPECT_EQ(not_bench->kind, model::ErrorKind::input);
  EXPECT_NE(not_bench->message.find("is not a benchkit bench binary"), std::string::npos);
  EXPECT_NE(not_bench->message.find("benchkit noise -- /bin/true"), std::string::npos);

  const std::string bench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
  const auto reserved = check_noise_binary(bench, NoisePlan{bench, 3, {"--out=x"}});
  ASSERT_TRUE(reserved);
  EXPECT_NE(reserved->message.find("--out after -- is not allowed"), std::string::npos);
  const auto many = check_noise_binary(bench, NoisePlan{bench, 65, {}});
  ASSERT_TRUE(many);
  EXPECT_NE(many->message.find("at most 64 processes"), std::string::npos);
  EXPECT_FALSE(check_noise_binary(bench, NoisePlan{bench, 3, {"--filter", "add"}}));
}

TEST(NoisePlans, ADriversFlagThatWouldMakeTheBinaryAWorkerIsRefused) {
  const std::string bench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
  for (const std::string flag :
       {"--worker-stream", "--worker-select", "--worker-index", "--turns-fd", "--callgrind-dumps",
        "--profile-markers", "--profile-summary"}) {
    const auto reserved = check_noise_binary(bench, NoisePlan{bench, 3, {flag, "3"}});
    ASSERT_TRUE(reserved) << flag;
    EXPECT_NE(reserved->message.find(flag + " after -- is not allowed"), std::string::npos);
  }
}

TEST(NoiseFindings, ARunOfSeveralProcessesIsAnalysedAndOneOfOneIsNot) {
  BenchmarkResult benchmark;
  benchmark.name = "b";
  for (std::uint32_t process = 0; process < 5; ++process) {
    for (int i = 0; i < 10; ++i) {
      Sample sample;
      sample.iters = 1;
      sample.ns = 100.0 + process + 0.1 * i;
      sample.process = process;
      benchmark.samples.push_back(sample);
    }
  }
  RunResult run;
  run.benchmarks.push_back(benchmark);
  const NoiseFindings analysed = noise_findings(run);
  EXPECT_TRUE(analysed.analysis.recommendation);
  EXPECT_FALSE(analysed.nothing_analysed);
  for (Sample& sample : run.benchmarks.front().samples) sample.process = 0;
  const NoiseFindings single = noise_findings(run);
  ASSERT_TRUE(single.nothing_analysed);
  EXPECT_EQ(single.nothing_analysed->message,
            "no benchmark ran in 2 or more processes; nothing to analyse");
  EXPECT_EQ(single.nothing_analysed->kind, model::ErrorKind::input);
}

}  // namespace
}  // namespace benchkit::session
