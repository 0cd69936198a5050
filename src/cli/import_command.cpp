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
  CLI::App* command = app.add_subcommand(
      "import",
      "Convert Google Benchmark JSON (--benchmark_out=FILE --benchmark_out_format=json) and "
      "hyperfine exports (--export-json FILE) into one benchkit result file, with estimates "
      "computed from their samples. Each file's format is told from its content. Several files "
      "are merged into one run: a benchmark that several files hold gets the samples of all, "
      "numbered by file (the file is its process). compare, report and noise read these files "
      "directly too; import keeps a converted copy (docs/interop.md). Exit status: 0; 2 for bad "
      "input.");
  command->add_option("files", options->files, "Result files to convert")->required();
  add_out_option(*command, options->out,
                 "Write the benchkit result here (atomically) instead of stdout");
  return when_parsed(command, [options]() -> int {
    const auto merged = session::load_merged(options->files);
    if (!merged) return report_error(merged.error());
    return print_or_write(formats::to_json(*merged), options->out);
  });
}

}  // namespace benchkit::cli
