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

TEST(CommandOptions, AChangeIsAPercentageOrAFractionBetweenZeroAndOne) {
  EXPECT_DOUBLE_EQ(parse_change("1%").value(), 0.01);
  EXPECT_DOUBLE_EQ(parse_change("0.05").value(), 0.05);
  EXPECT_DOUBLE_EQ(parse_change("2.5%").value(), 0.025);
  for (const std::string text : {"", "%", "1x", "one", "1%%"}) {
    const auto refused = parse_change(text);
    ASSERT_FALSE(refused) << text;
    EXPECT_EQ(refused.error().message, "\"" + text + "\" is not a change: give 1% or 0.01");
    EXPECT_EQ(refused.error().kind, model::ErrorKind::usage);
  }
  for (const std::string text : {"0", "100%", "1", "-1%", "150%"}) {
    const auto refused = parse_change(text);
    ASSERT_FALSE(refused) << text;
    EXPECT_EQ(refused.error().message, "\"" + text + "\" is not between 0 and 100%");
  }
}

TEST(CommandOptions, AnMdeMustLieAboveTheNoiseThreshold) {
  ComparisonFlags flags;
  EXPECT_FALSE(check_power(flags));  // no --mde
  flags.mde = 0.03;
  EXPECT_FALSE(check_power(flags));
  flags.mde = 0.02;
  const auto refused = check_power(flags);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->message,
            "--mde 2% is not above --noise-threshold 2%: a change that small is called "
            "unchanged; give a larger --mde or a smaller --noise-threshold");
  EXPECT_EQ(refused->kind, model::ErrorKind::usage);
}

}  // namespace
}  // namespace benchkit::session
