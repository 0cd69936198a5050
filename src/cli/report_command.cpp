// `benchkit report FILE`: renders a result file in any format, recomputing absent estimates.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "analysis/estimates.hpp"
#include "cli/commands.hpp"
#include "report/reporter.hpp"
#include "session/result_files.hpp"

namespace benchkit::cli {

namespace {
struct ReportOptions {
  std::string file;
  std::string format = "console";
  std::string out;
  bool recompute = false;
};
}  // namespace

CommandRunner add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Show a result file (from a bench binary's --out, any file in the benchkit/result "
      "format, Google Benchmark JSON or a hyperfine export) as a table, Markdown, CSV, JSON or a "
      "format other tools read. Estimates absent from the file are computed from its samples.");
  command->add_option("file", options->file, "Result file (JSON)")->required();
  command
      ->add_option("--format", options->format,
                   "console, json, markdown, csv, or for other tools: gbench (Google "
                   "Benchmark JSON), bmf (Bencher Metric Format), github-action "
                   "(github-action-benchmark's customSmallerIsBetter)")
      ->check(CLI::IsMember(report::format_names()));
  command->add_option("--out", options->out, "Write to this file (atomically) instead of stdout");
  command->add_flag("--recompute", options->recompute,
                    "Recompute every estimate from the samples, even those in the file");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    auto run = session::load_result_file(options->file);  // estimates absent from it are computed
    if (!run) {
      std::cerr << "error: " << run.error().message << "\n";
      return 2;
    }
    if (options->recompute) analysis::compute_estimates(*run);
    const auto format = report::parse_format(options->format).value();
    // The console shows whole-process results in the table `benchkit run` prints.
    return print_or_write(report::make_reporter(format)->render(report::Document{.results = &*run}),
                          options->out);
  };
}

}  // namespace benchkit::cli
