// `benchkit compare BASE NEW`: the verdicts of a new run against a baseline.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "analysis/compare.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "report/reporter.hpp"
#include "session/result_files.hpp"
#include "session/runner.hpp"

namespace benchkit::cli {

namespace {
struct CompareOptions {
  std::string base;
  std::string candidate;
  std::string format = "console";
  std::string out;
  std::string html;
  double noise_threshold = 0.02;
  std::string adjustment = "holm";
  bool fail_on_regression = false;
  bool all_samples = false;
};
}  // namespace

void add_comparison_flags(CLI::App& command, double& noise_threshold, std::string& adjustment,
                          bool* all_samples) {
  command
      .add_option("--noise-threshold", noise_threshold,
                  "Changes within ±this fraction are 'unchanged' (default 0.02 = ±2%)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--adjust", adjustment,
                  "Correction of p-values across the benchmarks: holm (default), bh "
                  "(Benjamini-Hochberg) or none")
      ->check(CLI::IsMember({"holm", "bh", "none"}));
  if (all_samples) {
    command.add_flag("--all-samples", *all_samples,
                     "Compare every sample, also those taken while the machine ran slow (by "
                     "default both sides are cut at one machine speed, read from a reference "
                     "loop timed between samples; docs/verdicts.md)");
  }
}

analysis::CompareSettings comparison_settings(double noise_threshold, const std::string& adjustment,
                                              bool all_samples) {
  analysis::CompareSettings settings;
  settings.all_samples = all_samples;
  settings.noise_threshold = noise_threshold;
  settings.adjustment = adjustment == "bh"     ? analysis::Adjustment::benjamini_hochberg
                        : adjustment == "none" ? analysis::Adjustment::none
                                               : analysis::Adjustment::holm;
  return settings;
}

CommandRunner add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare a new run against a baseline: ratio of medians with its 95% CI, a rank test "
      "adjusted across all benchmarks, and a verdict per benchmark (regressed, improved, "
      "unchanged, inconclusive). BASE and NEW are result files or baseline names. Exit status: "
      "0, or 1 with --fail-on-regression when a benchmark regressed; 2 for bad input.");
  command->add_option("base", options->base, "Baseline: a result file or a baseline name")
      ->required();
  command->add_option("new", options->candidate, "New run: a result file or a baseline name")
      ->required();
  add_format_option(*command, options->format, "Format of the comparison");
  command->add_option("--out", options->out, "Write to this file instead of stdout");
  add_html_option(*command, options->html);
  add_comparison_flags(*command, options->noise_threshold, options->adjustment,
                       &options->all_samples);
  command->add_flag("--fail-on-regression", options->fail_on_regression,
                    "Exit with status 1 when any benchmark regressed (for CI)");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    auto base = session::load_file_or_baseline(options->base);
    if (!base) {
      std::cerr << "error: " << base.error().message << "\n";
      return 2;
    }
    auto candidate = session::load_file_or_baseline(options->candidate);
    if (!candidate) {
      std::cerr << "error: " << candidate.error().message << "\n";
      return 2;
    }
    analysis::Comparison comparison = analysis::compare(
        *base, *candidate,
        comparison_settings(options->noise_threshold, options->adjustment, options->all_samples));
    comparison.context_warning = session::context_differences(base->context, candidate->context);
    const auto format = report::parse_format(options->format).value();
    // The HTML page shows the new run's samples under the verdicts; the other formats the
    // verdicts alone.
    const report::Document page{.results = &*candidate, .comparison = &comparison};
    const report::Document verdicts{.comparison = &comparison};
    const std::string text =
        report::make_reporter(format)->render(format == report::Format::html ? page : verdicts);
    if (const int status = print_or_write(text, options->out); status != 0) {
      return status;
    }
    if (!options->html.empty()) {
      if (const int status = write_html(options->html, page); status != 0) return status;
    }
    return options->fail_on_regression && comparison.any_regression() ? 1 : 0;
  };
}

}  // namespace benchkit::cli
