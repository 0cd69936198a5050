#include "report/profile_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;

model::Profile call_profile() {
  model::Profile profile;
  profile.tool = model::ProfileTool::callgrind;
  profile.benchmark = "one_hot";
  profile.binary = "./bench";
  profile.unit = "instructions";
  profile.iterations = 100;
  profile.total = 1'000'000;
  profile.functions = {{"mix", "/src/a.cpp", 12, 900'000, 900'000},
                       {"main", "/src/a.cpp", 30, 100'000, 1'000'000}};
  profile.stacks = {{{"main", "mix"}, 900'000}, {{"main"}, 100'000}};
  profile.notes = {"a note"};
  profile.files = {"/tmp/p/callgrind.out"};
  profile.out_dir = "/tmp/p";
  return profile;
}

TEST(ProfileReport, TheConsoleListsExclusiveThenInclusiveWithFileAndLine) {
  const std::string text = profile_console(call_profile());
  EXPECT_THAT(text, HasSubstr("callgrind of one_hot (./bench)"));
  EXPECT_THAT(text, HasSubstr("100 iterations"));
  const auto exclusive = text.find("Top functions by exclusive instructions");
  const auto inclusive = text.find("Top functions by inclusive instructions");
  ASSERT_NE(exclusive, std::string::npos);
  ASSERT_NE(inclusive, std::string::npos);
  // By exclusive cost mix leads; by inclusive main does.
  EXPECT_LT(text.find("mix", exclusive), text.find("main", exclusive));
  EXPECT_LT(text.find("main", inclusive), text.find("mix", inclusive));
  EXPECT_THAT(text, HasSubstr("/src/a.cpp:12"));
  EXPECT_THAT(text, HasSubstr("90.0%"));
  EXPECT_THAT(text, HasSubstr(" 9000 "));  // 900,000 / 100 per iteration
  EXPECT_THAT(text, HasSubstr("note: a note"));
  EXPECT_THAT(text, HasSubstr("files kept in /tmp/p: callgrind.out"));
}

TEST(ProfileReport, JsonHoldsEveryPart) {
  model::Profile profile = call_profile();
  profile.system_calls = {{"getppid", 100, 0, 0.001}};
  profile.peak_heap_bytes = 4096;
  const auto json = nlohmann::json::parse(profile_json(profile));
  EXPECT_EQ(json["benchkit_profile"], 1);
  EXPECT_EQ(json["functions"][0]["name"], "mix");
  EXPECT_EQ(json["functions"][0]["line"], 12);
  EXPECT_EQ(json["system_calls"][0]["calls"], 100);
  EXPECT_EQ(json["peak_heap_bytes"], 4096.0);
  EXPECT_EQ(json["stacks"].size(), 2u);
}

TEST(ProfileReport, TheHtmlSectionCarriesTheFlameGraphAndTables) {
  const auto sections = profile_sections(call_profile());
  ASSERT_EQ(sections.size(), 1u);
  ASSERT_TRUE(sections[0].flame);
  EXPECT_EQ(sections[0].tables.size(), 2u);
  RunResult run;
  const std::string page = html::render_page(Document{.results = &run}, sections);
  EXPECT_THAT(page, HasSubstr("\"flame\""));
  EXPECT_THAT(page, HasSubstr("Top functions by exclusive instructions"));
}

TEST(ProfileReport, ThePageIsTheRunsHeaderAndTheProfile) {
  RunResult run;
  run.context.command_line = "benchkit profile ./bench sort --tool callgrind";
  EXPECT_EQ(profile_page(call_profile(), run.context.command_line),
            html::render_page(Document{.results = &run}, profile_sections(call_profile())));
}

TEST(ProfileReport, ProfileTimeSaysWhatRunsWhereAndThenWhatItDid) {
  EXPECT_EQ(profiling_started("sort/n=64", 4242, "30s"),
            "profiling sort/n=64 in process 4242: its set-up, one warm-up iteration, then its "
            "routine alone for 30s\n");
  EXPECT_EQ(profiled_summary("sort/n=64", 1200, 2'345'678'901.0),
            "profiled sort/n=64: 1200 iterations, 2.346 s in the routine\n");
}

}  // namespace
}  // namespace benchkit::report
