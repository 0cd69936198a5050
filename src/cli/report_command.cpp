// `benchkit report FILE`: renders a result file in any format, recomputing absent estimates.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "analysis/estimates.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "report/reporter.hpp"
#include "session/result_files.hpp"

namespace benchkit::cli {

namespace {
struct ReportOptions {
  std::string file;
  std::string format = "console";
  std::string out;
  std::string html;
  bool recompute = false;
};
}  // namespace

CommandRunner add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Show a result file (from a bench binary's --out, any file in the benchkit/result "
      "format, Google Benchmark JSON or a hyperfine export) as a table, Markdown, CSV, JSON, "
      "JUnit XML, an HTML page with plots, or a format other tools read (gbench, bmf, "
      "github-action: docs/interop.md). Estimates absent from the file are computed from its "
      "samples.");
  command->add_option("file", options->file, "Result file (JSON)")->required();
  add_format_option(*command, options->format, "Format of the report");
  add_out_option(*command, options->out);
  add_html_option(*command, options->html);
  command->add_flag("--recompute", options->recompute,
                    "Recompute every estimate from the samples, even those in the file");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    auto run = session::load_result_file(options->file);  // estimates absent from it are computed
    if (!run) return report_error(model::Error{run.error().message, model::ErrorKind::input});
    if (options->recompute) analysis::compute_estimates(*run);
    const auto format = report::parse_format(options->format).value();
    // The console shows whole-process results in the table `benchkit run` prints.
    const report::Document document{.results = &*run};
    if (const int status =
            print_or_write(report::make_reporter(format)->render(document), options->out);
        status != 0) {
      return status;
    }
    return options->html.empty() ? 0 : write_html(options->html, document);
  };
}

}  // namespace benchkit::cli
