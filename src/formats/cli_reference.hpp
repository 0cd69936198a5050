// docs/cli.md, the reference of every command and flag, read back as the text `--help` shows:
// the `benchkit` command's and a bench binary's options are declared in src/cli/ without prose,
// and each one's description comes from here (cli/help.cpp), so the reference and `--help`
// cannot disagree.
//
// The file's form (docs/cli.md opens by stating it):
// - everything before the first `## ` heading is an introduction, not read;
// - `## ... `KEY` ...`: a command's section, KEY the first text in backticks ("benchkit run",
//   "benchkit history trend", "my_bench" for a bench binary); `## Flags several commands share`:
//   the descriptions of every command that has no entry of its own for that flag;
// - the paragraphs after a heading describe the command (lines joined by spaces, paragraphs by
//   a newline);
// - `- `NAME ...`: TEXT` starts the entry of option NAME (`--warmup`, or a positional's name),
//   continued by the lines indented by two spaces after it.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::formats {

inline constexpr const char* kSharedFlagsHeading = "Flags several commands share";

struct CliSection {
  std::string description;
  // Option name ("--warmup", "program") -> its description.
  std::map<std::string, std::string> options;
};

struct CliReference {
  // Section key ("benchkit run") -> the section; "" is the shared flags' section.
  std::map<std::string, CliSection> sections;

  // The description of option `name` of `command`: its section's entry, else the shared one;
  // null when neither has it.
  const std::string* option(const std::string& command, const std::string& name) const;
};

// Reads docs/cli.md's text. An error names `origin`, the line and what is wrong with it: a
// section heading without a key, a key given twice, an entry without ": ", a paragraph or an
// entry outside a section, a paragraph between a section's entries.
model::Result<CliReference> parse_cli_reference(std::string_view text, const std::string& origin);

}  // namespace benchkit::formats
