// `benchkit noise ./my_bench`: the same bench binary in N fresh processes (an A/A experiment),
// and per benchmark the spread between processes and the noise threshold and process count a
// comparison needs on this machine (docs/noise.md).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_progress.hpp"
#include "cli/commands.hpp"
#include "cli/noise_report.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "session/noise.hpp"
#include "session/plans.hpp"
#include "session/result_files.hpp"

namespace benchkit::cli {

namespace {

struct NoiseCommandOptions {
  std::string target;
  std::vector<std::string> extra;  // after --: flags for the bench binary, or the command's args
  std::vector<std::string> stray_words;  // words after the target but before "--"
  std::size_t processes = 10;
  std::string format = "console";
  std::string out;
  std::string html;
  session::Mode mode = session::Mode::time;  // instructions: the counted suite in two orders
};

// What noise shows while it runs: what it starts, each failed command as it fails, and a
// progress line of the commands on a terminal.
class NoiseProgress final : public session::Observer {
 public:
  void measuring_started(const std::string& what) override {
    std::cerr << "benchkit noise: " << what << "\n";
  }
  void command_run_started(const std::string& name, std::size_t round, bool warmup,
                           double elapsed_seconds) override {
    commands_.run_started(name, round, warmup, elapsed_seconds);
  }
  void command_failed(const std::string& name, const std::string& message) override {
    commands_.failed(name, message);
  }
  void measuring_ended() override { commands_.clear(); }

 private:
  CommandProgress commands_{stderr_is_terminal()};
};

// A result file written by a bench binary with --processes N --out FILE: analysed as it is.
bool looks_like_result_file(const std::string& target) {
  return target.size() > 5 && target.ends_with(".json") && access(target.c_str(), X_OK) != 0;
}

NoiseOptions report_options(const NoiseCommandOptions& options, std::string subject,
                            std::string example) {
  NoiseOptions report;
  report.format = options.format;
  report.out = options.out;
  report.html = options.html;
  report.subject = std::move(subject);
  report.example = std::move(example);
  return report;
}

// The A/A experiment through the run pipeline, then its report: 2 when it did not run (its help
// says so: an experiment that did not run has no finding), 1 when some benchmarks failed.
int measure_and_report(session::Plan plan, const NoiseOptions& report) {
  NoiseProgress progress;
  const session::Outcome outcome = session::run(std::move(plan), progress);
  for (const model::Error& error : outcome.errors) say_error(error);
  if (!outcome.measured) return outcome.exit_status();
  const bool partial = outcome.failed_benchmarks() > 0 || !outcome.invalid_runs().empty();
  if (partial) {
    std::cerr << "warning: some benchmarks failed (see above); the others are analysed (exit "
                 "status 1)\n";
  }
  // The failed benchmarks are named above and in the report; the run still failed.
  const int status = report_noise(outcome.run, report);
  return status != 0 ? status : outcome.exit_status();
}

// `benchkit noise --mode instructions ./bench`: counts are the same in every fresh process, so
// the noise that is left is the order: the suite counted in one process both ways.
int measure_count_order(const NoiseCommandOptions& options) {
  NoiseProgress progress;
  const auto report = session::check_count_order(
      {options.target, options.extra, analysis::kCountNoiseThreshold}, progress);
  if (!report) return report_error(report.error());
  return print_or_write(render_order_report(*report, options.format), options.out);
}

// The form the words ask for: a command after --, a bench binary counted both ways, a result
// file, or a bench binary in N fresh processes.
int run_noise(const NoiseCommandOptions& options) {
  if (options.target.empty() && !options.extra.empty()) {
    const std::string subject = fmt::format("{}", fmt::join(options.extra, " "));
    return measure_and_report(
        session::Plan{
            session::CommandNoisePlan{options.extra, options.processes, tool_command_line()}, {}},
        report_options(options, subject, "benchkit run --baseline NAME -- " + subject));
  }
  if (options.target.empty()) {
    return report_error(model::Error{
        "benchkit noise needs a bench binary (benchkit noise ./my_bench) or a command after -- "
        "(benchkit noise -- CMD ARGS…)",
        model::ErrorKind::usage});
  }
  if (!options.stray_words.empty()) {
    return report_error(model::Error{
        fmt::format("unexpected argument \"{}\": flags for the bench binary go after -- "
                    "(benchkit noise {} -- {})",
                    options.stray_words.front(), options.target, options.stray_words.front()),
        model::ErrorKind::usage});
  }
  if (options.mode == session::Mode::instructions) return measure_count_order(options);
  if (looks_like_result_file(options.target)) {
    auto loaded = session::load_result_file(options.target);
    if (!loaded) return report_error({loaded.error().message, model::ErrorKind::input});
    return report_noise(*loaded,
                        report_options(options, options.target, "BENCH_BINARY --baseline NAME"));
  }
  return measure_and_report(
      session::Plan{session::NoisePlan{options.target, options.processes, options.extra}, {}},
      report_options(options, options.target, options.target + " --baseline NAME"));
}

}  // namespace

CommandRunner add_noise_command(CLI::App& app) {
  auto options = std::make_shared<NoiseCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "noise",
      "A/A experiment: run the same bench binary in N fresh processes and report, per "
      "benchmark, how far its median moves between processes (spread, CV) and the "
      "--noise-threshold and --processes a comparison needs on this machine for at most 1% "
      "false alarms. Forms: benchkit noise ./my_bench [-- BENCH FLAGS…]; benchkit noise "
      "RESULT.json (a run made with --processes N --out); benchkit noise -- CMD ARGS… "
      "(any program, run N times by the runner of benchkit run, each run a fresh process). Exit "
      "status: 0, or 2 for bad "
      "input or a failed run.");
  // The words after "--" never reach CLI11 (run_tool sets them aside): trailing_arguments().
  command->add_option("target", options->target,
                      "The bench binary (linked with benchkit::main), or a result file");
  command->add_option("args", options->stray_words,
                      "After --: flags for the bench binary (e.g. -- --time-budget 2s --filter "
                      "sort), or the command and its arguments");
  command
      ->add_option("--processes", options->processes,
                   "Fresh processes to run (default 10; at least 3, at most 64): more give "
                   "tighter thresholds and take longer")
      ->check(CLI::Range(std::size_t{3}, std::size_t{1000}));
  add_format_option(*command, options->format, "Format of the report");
  command
      ->add_option("--mode", options->mode,
                   "time (default); instructions: count the bench binary's benchmarks under "
                   "valgrind in one process, in their order and reversed, and report the counts "
                   "that moved (order-dependent results; docs/instructions.md)")
      ->transform(mode_names({session::Mode::time, session::Mode::instructions}));
  command->add_option("--out", options->out, "Write the report to this file instead of stdout");
  add_html_option(*command, options->html);
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    options->extra = trailing_arguments();
    return run_noise(*options);
  };
}

}  // namespace benchkit::cli
