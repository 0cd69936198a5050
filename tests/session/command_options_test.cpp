#include "session/command_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

TEST(CommandOptions, ComparisonSettingsReadTheAdjustment) {
  ComparisonFlags flags;
  flags.noise_threshold = 0.05;
  flags.count_threshold = 0.002;
  flags.all_samples = true;
  EXPECT_EQ(comparison_settings(flags).adjustment, analysis::Adjustment::holm);
  flags.adjustment = "bh";
  EXPECT_EQ(comparison_settings(flags).adjustment, analysis::Adjustment::benjamini_hochberg);
  flags.adjustment = "none";
  const auto settings = comparison_settings(flags);
  EXPECT_EQ(settings.adjustment, analysis::Adjustment::none);
  EXPECT_DOUBLE_EQ(settings.noise_threshold, 0.05);
  EXPECT_DOUBLE_EQ(settings.count_noise_threshold, 0.002);
  EXPECT_TRUE(settings.all_samples);
}

TEST(CommandOptions, StoreNeedsRecord) {
  const auto refused = check_record_flags(false, "history.db");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->kind, model::ErrorKind::usage);
  EXPECT_THAT(refused->message, HasSubstr("add --record"));
  EXPECT_FALSE(check_record_flags(false, ""));
}

TEST(CommandOptions, AHistoryThatCannotBeOpenedIsFoundBeforeTheRun) {
  EXPECT_TRUE(check_record_flags(true, "/proc/benchkit-no/history.db"));
}

}  // namespace
}  // namespace benchkit::session
