#include "formats/cli_reference.hpp"

#include <gtest/gtest.h>

namespace benchkit::formats {
namespace {

constexpr const char* kReference = R"(# Every command

An introduction, not read: - `--not-an-entry`: ignored.

## `benchkit run`

Measure whole processes: one line
and the next.

Exit status: 0.

- `program`: A bench binary
- `--warmup N`: Runs per command
  before measuring (default 1)
- `--out`: Write the run here

## `benchkit history trend`

- `--out`: Write the trend here

## Flags several commands share

- `--out`: Write to this file
- `--store`: The history
)";

TEST(CliReference, ReadsEachSectionsDescriptionAndEntriesWithTheirNextLines) {
  const auto reference = parse_cli_reference(kReference, "docs/cli.md");
  ASSERT_TRUE(reference) << reference.error().message;
  ASSERT_EQ(reference->sections.size(), 3u);
  const CliSection& run = reference->sections.at("benchkit run");
  EXPECT_EQ(run.description, "Measure whole processes: one line and the next.\nExit status: 0.");
  ASSERT_EQ(run.options.size(), 3u);
  EXPECT_EQ(run.options.at("program"), "A bench binary");
  // The entry's name is the option's, without the value after it.
  EXPECT_EQ(run.options.at("--warmup"), "Runs per command before measuring (default 1)");
  EXPECT_EQ(reference->sections.at("benchkit history trend").description, "");
}

TEST(CliReference, ACommandsOwnEntryReplacesTheSharedOne) {
  const auto reference = parse_cli_reference(kReference, "docs/cli.md");
  ASSERT_TRUE(reference) << reference.error().message;
  EXPECT_EQ(*reference->option("benchkit run", "--out"), "Write the run here");
  EXPECT_EQ(*reference->option("benchkit history trend", "--out"), "Write the trend here");
  EXPECT_EQ(*reference->option("benchkit history trend", "--store"), "The history");
  // A command with no section of its own still finds the shared entries.
  EXPECT_EQ(*reference->option("benchkit merge", "--out"), "Write to this file");
  EXPECT_EQ(reference->option("benchkit run", "--nothing"), nullptr);
}

TEST(CliReference, EachMistakeNamesTheFileTheLineAndTheForm) {
  const auto error = [](const std::string& text) {
    const auto reference = parse_cli_reference(text, "docs/cli.md");
    return reference ? std::string("(read)") : reference.error().message;
  };
  EXPECT_EQ(error("intro\n## Flags\n"),
            "docs/cli.md:2: a section heading names its command in backticks (or is \"## Flags "
            "several commands share\")");
  EXPECT_EQ(error("## `benchkit run`\n\n## `benchkit run`\n"),
            "docs/cli.md:3: the section \"benchkit run\" is given twice");
  EXPECT_EQ(error("## `a`\n- `--x`: one\n- `--x`: two\n"),
            "docs/cli.md:3: the entry \"--x\" is given twice in its section");
  EXPECT_EQ(error("## `a`\n- `--x` without a colon\n"),
            "docs/cli.md:2: an entry is \"- `NAME`: what it does\"");
  EXPECT_EQ(error("## `a`\n- `--x`: one\n\nA paragraph after the entries.\n"),
            "docs/cli.md:4: a paragraph between a section's entries (an entry's next lines are "
            "indented by two spaces)");
  EXPECT_EQ(parse_cli_reference("", "docs/cli.md")->sections.size(), 0u);
}

}  // namespace
}  // namespace benchkit::formats
