#include "session/runner.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace benchkit::session {
namespace {

TEST(SettingsFor, ABenchmarksOwnWarmUpRunsWholeEvenInATurnsWorker) {
  RunSettings run;
  run.engine.warm_up_until_steady = true;  // as turns_plan sets it
  EXPECT_TRUE(settings_for(run, BenchSettings{}).warm_up_until_steady);
  BenchSettings own;
  own.warm_up = std::chrono::milliseconds(80);
  const measure::Settings settings = settings_for(run, own);
  EXPECT_FALSE(settings.warm_up_until_steady);
  EXPECT_EQ(settings.warm_up_ns, 80'000'000);
}

}  // namespace
}  // namespace benchkit::session
