// `benchkit run`: flags -> a session::Plan (whole commands interleaved in rounds, a command
// counted under callgrind, or a Google Benchmark binary in fresh processes) -> the run pipeline
// (session/pipeline.hpp) -> the table, the comparisons and the exports -> the exit status. A
// benchkit bench binary is handed its flags and run instead (it has the pipeline of its own).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <variant>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "report/progress_printer.hpp"
#include "report/reporter.hpp"
#include "report/run_summary.hpp"
#include "session/gbench_binary.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"
#include "session/run_options.hpp"

namespace benchkit::cli {
namespace {

using session::RunOptions;

// `benchkit run ./my_bench`: the binary runs itself in fresh worker processes and merges them.
int run_bench_binary(const RunOptions& o, const session::BenchBinaryCommand& bench) {
  if (!o.quiet) std::cerr << report::bench_binary_start_line(bench.argv);
  const auto status = session::run_bench_binary(bench);
  return status ? *status : report_error(status.error());
}

// Writes every requested export; says why each that cannot be written could not, and returns
// those errors (kind input: exit status 2).
std::vector<model::Error> write_exports(const RunOptions& o, const RunResult& run) {
  return emit(
      report::plan_exports({o.export_json, o.export_markdown, o.export_csv, o.export_junit}, run),
      {});
}

using report::RunKind;

// What is about to run, on stderr.
void say_what_runs(const RunOptions& o, const session::Plan& plan) {
  if (o.quiet) return;
  if (const auto* commands = std::get_if<session::CommandsPlan>(&plan.what)) {
    std::cerr << report::commands_start_line(commands->planned.measured(),
                                             commands->planned.shell_probe, o.order);
  } else if (const auto* counted = std::get_if<session::CountedCommandPlan>(&plan.what)) {
    std::cerr << report::counted_start_line(counted->request.argv, counted->request.runs);
  }
}

// The results with how they were measured, and the comparisons (report::run_summary).
std::string summary_text(const RunOptions& o, RunKind kind, bool beside,
                         const session::Outcome& outcome, const report::Options& options) {
  report::RunSummary summary{.kind = kind, .baseline = o.baseline};
  if (outcome.rounds) {
    summary.rounds = outcome.rounds->count;
    summary.stop_reason = outcome.rounds->stop_reason;
    if (outcome.rounds->against_reference) {
      summary.against_reference = &*outcome.rounds->against_reference;
      summary.reference = outcome.rounds->reference;
    }
  }
  summary.processes = o.processes == 0 ? session::kGbenchProcesses : o.processes;
  // Side by side with a baseline's kept binary: rounds of process pairs, said by the comparison.
  if (beside) summary.processes = 0;
  if (kind == RunKind::gbench && summary.processes > 0) {
    summary.program = o.positional.front();
    summary.interrupted = outcome.interrupted;
    summary.min_time_s = session::gbench_process_min_time(o.trailing, summary.processes);
  }
  if (outcome.comparison) summary.against_baseline = &*outcome.comparison;
  return report::run_summary(outcome.run, summary, options);
}

// The exports, the results and comparisons, the HTML page, what was saved and what failed;
// returns the exit status (Outcome::exit_status).
int report_outcome(const RunOptions& o, RunKind kind, bool beside, session::Outcome& outcome) {
  const std::vector<model::Error> pipeline_errors = outcome.errors;
  if (!outcome.measured) {
    for (const model::Error& error : pipeline_errors) say_error(error);
    return outcome.exit_status();
  }
  const RunResult& run = outcome.run;
  for (model::Error& error : write_exports(o, run)) outcome.errors.push_back(std::move(error));
  const report::Options options{want_color(o.color)};
  if (!o.quiet) std::cout << summary_text(o, kind, beside, outcome, options);
  // A --reference that names no command, a baseline or a history that could not be written.
  for (const model::Error& error : pipeline_errors) say_error(error);
  if (!o.html.empty()) {
    // One page: the results, and the comparison that decides.
    const report::Output page{
        .path = o.html,
        .format = report::Format::html,
        .document = {.results = &run, .comparison = outcome.deciding_comparison()}};
    for (model::Error& error : emit({page}, options)) outcome.errors.push_back(std::move(error));
  }
  say_what_was_kept(outcome, o.quiet);
  std::cout.flush();
  const report::RunFailures failures =
      report::run_failures(run, kind, outcome.interrupted, o.export_json);
  for (const std::string& error : failures.errors) say_error(model::Error{error});
  std::cerr << failures.note;
  return outcome.exit_status();
}

// `benchkit run`: a bench binary, `-- CMD ARGS`, or --cmd (several).
int run_commands(const RunOptions& o) {
  auto target = session::plan_for(o);
  if (!target) return report_error(target.error());
  if (auto* bench = std::get_if<session::BenchBinaryCommand>(&*target)) {
    return run_bench_binary(o, *bench);
  }
  session::Plan& plan = std::get<session::Plan>(*target);
  const RunKind kind =
      std::holds_alternative<session::CountedCommandPlan>(plan.what) ? RunKind::counted
      : std::holds_alternative<session::CommandsPlan>(plan.what)     ? RunKind::commands
                                                                     : RunKind::gbench;
  // A Google Benchmark binary beside a baseline's kept binary (session::gbench_plan).
  const bool beside = std::holds_alternative<session::BinariesPlan>(plan.what);
  say_what_runs(o, plan);
  // The commands' progress line and failures, the exports rewritten at each checkpoint, the
  // processes of a Google Benchmark binary, and a note on how the runs are made.
  ProgressLine line(!o.quiet && stderr_is_terminal());
  report::ProgressPrinter progress(
      line, report::ProgressOf::run, o.quiet,
      [&o](const RunResult& so_far, report::ProgressSink&) { write_exports(o, so_far); });
  session::Outcome outcome = session::run(std::move(plan), progress);
  return report_outcome(o, kind, beside, outcome);
}

}  // namespace

namespace {

// How the commands are run and measured: shell, runs and budget, hooks, parameters, timeout,
// input and output, pinning, environment, order.
void add_measuring_flags(CLI::App& command, RunOptions& o) {
  command.add_flag("--shell{/bin/sh}", o.shell);
  command.add_option("--warmup", o.warmup);
  command.add_option("--runs", o.runs);
  command.add_option("--min-runs", o.min_runs);
  command.add_option("--max-runs", o.max_runs);
  command.add_option("--time-budget", o.time_budget);
  add_precision_option(command, o.precision);
  command.add_option("--setup", o.setup);
  command.add_option("--prepare", o.prepare);
  command.add_option("--conclude", o.conclude);
  command.add_option("--cleanup", o.cleanup);
  command.add_option("--parameter-scan", o.scans)
      ->expected(3)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--parameter-step-size", o.step);
  command.add_option("--parameter-list", o.lists)
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--timeout", o.timeout)->check(CLI::PositiveNumber);
  command.add_flag("--ignore-failure{all}", o.ignore_failure);
  command.add_option("--input", o.input);
  command.add_option("--output", o.output);
  command.add_option("--pin", o.pin);
  command.add_option("--env", o.env)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--order", o.order)->check(CLI::IsMember({"alternate", "random"}));
  command.add_option("--seed", o.seed);
}

// What is written and compared: the reference, the exports, the baseline, the history.
void add_output_flags(CLI::App& command, RunOptions& o) {
  command.add_option("--reference", o.reference);
  command.add_option("--export-json", o.export_json);
  command.add_option("--export-markdown", o.export_markdown);
  command.add_option("--export-csv", o.export_csv);
  command.add_option("--export-junit", o.export_junit);
  command.add_option("--html", o.html);
  command.add_flag("--quiet,-q", o.quiet);
  add_color_option(command, o.color);
  add_comparison_flags(command, o.comparison);
  command.add_option("--save-baseline", o.save_baseline);
  command.add_option("--baseline", o.baseline);
  add_fail_on_regression_flag(command, o.fail_on_regression);
  add_recording_flags(command, o.record, o.store, o.group);
  command.add_option("--filter", o.filter);
  add_shard_options(command, o.shard, &o.shard_by);
  add_processes_option(command, o.processes, 1, 64);
  add_rounds_option(command, o.rounds, 1);
  add_max_rounds_option(command, o.max_rounds);
  command.add_option("--budget", o.budget);
  command.add_flag("--together", o.together);
}

}  // namespace
CommandRunner add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run");
  command->add_option("program", o->positional);
  command->add_option("--cmd", o->commands)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_option("--name", o->names)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_measuring_flags(*command, *o);
  add_output_flags(*command, *o);
  add_mode_option(*command, o->mode,
                  {session::Mode::time, session::Mode::instructions, session::Mode::counters});
  return when_parsed(command, [command, o]() -> int {
    o->trailing = trailing_arguments();
    o->command_line = tool_command_line();
    o->flag_order = given_flags(*command);
    return run_commands(*o);
  });
}

}  // namespace benchkit::cli
