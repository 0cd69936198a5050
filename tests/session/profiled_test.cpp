#include "session/profiled.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "benchkit/bencher.hpp"
#include "benchkit/registry.hpp"
#include "measure/instances.hpp"

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

void increment(Bencher& bencher) {
  int value = 0;
  bencher.iter([&value] { return ++value; });
}

struct RunProfiled : ::testing::Test {
  Registration registration{"increment", "file.cpp", 1, detail::this_build_facts()};
  std::vector<measure::Instance> chosen;
  std::vector<std::string> started;
  std::function<void(const std::string&)> starting = [this](const std::string& name) {
    started.push_back(name);
  };
  void SetUp() override {
    registration.add_function(&increment);
    chosen = measure::expand({&registration});
  }
};

TEST_F(RunProfiled, RunsTheOneRoutineAndWritesItsSummary) {
  const std::filesystem::path summary =
      std::filesystem::path(::testing::TempDir()) / "profiled_test_summary.json";
  std::filesystem::remove(summary);
  const auto routine =
      run_profiled({1'000'000, "1ms", "none", summary.string()}, RunSettings{}, chosen, starting);
  ASSERT_TRUE(routine) << routine.error().message;
  EXPECT_EQ(started, std::vector<std::string>{"increment"});
  EXPECT_EQ(routine->benchmark, "increment");
  EXPECT_GT(routine->iterations, 0u);
  std::ifstream file(summary);
  std::stringstream text;
  text << file.rdbuf();
  const auto read = parse_profiled_json(text.str());
  ASSERT_TRUE(read) << text.str();
  EXPECT_EQ(read->iterations, routine->iterations);
}

TEST_F(RunProfiled, ARequestItCannotCarryOutRunsNothing) {
  const auto unread = run_profiled({std::nullopt, "soon"}, RunSettings{}, chosen, starting);
  ASSERT_FALSE(unread);
  EXPECT_THAT(unread.error().message, HasSubstr("--profile-time \"soon\""));
  EXPECT_EQ(unread.error().kind, model::ErrorKind::usage);
  const auto markers = run_profiled({1000, "1us", "gdb"}, RunSettings{}, chosen, starting);
  ASSERT_FALSE(markers);
  EXPECT_THAT(markers.error().message, HasSubstr("--profile-markers takes"));
  EXPECT_EQ(markers.error().kind, model::ErrorKind::usage);
  EXPECT_TRUE(started.empty());
}

TEST_F(RunProfiled, ASummaryThatCannotBeWrittenIsAnError) {
  const auto routine = run_profiled({1'000'000, "1ms", "", "/proc/benchkit-no/summary.json"},
                                    RunSettings{}, chosen, starting);
  ASSERT_FALSE(routine);
  EXPECT_THAT(routine.error().message, HasSubstr("/proc/benchkit-no/summary.json"));
  EXPECT_EQ(started.size(), 1u);
}

}  // namespace
}  // namespace benchkit::session
