// docs/cli.md against the options the code declares: every option and command of `benchkit`
// and of a bench binary has its text there, and every text there belongs to one.
#include "cli/help.hpp"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <set>
#include <string>

#include "cli/bench_flags.hpp"
#include "cli/commands.hpp"

namespace benchkit::cli {
namespace {

TEST(Help, TheEmbeddedReferenceReads) {
  const auto reference = formats::parse_cli_reference(kCliReference, "docs/cli.md");
  ASSERT_TRUE(reference) << reference.error().message;
  EXPECT_GT(reference->sections.size(), 20u);
}

TEST(Help, EveryOptionHasItsTextAndEveryTextItsOption) {
  CLI::App tool{"", "benchkit"};
  add_subcommands(tool);
  Described described = describe(tool, "benchkit");
  CLI::App bench{"", "my_bench"};
  BenchFlags flags;
  add_bench_flags(bench, flags);
  const Described of_bench = describe(bench, "./my_bench");
  described.missing.insert(described.missing.end(), of_bench.missing.begin(),
                           of_bench.missing.end());
  described.used.insert(of_bench.used.begin(), of_bench.used.end());
  EXPECT_EQ(described.missing, std::vector<std::string>{})
      << "options without a text in docs/cli.md";
  std::set<std::pair<std::string, std::string>> unused;
  for (const auto& [key, section] : cli_reference().sections) {
    if (!section.description.empty() && !described.used.contains({key, ""}))
      unused.emplace(key, "");
    for (const auto& [name, text] : section.options) {
      if (!described.used.contains({key, name})) unused.emplace(key, name);
    }
  }
  EXPECT_TRUE(unused.empty()) << "docs/cli.md describes what no command has, e.g. "
                              << unused.begin()->first << " " << unused.begin()->second;
  // The texts reached the options --help prints.
  const CLI::App* run = tool.get_subcommand("run");
  EXPECT_EQ(run->get_option("--warmup")->get_description(),
            *cli_reference().option("benchkit run", "--warmup"));
  EXPECT_NE(run->get_description().find("Measure whole processes"), std::string::npos);
}

TEST(Help, AMissingTextIsNamedAndAnOptionsOwnDescriptionIsKept) {
  CLI::App app{"", "benchkit"};
  bool quiet = false;
  app.add_flag("--quiet", quiet);
  app.add_subcommand("run")->add_flag("--loud", quiet);
  const auto reference = formats::parse_cli_reference(
      "## `benchkit run`\n\nRuns.\n\n## Flags several commands share\n\n- `--quiet`: Less\n", "t");
  ASSERT_TRUE(reference);
  const Described described = describe(app, "benchkit", *reference);
  EXPECT_EQ(described.missing, (std::vector<std::string>{"benchkit", "benchkit run --loud"}));
  EXPECT_EQ(app.get_option("--quiet")->get_description(), "Less");
  EXPECT_EQ(app.get_option("--help")->get_description(), "Print this help message and exit");
  EXPECT_EQ(app.get_subcommand("run")->get_description(), "Runs.");
}

TEST(Help, OnlyAHelpFlagAsksForTheDescriptions) {
  const char* asks[] = {"benchkit", "run", "--help"};
  const char* short_form[] = {"my_bench", "-h"};
  const char* runs[] = {"benchkit", "run", "--runs", "3"};
  EXPECT_TRUE(asks_for_help(3, asks));
  EXPECT_TRUE(asks_for_help(2, short_form));
  EXPECT_FALSE(asks_for_help(4, runs));
}

}  // namespace
}  // namespace benchkit::cli
