// `benchkit compare OLD_BINARY NEW_BINARY` and `benchkit run ./gb_binary` on real Google
// Benchmark binaries (tests/cli/gbench_suite.cpp, one build with BM_sum doing twice the work).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

const std::string kTool = std::string(BENCHKIT_BINARY_DIR) + "/benchkit";
const std::string kSuite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite";
const std::string kSlower = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite_slower";
const std::string kQuick = " -- --benchmark_min_time=0.01";

// The verdict of `name` in a benchkit/comparison document.
std::string verdict(const nlohmann::json& document, const std::string& name) {
  for (const auto& row : document["benchmarks"]) {
    if (row["name"] == name) return row["verdict"].get<std::string>();
  }
  return "(absent)";
}

TEST(CompareCommand, TwoGoogleBenchmarkBuildsGiveVerdicts) {
  const auto result = run_command(kTool + " compare " + kSuite + " " + kSlower +
                                  " --rounds 10 --format json" + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto document = nlohmann::json::parse(result.out);
  // BM_sum does twice the additions in the second build; BM_accumulate is the same code.
  EXPECT_EQ(verdict(document, "BM_sum"), "regressed") << result.out;
  EXPECT_NE(verdict(document, "BM_accumulate/4096"), "regressed") << result.out;
  EXPECT_NE(verdict(document, "BM_accumulate/4096"), "(absent)") << result.out;
}

TEST(CompareCommand, FailOnRegressionExitsOne) {
  const auto result =
      run_command(kTool + " compare " + kSuite + " " + kSlower +
                  " --rounds 10 --fail-on-regression" + kQuick + " --benchmark_filter=BM_sum");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
}

TEST(CompareCommand, AProgramOfNeitherKindIsABadInput) {
  const auto result = run_command(kTool + " compare /bin/true " + kSuite);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("/bin/true is an executable but neither"));
}

TEST(RunGbenchBinary, RunsInFreshProcesses) {
  const std::string out = std::filesystem::temp_directory_path() /
                          ("benchkit-gbench-run-" + std::to_string(::getpid()) + ".json");
  const auto result =
      run_command(kTool + " run " + kSuite + " --processes 2 --export-json " + out + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("BM_accumulate/4096"));  // the table
  std::ifstream in(out);
  const auto document = nlohmann::json::parse(in);
  std::filesystem::remove(out);
  ASSERT_EQ(document["benchmarks"].size(), 2u);
  EXPECT_EQ(document["benchmarks"][0]["samples"].size(), 2u);  // one per process
}

}  // namespace
}  // namespace benchkit::cli
