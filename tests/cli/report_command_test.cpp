// `benchkit report` as a user runs it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

using benchkit::testing::kTool;

std::string write_temp(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << content;
  return path;
}

TEST(ReportCommand, ComputesEstimatesOfAMinimalFile) {
  const std::string path =
      write_temp("minimal.json",
                 R"({"schema":"benchkit/result","version":1,"benchmarks":[{"name":"external",
          "samples":[{"iters":10,"ns":1000},{"iters":10,"ns":3000},{"iters":10,"ns":2000}]}]})");
  const auto result = run_command(kTool + " report " + path + " --format csv");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("external,micro,200,100,300,"));
}

TEST(ReportCommand, AMissingFileIsNamed) {
  const auto result = run_command(kTool + " report /no/such/result.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("cannot read /no/such/result.json"));
}

TEST(ReportCommand, AMalformedFileNamesThePlace) {
  const std::string path = write_temp(
      "bad.json",
      R"({"schema":"benchkit/result","version":1,"benchmarks":[{"name":"a","samples":[{"iters":1}]}]})");
  const auto result = run_command(kTool + " report " + path);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("benchmarks[0].samples[0].ns: missing"));
}

TEST(Tool, UnknownSubcommandsAndFlagsAreUsageErrors) {
  EXPECT_EQ(run_command(kTool + " frobnicate").exit_code, 2);
  EXPECT_THAT(run_command(kTool + " frobnicate").err, HasSubstr("unknown subcommand"));
  EXPECT_EQ(run_command(kTool + " report --bogus x").exit_code, 2);
  EXPECT_EQ(run_command(kTool).exit_code, 2);
  EXPECT_EQ(run_command(kTool + " --version").exit_code, 0);
}

// A misspelt subcommand or flag is named with the one it likely misspells; a word far from every
// flag is refused without a guess.
TEST(Tool, AMisspeltSubcommandOrFlagIsNamedWithTheOneMeant) {
  const auto subcommand = run_command(kTool + " compar a b");
  EXPECT_EQ(subcommand.exit_code, 2);
  EXPECT_THAT(subcommand.err, HasSubstr("unknown subcommand \"compar\" (did you mean compare?)"));
  const auto flag = run_command(kTool + " run ./bench --filer x --rounds=3 --procesess=4");
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_THAT(flag.err, HasSubstr("--filer is not a flag of benchkit run: did you mean --filter?"));
  EXPECT_THAT(flag.err,
              HasSubstr("--procesess is not a flag of benchkit run: did you mean --processes?"));
  EXPECT_THAT(flag.err, Not(HasSubstr("--rounds is not")));
  // A nested subcommand's flag, and words after -- (the command's own) left alone.
  const auto nested = run_command(kTool + " history trend --sotre x.db");
  EXPECT_THAT(nested.err, HasSubstr("--sotre is not a flag of benchkit history: did you mean "
                                    "--store?"));
  const auto far = run_command(kTool + " report x.json --frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
}

}  // namespace
}  // namespace benchkit
