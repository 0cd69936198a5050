// A bench binary's checked input files (benchkit::data::input_file) and --skip-tag, run as a
// user runs them (tests/cli/data_bench.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/digests.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_command;
namespace fs = std::filesystem;

using benchkit::testing::kDataBench;
using benchkit::testing::kHelloWorldSha256;
using benchkit::testing::kTool;
const std::string kReason = "walltime varies 8% between CI runners; measurements in PR 214";

class DataBench : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-data-bench-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    std::ofstream(folder_ + "/input.txt", std::ios::binary) << "hello world\n";
  }
  void TearDown() override { fs::remove_all(folder_); }
  // Runs the bench binary in the test's folder with its input's expected digest and size.
  testing::CommandResult bench(const std::string& args,
                               const std::string& sha256 = kHelloWorldSha256,
                               const std::string& bytes = "12") {
    return run_command("cd '" + folder_ + "' && BENCHKIT_TEST_INPUT=input.txt " +
                       "BENCHKIT_TEST_INPUT_SHA256=" + sha256 + " BENCHKIT_TEST_INPUT_BYTES=" +
                       bytes + " " + kDataBench + " --no-machine-warnings " + args);
  }
  RunResult read(const std::string& name) {
    const auto text = store::read_file(folder_ + "/" + name);
    EXPECT_TRUE(text) << name;
    auto parsed = formats::from_json(text ? *text : "", name);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    return parsed ? parsed->run : RunResult{};
  }
  const BenchmarkResult* find(const RunResult& run, const std::string& name) {
    for (const BenchmarkResult& b : run.benchmarks) {
      if (b.name == name) return &b;
    }
    ADD_FAILURE() << name << " is not in the result";
    return nullptr;
  }
  std::string folder_;
};

TEST_F(DataBench, RecordsTheCheckedInputInTheBenchmarkAndTheContext) {
  const auto result = bench("--test --out r.json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = read("r.json");
  const BenchmarkResult* reader = find(run, "read_input");
  ASSERT_TRUE(reader);
  ASSERT_EQ(reader->inputs.size(), 1u);
  EXPECT_EQ(reader->inputs[0].path, "input.txt");
  EXPECT_EQ(reader->inputs[0].bytes, 12u);
  EXPECT_EQ(reader->inputs[0].sha256, kHelloWorldSha256);
  ASSERT_EQ(run.context.inputs.size(), 1u);
  EXPECT_EQ(run.context.inputs[0].sha256, kHelloWorldSha256);
  EXPECT_TRUE(find(run, "steady")->inputs.empty());
  // The digest was cached for the next run, next to where it ran.
  EXPECT_TRUE(fs::exists(folder_ + "/.benchkit/data-cache.json"));
}

TEST_F(DataBench, AWrongDigestFailsTheBenchmarkNamingBothDigestsAndTheFix) {
  const std::string wrong(64, 'e');
  const auto result = bench("--test --out r.json", wrong);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("read_input failed"));
  EXPECT_THAT(result.err, HasSubstr("data file input.txt is not the expected one: its SHA-256 is " +
                                    kHelloWorldSha256 + ", expected " + wrong));
  EXPECT_THAT(result.err, HasSubstr("make it again with: printf 'hello world\\n' > input.txt"));
  // The other benchmarks still ran and were kept.
  const RunResult run = read("r.json");
  ASSERT_TRUE(find(run, "steady"));
  EXPECT_FALSE(find(run, "steady")->samples.empty());
  EXPECT_TRUE(run.context.inputs.empty());
}

TEST_F(DataBench, SkipTagLeavesTheBenchmarkOutWithItsReason) {
  const auto result = bench("--test --skip-tag ci --out r.json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("noisy_case skipped (--skip-tag ci): " + kReason));
  EXPECT_THAT(result.out, HasSubstr("noisy_case skipped (--skip-tag ci): " + kReason));
  const RunResult run = read("r.json");
  const BenchmarkResult* skipped = find(run, "noisy_case");
  ASSERT_TRUE(skipped && skipped->skipped);
  EXPECT_EQ(skipped->skipped->tag, "ci");
  EXPECT_EQ(skipped->skipped->reason, kReason);
  EXPECT_TRUE(skipped->samples.empty());
  EXPECT_FALSE(find(run, "steady")->samples.empty());
}

TEST_F(DataBench, WithoutTheTagTheBenchmarkRuns) {
  const auto result = bench("--test --skip-tag nightly --out r.json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, Not(HasSubstr("skipped")));
  const RunResult run = read("r.json");  // kept: find() points into it
  const BenchmarkResult* noisy = find(run, "noisy_case");
  ASSERT_TRUE(noisy);
  EXPECT_FALSE(noisy->skipped);
  EXPECT_FALSE(noisy->samples.empty());
  // Its second rule has a tag of its own.
  EXPECT_THAT(bench("--test --skip-tag slow").err,
              HasSubstr("noisy_case skipped (--skip-tag slow): too slow for a quick run"));
  EXPECT_EQ(bench("--list --skip-tag ci").out, "read_input\nsteady\n");
}

TEST_F(DataBench, WorkerProcessesChooseTheSameBenchmarks) {
  // Fresh processes of the suite re-choose the benchmarks from the flags: they must leave out
  // the same ones, or the benchmarks' numbers would not match.
  const auto result = bench("--processes 2 --time-budget 20ms --skip-tag ci --out r.json --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = read("r.json");
  ASSERT_EQ(run.benchmarks.size(), 3u);
  for (const char* measured : {"read_input", "steady"}) {
    const BenchmarkResult* b = find(run, measured);
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->skipped);
    EXPECT_FALSE(b->samples.empty()) << measured;
  }
  EXPECT_TRUE(find(run, "noisy_case")->skipped);
}

TEST_F(DataBench, ASkippedBenchmarkIsNeitherARegressionNorAFailure) {
  ASSERT_EQ(bench("--time-budget 20ms --quiet --out old.json").exit_code, 0);
  ASSERT_EQ(bench("--time-budget 20ms --quiet --skip-tag ci --out new.json").exit_code, 0);
  const auto compared =
      run_command("cd '" + folder_ + "' && " + kTool +
                  " compare old.json new.json --fail-on-regression --format json");
  EXPECT_NE(compared.exit_code, 2) << compared.err;
  EXPECT_THAT(compared.out, HasSubstr("\"skipped\": 1"));
  EXPECT_THAT(compared.out, HasSubstr("skipped in the new run (--skip-tag ci): " + kReason));
  const auto shown = run_command("cd '" + folder_ + "' && " + kTool + " compare old.json new.json");
  EXPECT_THAT(shown.out, HasSubstr("1 skipped"));
}

}  // namespace
}  // namespace benchkit
