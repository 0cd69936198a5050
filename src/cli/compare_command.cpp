// `benchkit compare BASE NEW`: the verdicts of a new run against a baseline.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "analysis/compare.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "report/progress_printer.hpp"
#include "report/reporter.hpp"
#include "report/run_failures.hpp"
#include "session/compare_options.hpp"
#include "session/plans.hpp"

namespace benchkit::cli {

namespace {
using session::CompareOptions;

// The verdicts where report::plan_comparison_report sends them; the exit status.
int report(const CompareOptions& options, const session::Outcome& outcome) {
  if (!outcome.measured) return report_error(outcome.errors.front());
  const model::Format format = options.format;
  const analysis::Comparison& comparison = *outcome.comparison;
  if (auto refused = report::format_refusal(format, {.comparison = &comparison})) {
    return report_error(*refused);
  }
  const int written = emit_status(report::plan_comparison_report(
      {format, options.out, options.html}, report::OutStyle::replaced, comparison, &outcome.run));
  if (outcome.interrupted) std::cerr << report::interrupted_note("the verdicts", "rounds");
  return written != 0 ? written : outcome.exit_status();
}

}  // namespace

CommandRunner add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand("compare");
  command->add_option("base", options->base)->required();
  command->add_option("new", options->candidate)->required();
  add_format_option(*command, options->format);
  command->add_option("--out", options->out);
  command->add_option("--html", options->html);
  add_comparison_flags(*command, options->comparison, true);
  add_fail_on_regression_flag(*command, options->fail_on_regression);
  command->add_option("--worker-timeout", options->worker_timeout);
  add_rounds_option(*command, options->rounds, 1);
  add_max_rounds_option(*command, options->max_rounds);
  add_power_flags(*command, options->comparison);
  command->add_option("--budget", options->budget);
  command->add_option("--filter,--bench", options->filter);
  add_shard_options(*command, options->shard, nullptr);
  command->add_flag("--together", options->together);
  return when_parsed(command, [options]() -> int {
    options->trailing = trailing_arguments();
    // Two executables run side by side: the rounds on a terminal, and what a Google Benchmark
    // process wrote besides its banner.
    ProgressLine line(stderr_is_terminal());
    report::ProgressPrinter progress(line, report::ProgressOf::compare, false);
    return run_and_report(
        session::plan_for(*options), progress,
        [&](const session::Outcome& outcome) { return report(*options, outcome); });
  });
}

}  // namespace benchkit::cli
