// `benchkit noise ./my_bench`: the same bench binary in N fresh processes (an A/A experiment),
// and per benchmark the spread between processes and the noise threshold and process count a
// comparison needs on this machine (docs/noise.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <memory>
#include <variant>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "report/noise.hpp"
#include "report/order_report.hpp"
#include "report/progress_printer.hpp"
#include "report/reporter.hpp"
#include "report/run_failures.hpp"
#include "session/noise.hpp"
#include "session/noise_options.hpp"
#include "session/plans.hpp"
#include "session/result_files.hpp"

namespace benchkit::cli {

namespace {

using session::NoiseCommandOptions;

// The report of the noise in `run` (samples carrying process indices; estimates need not be
// computed), printed or written to --out, and --html beside it. Returns the exit status: 0; 2
// when no benchmark ran in 2 or more processes (the report still says so) or a file cannot be
// written.
int report_noise(const RunResult& run, const NoiseCommandOptions& options,
                 const session::NoiseSubject& shown) {
  const model::Format format = options.format;
  const session::NoiseFindings findings = session::noise_findings(run);
  const report::NoiseReport noise{shown.subject, shown.example, findings.analysis,
                                  run.context.warnings, session::from_google_benchmark(run)};
  const report::Document document{.noise = &noise};
  if (auto refused = report::format_refusal(format, document)) return report_error(*refused);
  if (const int status = emit_status(
          report::plan_document({format, options.out, options.html}, document, document));
      status != 0) {
    return status;
  }
  if (findings.nothing_analysed) return report_error(*findings.nothing_analysed);
  return 0;
}

// The A/A experiment through the run pipeline, then its report: 2 when it did not run (its help
// says so: an experiment that did not run has no finding), 1 when some benchmarks failed.
int measure_and_report(session::Plan plan, const NoiseCommandOptions& options,
                       const session::NoiseSubject& shown) {
  // What it starts, each failed command as it fails, the commands' progress line.
  ProgressLine line(stderr_is_terminal());
  report::ProgressPrinter progress(line, report::ProgressOf::noise, false);
  const session::Outcome outcome = session::run(std::move(plan), progress);
  for (const model::Error& error : outcome.errors) say_error(error);
  if (!outcome.measured) return outcome.exit_status();
  const bool partial = outcome.failed_benchmarks() > 0 || !outcome.invalid_runs().empty();
  if (partial) {
    std::cerr << "warning: some benchmarks failed (see above); the others are analysed (exit "
                 "status 1)\n";
  }
  // The failed benchmarks are named above and in the report; the run still failed.
  const int status = report_noise(outcome.run, options, shown);
  // Ctrl-C comes first (Outcome::exit_status), whatever the report found.
  if (outcome.interrupted) {
    std::cerr << report::interrupted_note("the figures", "processes");
    return outcome.exit_status();
  }
  return status != 0 ? status : outcome.exit_status();
}

// The form the words ask for: a command after --, a bench binary counted both ways (counts are
// the same in every fresh process, so the noise that is left is the order), a result file, or a
// bench binary in N fresh processes.
int run_noise(const NoiseCommandOptions& options) {
  auto target = session::noise_target(options);
  if (!target) return report_error(target.error());
  if (auto* experiment = std::get_if<session::NoiseExperiment>(&*target)) {
    return measure_and_report(std::move(experiment->plan), options, experiment->shown);
  }
  if (auto* file = std::get_if<session::NoiseResultFile>(&*target)) {
    auto loaded = session::load_result_file(file->path);
    if (!loaded) return report_error({loaded.error().message, model::ErrorKind::input});
    return report_noise(*loaded, options, file->shown);
  }
  ProgressLine line(stderr_is_terminal());
  report::ProgressPrinter progress(line, report::ProgressOf::noise, false);
  const auto report =
      session::check_count_order(std::get<session::CountOrderPlan>(*target), progress);
  if (!report) return report_error(report.error());
  return print_or_write(report::render_order_report(*report, options.format), options.out);
}

}  // namespace

CommandRunner add_noise_command(CLI::App& app) {
  auto options = std::make_shared<NoiseCommandOptions>();
  CLI::App* command = app.add_subcommand("noise");
  // The words after "--" never reach CLI11 (run_tool sets them aside): trailing_arguments().
  command->add_option("target", options->target);
  command->add_option("args", options->stray_words);
  add_processes_option(*command, options->processes, 3, 1000);
  add_format_option(*command, options->format);
  add_mode_option(*command, options->mode, {session::Mode::time, session::Mode::instructions});
  command->add_option("--out", options->out);
  command->add_option("--html", options->html);
  return when_parsed(command, [options]() -> int {
    options->trailing = trailing_arguments();
    options->command_line = tool_command_line();
    return run_noise(*options);
  });
}

}  // namespace benchkit::cli
