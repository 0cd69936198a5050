// What --help says: every option and subcommand is declared without prose, and describe() gives
// each the text of its entry in docs/cli.md (formats/cli_reference.hpp), compiled into the
// library.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "formats/cli_reference.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace benchkit::cli {

// docs/cli.md's text, embedded by the build (CMakeLists.txt, cmake/embed_assets.cmake).
extern const char kCliReference[];

// docs/cli.md as the build embedded it, read once. A file that cannot be read (a test catches
// it first) gives an empty reference: --help then shows names without descriptions.
const formats::CliReference& cli_reference();

struct Described {
  // "benchkit run --warmup": the options and commands that found no text.
  std::vector<std::string> missing;
  // The entries used, as (section, option); ("benchkit run", "") for a command's description.
  std::set<std::pair<std::string, std::string>> used;
};

// Gives `app` (whose section is `key`, e.g. "benchkit"), its options and, recursively, its
// subcommands ("benchkit history trend") their descriptions from `reference`. An option that
// has a description already (CLI11's --help and --version) keeps it.
Described describe(CLI::App& app, const std::string& key,
                   const formats::CliReference& reference = cli_reference());

// Whether the command line asks for --help (or -h, --help-all): the descriptions are read for it
// alone.
bool asks_for_help(int argc, const char* const* argv);

// A line "--filer is not a flag of NAME: did you mean --filter?" for each word of `words` that
// looks like a long flag (--name or --name=value, up to a lone --), is none of the long flags of
// `command` or its subcommands, and likely misspells one of them (model::likely_meant); "" when
// none does.
std::string misspelt_flags(const CLI::App& command, const std::string& name,
                           const std::vector<std::string>& words);

}  // namespace benchkit::cli
