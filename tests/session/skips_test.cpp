#include "session/skips.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchkit/registry.hpp"
#include "benchkit/scenario.hpp"
#include "measure/instances.hpp"

namespace benchkit::session {
namespace {

void plain(Bencher&) {}
void sized(Bencher&, int) {}

Registration make(const std::string& name) {
  return Registration(name, "file.cpp", 1, detail::this_build_facts());
}

std::vector<std::string> names(const std::vector<measure::Instance>& instances) {
  std::vector<std::string> result;
  for (const auto& instance : instances) result.push_back(instance.name);
  return result;
}

TEST(Skips, TakesOutEveryCombinationOfATaggedBenchmark) {
  Registration kept = make("kept");
  kept.add_function(&plain).skip_when("nightly", "only at night");
  Registration noisy = make("noisy");
  noisy.add_function(&sized).param("size", {1, 2}).skip_when("ci", "8% between runners");
  std::vector<measure::Instance> chosen = measure::expand({&kept, &noisy});
  const std::vector<BenchmarkResult> skipped = take_skipped(chosen, {"ci"});
  EXPECT_THAT(names(chosen), ::testing::ElementsAre("kept"));
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].name, "noisy/size=1");
  EXPECT_EQ(skipped[1].name, "noisy/size=2");
  EXPECT_EQ(skipped[1].params.at("size"), "2");
  EXPECT_EQ(skipped[0].kind, "micro");
  ASSERT_TRUE(skipped[0].skipped);
  EXPECT_EQ(skipped[0].skipped->tag, "ci");
  EXPECT_EQ(skipped[0].skipped->reason, "8% between runners");
  EXPECT_TRUE(skipped[0].samples.empty());
  EXPECT_EQ(describe_skip(skipped[0]), "noisy/size=1 skipped (--skip-tag ci): 8% between runners");
}

TEST(Skips, TheFirstMatchingRuleGivesTheReason) {
  Registration r = make("r");
  r.add_function(&plain).skip_when("ci", "first").skip_when("arm", "second");
  std::vector<measure::Instance> chosen = measure::expand({&r});
  const auto skipped = take_skipped(chosen, {"arm", "ci"});
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].skipped->reason, "first");
  EXPECT_TRUE(chosen.empty());
}

TEST(Skips, NothingIsSkippedWithoutAMatchingTag) {
  Registration r = make("r");
  r.add_function(&plain).skip_when("ci", "noisy");
  std::vector<measure::Instance> chosen = measure::expand({&r});
  EXPECT_TRUE(take_skipped(chosen, {}).empty());
  EXPECT_TRUE(take_skipped(chosen, {"nightly"}).empty());
  EXPECT_THAT(names(chosen), ::testing::ElementsAre("r"));
}

}  // namespace
}  // namespace benchkit::session
