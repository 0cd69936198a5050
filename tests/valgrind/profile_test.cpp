// benchkit profile with real valgrind (callgrind, massif) and strace on the profile_bench
// fixture (tests/cli/profile_bench.cpp). Labelled `valgrind` with the counted-run tests: they
// need the release build (see counted_run_test.cpp). Each test profiles for 0.3 s; valgrind's
// start-up makes one take 2-5 s here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_command;

using benchkit::testing::kProfileBench;
using benchkit::testing::kTool;

class Profile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("benchkit-profile-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // benchkit profile as JSON; the exit status is checked by the caller.
  nlohmann::json profile(const std::string& name, const std::string& tool, int& status,
                         std::string& err, const std::string& extra = "") {
    const auto result =
        run_command(kTool + " profile " + kProfileBench + " " + name + " --tool " + tool +
                    " --profile-time 300ms --format json --out-dir " + dir_.string() + " " + extra);
    status = result.exit_code;
    err = result.err;
    if (status != 0) return {};
    return nlohmann::json::parse(result.out, nullptr, false);
  }

  std::filesystem::path dir_;
};

TEST_F(Profile, CallgrindNamesTheHotFunctionFirstAndLeavesTheSetUpOut) {
  int status = 0;
  std::string err;
  const auto json =
      profile("one_hot", "callgrind", status, err, "--html " + (dir_ / "p.html").string());
  ASSERT_EQ(status, 0) << err;
  ASSERT_TRUE(json.is_object());
  EXPECT_EQ(json["unit"], "instructions");
  EXPECT_GT(json["iterations"].get<double>(), 0.0);
  const auto& functions = json["functions"];
  ASSERT_FALSE(functions.empty());
  // mix() does the work (exclusive); hot_function is the routine's one caller of it.
  EXPECT_THAT(functions[0]["name"].get<std::string>(), HasSubstr("mix"));
  EXPECT_THAT(functions[0]["file"].get<std::string>(), HasSubstr("profile_bench.cpp"));
  EXPECT_GT(functions[0]["line"].get<int>(), 0);
  // The set-up is 100x an iteration: had it been profiled, it would lead.
  for (const auto& function : functions) {
    EXPECT_THAT(function["name"].get<std::string>(), Not(HasSubstr("setup_only_work")));
  }
  bool hot_inclusive = false;
  for (const auto& function : functions) {
    if (function["name"].get<std::string>().find("hot_function") != std::string::npos) {
      hot_inclusive = function["inclusive"].get<double>() > 0.9 * json["total"].get<double>();
    }
  }
  EXPECT_TRUE(hot_inclusive) << json["functions"].dump();
  // The flame graph and the raw profile are kept; the HTML page holds the profile.
  EXPECT_TRUE(std::filesystem::exists(dir_ / "flame.svg"));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "callgrind.out"));
  std::ifstream svg(dir_ / "flame.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), {});
  EXPECT_THAT(text, HasSubstr("hot_function"));
  std::ifstream page(dir_ / "p.html");
  const std::string html((std::istreambuf_iterator<char>(page)), {});
  EXPECT_THAT(html, HasSubstr("\"flame\""));
  EXPECT_THAT(html, HasSubstr("hot_function"));
}

TEST_F(Profile, MassifSeesTheRoutinesAllocationSite) {
  int status = 0;
  std::string err;
  const auto json = profile("allocating", "massif", status, err);
  ASSERT_EQ(status, 0) << err;
  ASSERT_TRUE(json["peak_heap_bytes"].is_number());
  EXPECT_GE(json["peak_heap_bytes"].get<double>(), 64.0 * 1024);
  bool found = false;
  for (const auto& site : json["peak_sites"]) {
    found =
        found || site["function"].get<std::string>().find("allocate_blocks") != std::string::npos;
  }
  EXPECT_TRUE(found) << json["peak_sites"].dump();
}

// The routine's allocation is made by a function inlined into its lambda: with -g both heap
// profilers name that function (heaptrack_print's inlined frames; massif's with
// --read-inline-info=yes), at its line in the fixture, rather than the lambda or benchkit's call
// of the routine.
TEST_F(Profile, HeapProfilesNameTheAllocatingFunctionInlinedIntoTheRoutine) {
  for (const std::string tool : {"heaptrack", "massif"}) {
    int status = 0;
    std::string err;
    const auto json = profile("allocating_inlined", tool, status, err);
    ASSERT_EQ(status, 0) << tool << ": " << err;
    ASSERT_FALSE(json["peak_sites"].empty()) << tool;
    bool found = false;
    for (const auto& site : json["peak_sites"]) {
      found = found ||
              (site["function"].get<std::string>().find("allocate_inlined") != std::string::npos &&
               site["location"].get<std::string>().find("profile_bench.cpp") != std::string::npos);
    }
    EXPECT_TRUE(found) << tool << ": " << json["peak_sites"].dump();
    std::filesystem::remove_all(dir_);
  }
}

TEST_F(Profile, StraceSeesTheRoutinesSystemCallAndNotTheHarness) {
  int status = 0;
  std::string err;
  const auto json = profile("syscalling", "strace", status, err);
  ASSERT_EQ(status, 0) << err;
  std::map<std::string, double> calls;
  for (const auto& row : json["system_calls"]) calls[row["name"]] = row["calls"].get<double>();
  ASSERT_EQ(calls.count("getppid"), 1u) << json["system_calls"].dump();
  // One per iteration (the warm-up's is before the region).
  EXPECT_EQ(calls["getppid"], json["iterations"].get<double>());
  // The harness opens, writes and renames its summary after the region, and loads libraries
  // before it: none of that is in the table.
  EXPECT_EQ(calls.count("openat"), 0u);
  EXPECT_EQ(calls.count("write"), 0u);
  EXPECT_EQ(calls.count("rename"), 0u);
  EXPECT_EQ(calls.count("mmap"), 0u);
}

TEST_F(Profile, AnUnknownBenchmarkIsNamedWithTheNearOnes) {
  int status = 0;
  std::string err;
  profile("one_ht", "callgrind", status, err);
  EXPECT_EQ(status, 2);
  EXPECT_THAT(err, HasSubstr("no benchmark named \"one_ht\""));
  EXPECT_THAT(err, HasSubstr("one_hot"));
}

TEST_F(Profile, AToolThatIsNotInstalledNamesItsPackage) {
  const auto result =
      run_command("PATH=/nonexistent " + kTool + " profile " + kProfileBench +
                  " one_hot --tool strace --profile-time 100ms --out-dir " + dir_.string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("apt-get install strace"));
}

TEST_F(Profile, AFailingRunShowsItsLastWords) {
  int status = 0;
  std::string err;
  profile("crashing", "strace", status, err);
  EXPECT_EQ(status, 1);
  EXPECT_THAT(err, HasSubstr("strace of"));
  EXPECT_THAT(err, HasSubstr("crashing on purpose"));
}

TEST_F(Profile, BenchBinaryProfileTimeRunsOnlyTheChosenRoutine) {
  const auto result = run_command(kProfileBench + " --filter one_hot --exact --profile-time 100ms");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("profiling one_hot in process"));
  EXPECT_THAT(result.err, HasSubstr("iterations"));
  const auto two = run_command(kProfileBench + " --profile-time 100ms");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_THAT(two.err, HasSubstr("--profile-time runs one benchmark"));
}

}  // namespace
}  // namespace benchkit
