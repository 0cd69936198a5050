// `benchkit report FILE`: renders a result file in any format, recomputing absent estimates, or
// a comparison file (compare, ab or merge --format json) in every format that has a form for it.
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
  model::Format format = model::Format::console;
  std::string out;
  std::string html;
  bool recompute = false;
};

}  // namespace

CommandRunner add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand("report");
  command->add_option("file", options->file)->required();
  add_format_option(*command, options->format);
  command->add_option("--out", options->out);
  command->add_option("--html", options->html);
  command->add_flag("--recompute", options->recompute);
  return when_parsed(command, [options]() -> int {
    // Estimates absent from a result file are computed.
    auto input = session::load_run_or_comparison(options->file);
    if (!input) return report_error(model::Error{input.error().message, model::ErrorKind::input});
    const model::Format format = options->format;
    if (input->comparison) {
      // Its rows and verdicts as they were written (it holds no samples, so nothing is
      // recomputed), in any format with a form for a comparison.
      if (auto refused = session::refuse_recompute(*input, options->file, options->recompute)) {
        return report_error(*refused);
      }
      if (auto refused = report::comparison_file_refusal(format, options->file)) {
        return report_error(*refused);
      }
      const report::Document document{.comparison = &*input->comparison};
      return emit_status(
          report::plan_document({format, options->out, options->html}, document, document));
    }
    RunResult* run = &*input->run;
    if (options->recompute) analysis::compute_estimates(*run);
    // The console shows whole-process results in the table `benchkit run` prints.
    const report::Document document{.results = run};
    return emit_status(
        report::plan_document({format, options->out, options->html}, document, document));
  });
}

}  // namespace benchkit::cli
