#include "session/result_files.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/result_json.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ResultFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-result-files-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    unsetenv(kResultLimitVariable);
  }
  void TearDown() override {
    unsetenv(kResultLimitVariable);
    fs::remove_all(folder_);
  }

  // A valid result of one benchmark, padded with spaces to `bytes` (JSON ignores them).
  std::string write_result(std::size_t bytes) {
    const std::string path = folder_ + "/big.json";
    std::string text =
        R"({"schema": "benchkit/result", "version": 1, "context": {}, "benchmarks": [)"
        R"({"name": "a", "kind": "micro", "samples": [{"ns": 10, "iters": 1}, )"
        R"({"ns": 11, "iters": 1}]}]})";
    text.resize(std::max(bytes, text.size()), ' ');
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string folder_;
};

TEST_F(ResultFiles, TheLimitIsTheDefaultOrTheVariable) {
  EXPECT_EQ(result_file_limit_bytes(), kDefaultResultLimitMiB * 1024 * 1024);
  setenv(kResultLimitVariable, "3", 1);
  EXPECT_EQ(result_file_limit_bytes(), 3u * 1024 * 1024);
  // Not a positive whole number: the default, not zero (which would refuse every file).
  for (const char* bad : {"0", "-1", "x", "2MiB", ""}) {
    setenv(kResultLimitVariable, bad, 1);
    EXPECT_EQ(result_file_limit_bytes(), kDefaultResultLimitMiB * 1024 * 1024) << bad;
  }
}

// A file over the limit is refused before it is read: the message names the file, its size,
// the limit and the variable that raises it. Under the limit, the same file reads.
TEST_F(ResultFiles, AFileOverTheLimitIsRefusedUpFrontNamingItsSizeAndTheLimit) {
  const std::string path = write_result(3 * 1024 * 1024 + 1);
  setenv(kResultLimitVariable, "2", 1);
  const auto refused = load_result_file(path);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, model::ErrorKind::input);
  EXPECT_THAT(refused.error().message, HasSubstr(path + " is 3 MiB, more than the 2 MiB"));
  EXPECT_THAT(refused.error().message, HasSubstr("BENCHKIT_MAX_RESULT_MB=MiB"));
  setenv(kResultLimitVariable, "4", 1);
  const auto read = load_result_file(path);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->benchmarks.size(), 1u);
}

// A Google Benchmark file's repetitions ran in one process, one after another: a trend across
// them is said when the file is read. The same samples in benchkit's own format (each run's
// diagnostics were made when it ran) get nothing more on reading.
TEST_F(ResultFiles, AGoogleBenchmarkFileWhoseRepetitionsRiseSaysSoWhenRead) {
  std::string rows;
  std::string samples;
  for (int i = 0; i < 12; ++i) {
    const double ns = 100.0 * (1.0 + 0.03 * i) * (i % 2 == 0 ? 1.002 : 0.998);
    rows += std::string(i > 0 ? ", " : "") +
            R"({"name": "BM_fill", "run_name": "BM_fill", "run_type": "iteration", )"
            R"("repetitions": 12, "repetition_index": )" +
            std::to_string(i) + R"(, "threads": 1, "iterations": 1000, "real_time": )" +
            std::to_string(ns) + R"(, "cpu_time": )" + std::to_string(ns) +
            R"(, "time_unit": "ns"})";
    samples += std::string(i > 0 ? ", " : "") + R"({"ns": )" + std::to_string(ns * 1000) +
               R"(, "iters": 1000})";
  }
  const std::string gbench = folder_ + "/gbench.json";
  std::ofstream(gbench) << R"({"context": {"executable": "./bench", "num_cpus": 2}, )"
                        << R"("benchmarks": [)" << rows << "]}";
  const auto read = load_result_file(gbench);
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->benchmarks.size(), 1u);
  const auto& diagnostics = read->benchmarks[0].diagnostics;
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].code, "drift");
  EXPECT_THAT(diagnostics[0].message, HasSubstr("of its 12 repetitions"));

  const std::string own = folder_ + "/own.json";
  std::ofstream(own) << R"({"schema": "benchkit/result", "version": 1, "context": {}, )"
                     << R"("benchmarks": [{"name": "fill", "kind": "micro", "samples": [)"
                     << samples << "]}]}";
  const auto native = load_result_file(own);
  ASSERT_TRUE(native) << native.error().message;
  EXPECT_TRUE(native->benchmarks.at(0).diagnostics.empty());
}

TEST_F(ResultFiles, SeveralFilesAreMergedWithTheFileAsTheProcess) {
  const std::string first = write_result(0);
  const std::string second = folder_ + "/second.json";
  fs::copy_file(first, second);
  const auto one = load_merged({first});
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->benchmarks.front().samples.size(), 2u);
  const auto both = load_merged({first, second});
  ASSERT_TRUE(both) << both.error().message;
  ASSERT_EQ(both->benchmarks.size(), 1u);
  EXPECT_EQ(both->benchmarks.front().samples.size(), 4u);
  EXPECT_FALSE(load_merged({first, folder_ + "/missing.json"}));
  const auto mixed = [](const RunResult& run) {
    return std::count_if(run.context.warnings.begin(), run.context.warnings.end(),
                         [](const Diagnostic& d) { return d.code == kMixedPrograms; });
  };
  EXPECT_EQ(mixed(*both), 0);
  // Files of two programs (./fbO2 and ./fbO1) are pooled, and said to be.
  RunResult other = *one;
  other.context.executable = "./other_build";
  const std::string third = folder_ + "/third.json";
  std::ofstream(third) << formats::to_json(other);
  RunResult own = *one;
  own.context.executable = "./this_build";
  std::ofstream(first, std::ios::trunc) << formats::to_json(own);
  const auto pooled = load_merged({first, third});
  ASSERT_TRUE(pooled) << pooled.error().message;
  ASSERT_EQ(mixed(*pooled), 1);
  const auto warning =
      std::find_if(pooled->context.warnings.begin(), pooled->context.warnings.end(),
                   [](const Diagnostic& d) { return d.code == kMixedPrograms; });
  EXPECT_THAT(warning->message, HasSubstr("different programs (./this_build and ./other_build)"));
}

TEST(RefuseRecompute, AComparisonKeepsNoSamplesToRecomputeFrom) {
  RunOrComparison comparison;
  comparison.comparison = model::Comparison{};
  EXPECT_FALSE(refuse_recompute(comparison, "c.json", false));
  const auto refused = refuse_recompute(comparison, "c.json", true);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->kind, model::ErrorKind::usage);
  EXPECT_THAT(refused->message,
              HasSubstr("--recompute: c.json is a comparison (benchkit/comparison), which keeps "
                        "its verdicts but no samples"));
  RunOrComparison run;
  run.run = RunResult{};
  EXPECT_FALSE(refuse_recompute(run, "r.json", true));
}

}  // namespace
}  // namespace benchkit::session
