#include "session/runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "benchkit/registry.hpp"
#include "measure/instances.hpp"

namespace benchkit::session {
namespace {

TEST(SettingsFor, ABenchmarksOwnWarmUpRunsWholeEvenInATurnsWorker) {
  RunSettings run;
  run.engine.warm_up_until_steady = true;  // as turns_plan sets it
  EXPECT_TRUE(settings_for(run, BenchSettings{}).warm_up_until_steady);
  BenchSettings own;
  own.warm_up_ns = 80'000'000;
  const measure::Settings settings = settings_for(run, own);
  EXPECT_FALSE(settings.warm_up_until_steady);
  EXPECT_EQ(settings.warm_up_ns, 80'000'000);
}

TEST(SettingsFor, ABenchmarksOwnSampleSizeIsKeptWhole) {
  RunSettings run;
  EXPECT_EQ(settings_for(run, BenchSettings{}).fewest_samples, 10u);  // long samples may stop early
  BenchSettings own;
  own.sample_size = 50;
  const measure::Settings settings = settings_for(run, own);
  EXPECT_EQ(settings.min_samples, 50u);
  EXPECT_EQ(settings.fewest_samples, 50u);
}

void contended(Bencher&) {}

TEST(Select, AFilterReachesEachThreadCountByName) {
  Registration registration("contended", "file.cpp", 1, detail::this_build_facts());
  registration.add_function(&contended).threads({1, 2, 4});
  const std::vector<measure::Instance> instances = measure::expand({&registration});
  std::vector<std::string> chosen;
  for (const auto& instance : select(instances, "threads=[24]$", false)) {
    chosen.push_back(instance.name);
  }
  EXPECT_EQ(chosen, (std::vector<std::string>{"contended/threads=2", "contended/threads=4"}));
  const auto exact = select(instances, "contended/threads=1", true);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(exact[0].threads, 1u);
}

// Google Benchmark's negative filter: a leading '-' keeps the names the rest does not match.
TEST(Select, ALeadingMinusKeepsTheNamesThatDoNotMatch) {
  std::vector<measure::Instance> instances(3);
  instances[0].name = "BM_Zone_Load";
  instances[1].name = "BM_Time_ToCivil";
  instances[2].name = "BM_Zone_Equality";
  std::vector<std::string> names;
  for (const auto& instance : select(instances, "-^BM_Zone", false)) names.push_back(instance.name);
  EXPECT_EQ(names, std::vector<std::string>{"BM_Time_ToCivil"});
  EXPECT_EQ(select(instances, "-", false).size(), 0u);  // "-" alone is a regex of its own
  EXPECT_EQ(select(instances, "-BM_Zone_Load", true).size(), 0u);  // --exact: a whole name
}

}  // namespace
}  // namespace benchkit::session
