// `benchkit import FILE... --out result.json`: Google Benchmark and hyperfine JSON (or benchkit
// results) converted into one benchkit result, with estimates computed from the samples.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "formats/result_json.hpp"
#include "session/result_files.hpp"

namespace benchkit::cli {

namespace {
struct ImportOptions {
  std::vector<std::string> files;
  std::string out;
};
}  // namespace

CommandRunner add_import_command(CLI::App& app) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* command = app.add_subcommand("import");
  command->add_option("files", options->files)->required();
  command->add_option("--out", options->out);
  return when_parsed(command, [options]() -> int {
    const auto merged = session::load_merged(options->files);
    if (!merged) return report_error(merged.error());
    for (const Diagnostic& warning : merged->context.warnings) {
      if (warning.code == session::kMixedPrograms)
        std::cerr << "warning: " << warning.message << "\n";
    }
    return print_or_write(formats::to_json(*merged), options->out);
  });
}

}  // namespace benchkit::cli
