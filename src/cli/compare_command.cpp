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
  return written != 0 ? written : outcome.exit_status();
}

}  // namespace

CommandRunner add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare a new run against a baseline: ratio of medians with its 95% CI, a rank test "
      "adjusted across all benchmarks, and a verdict per benchmark (regressed, improved, "
      "unchanged, inconclusive). BASE and NEW are result files (benchkit, Google Benchmark or "
      "hyperfine JSON) or baseline names; given two executables (benchkit or Google Benchmark "
      "binaries) it runs them side by side in paired rounds first (flags after -- go to both). "
      "Exit status: "
      "0, or 1 with --fail-on-regression when a benchmark regressed; 2 for bad input.");
  command
      ->add_option("base", options->base,
                   "Baseline: a result file, a baseline name, or an executable")
      ->required();
  command
      ->add_option("new", options->candidate,
                   "New run: a result file, a baseline name, or an executable")
      ->required();
  add_format_option(*command, options->format, "Format of the comparison");
  add_out_option(*command, options->out, "Write to this file instead of stdout");
  add_html_option(*command, options->html);
  add_comparison_flags(*command, options->comparison, true);
  add_fail_on_regression_flag(*command, options->fail_on_regression);
  add_rounds_option(*command, options->rounds, 1);
  add_max_rounds_option(*command, options->max_rounds);
  add_power_flags(*command, options->comparison);
  add_budget_option(*command, options->budget);
  add_filter_option(*command, options->filter, "Two executables: only the benchmarks (of both)",
                    true);
  add_shard_options(*command, options->shard, nullptr);
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
