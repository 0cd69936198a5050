// `benchkit import`, and Google Benchmark and hyperfine files given to report and compare.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kTool;
const std::string kFixtures = std::string(BENCHKIT_TEST_FIXTURES) + "/interop/";

class ImportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("benchkit-import-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  std::filesystem::path folder_;
};

TEST_F(ImportCommand, ConvertsGoogleBenchmarkAndHyperfineIntoOneResult) {
  const auto result =
      run_command(kTool + " import " + kFixtures + "gbench_repetitions.json " + kFixtures +
                  "hyperfine_two_commands.json --out " + path("all.json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream in(path("all.json"));
  const auto document = nlohmann::json::parse(in);
  EXPECT_EQ(document["schema"], "benchkit/result");
  ASSERT_EQ(document["benchmarks"].size(), 6u);  // 4 from Google Benchmark, 2 commands
  EXPECT_EQ(document["benchmarks"][4]["kind"], "command");
  EXPECT_GT(document["benchmarks"][0]["estimates"]["median"]["value"].get<double>(), 0.0);
}

TEST_F(ImportCommand, ReportAndCompareReadTheFilesDirectly) {
  const auto report = run_command(kTool + " report " + kFixtures + "gbench_repetitions.json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, HasSubstr("BM_copy/4096"));
  const auto compare = run_command(kTool + " compare " + kFixtures + "gbench_repetitions.json " +
                                   kFixtures + "gbench_repetitions.json");
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("BM_copy/64"));
  const auto hyperfine = run_command(kTool + " report " + kFixtures + "hyperfine_parameters.json");
  ASSERT_EQ(hyperfine.exit_code, 0) << hyperfine.err;
  EXPECT_THAT(hyperfine.out, HasSubstr("exit 2"));
}

TEST_F(ImportCommand, WritesTheFormatsOtherToolsRead) {
  for (const std::string format : {"gbench", "bmf", "github-action"}) {
    const auto result =
        run_command(kTool + " report " + kFixtures + "gbench_repetitions.json --format " + format);
    ASSERT_EQ(result.exit_code, 0) << format << ": " << result.err;
    EXPECT_TRUE(nlohmann::json::accept(result.out)) << format << ": " << result.out;
  }
  // A comparison has no form in them: said so, exit status 2.
  const auto refused = run_command(kTool + " compare " + kFixtures + "gbench_single.json " +
                                   kFixtures + "gbench_single.json --format bmf");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("benchkit report FILE --format bmf"));
}

TEST_F(ImportCommand, BadInputNamesTheFileAndTheFixWithStatus2) {
  struct Case {
    std::string file;
    std::string expected;
  };
  {
    std::ofstream(path("cut.json")) << "{\"context\": {}, \"benchmarks\": [{\"name\": ";
    std::ofstream(path("other.json")) << "{\"rows\": []}";
    std::ofstream(path("summary.json")) << R"({"results": [{"command": "x", "mean": 1.5}]})";
  }
  for (const Case& c :
       {Case{kFixtures + "gbench_newer_schema.json", "update benchkit"},
        Case{path("summary.json"), "times: missing"}, Case{path("cut.json"), "truncated"},
        Case{path("other.json"), "--benchmark_out_format=json"}}) {
    const auto result = run_command(kTool + " import " + c.file);
    EXPECT_EQ(result.exit_code, 2) << c.file;
    EXPECT_THAT(result.err, HasSubstr(c.file)) << c.file;
    EXPECT_THAT(result.err, HasSubstr(c.expected)) << c.file;
  }
}

}  // namespace
}  // namespace benchkit::cli
