// `benchkit ab BASE [NEW]` and `benchkit bisect GOOD BAD`: flags -> plan (session/plans.hpp) ->
// session (the run pipeline for ab, session/bisect_run.hpp for bisect) -> reporter -> exit
// status. Building the revisions and running them is the session's; what it does is shown
// here, as it happens, by an observer.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "process/interrupt.hpp"
#include "report/bisect_text.hpp"
#include "report/command_table.hpp"
#include "report/progress_printer.hpp"
#include "report/reporter.hpp"
#include "report/run_failures.hpp"
#include "session/bisect_run.hpp"
#include "session/plans.hpp"
#include "session/revision_options.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::cli {
namespace {

using AbOptions = session::RevisionOptions;

// Ctrl-C is recorded (not fatal) while revisions are built and run, so that a build's process
// group is killed and the worktree being made removed; the default comes back at the end.
struct InterruptScope {
  InterruptScope() { process::install_interrupt_handler(); }
  ~InterruptScope() { process::restore_default_interrupt_action(); }
};

// Prints (or writes to --out) the comparison, after the table of the commands' runs when they
// were commands (report::plan_comparison_report); returns the exit status of the writing (0, or
// 2 for a file that could not be written or a format with no form for a comparison).
int show_comparison(const AbOptions& o, const analysis::Comparison& comparison,
                    const RunResult* commands_run) {
  if (auto refused = report::refuse_comparison_format(o.format)) return report_error(*refused);
  const report::Options options{want_color(o.color)};
  return emit_status(
      report::plan_comparison_report(
          {o.format, o.out, o.html, o.quiet}, report::OutStyle::echoed, comparison, nullptr,
          commands_run ? report::render_command_table(*commands_run, options) : std::string()),
      options);
}

// ab's outcome: where the runs were recorded, what failed, the comparison; the exit status.
int report_ab(const AbOptions& o, const session::Outcome& outcome) {
  // The lines saying where the runs were recorded stay off a machine format on stdout.
  if (outcome.measured) {
    say_what_was_kept(outcome, o.quiet || (o.format != model::Format::console && o.out.empty()));
  }
  for (const model::Error& error : outcome.errors) say_error(error);
  if (!outcome.errors.empty()) return outcome.exit_status();
  const bool commands = !o.commands.empty();
  if (const int status = show_comparison(o, *outcome.comparison, commands ? &outcome.run : nullptr);
      status != 0) {
    return status;
  }
  if (outcome.interrupted) std::cerr << report::interrupted_note("the verdicts", "rounds");
  return outcome.exit_status();
}

int run_ab(const AbOptions& o) {
  const InterruptScope interrupts;
  // Each revision's steps (unless --quiet), a progress line on a terminal, each failed benchmark
  // (or command, with --cmd) as it fails.
  ProgressLine line(!o.quiet && stderr_is_terminal());
  report::ProgressPrinter progress(
      line,
      o.commands.empty() ? report::ProgressOf::revisions : report::ProgressOf::revision_commands,
      o.quiet);
  return run_and_report(session::ab_plan(o), progress,
                        [&](const session::Outcome& outcome) { return report_ab(o, outcome); });
}

// bisect's progress: ab's, and a line per step decided.
class BisectProgress final : public report::ProgressPrinter, public session::BisectObserver {
 public:
  BisectProgress(report::ProgressSink& line, bool quiet)
      : ProgressPrinter(line, report::ProgressOf::revisions, quiet) {}
  void step_decided(const session::BisectStep& step, const std::string& subject) override {
    const session::Summary& s = step.judgement.summary;
    say(report::bisect_step_line({vcs::short_commit(step.commit), step.outcome, s.verdict,
                                  s.benchmark, s.ratio, s.ratio_lower, s.ratio_upper,
                                  step.judgement.rounds, vcs::short_commit(step.reference), subject,
                                  step.failure}));
  }
};

int report_bisect(const AbOptions& o, const session::BisectReport& report) {
  if (!report.outcome.first_bad) {
    std::vector<std::pair<std::string, std::string>> undecided;
    for (const auto& [commit, subject] : report.undecided) {
      undecided.emplace_back(vcs::short_commit(commit), subject);
    }
    std::cout << report::bisect_undecided(undecided, report.log_path, o.faster);
    return report.exit_status();
  }
  std::cout << report::bisect_found(*report.outcome.first_bad, report.first_bad_subject,
                                    report.commits_between, report.outcome.commits_tested,
                                    report.builds, report.log_path, o.faster);
  show_comparison(o, report.outcome.convicting->judgement.comparison, nullptr);
  if (report.more_change_after) {
    const session::Summary& step = report.outcome.convicting->judgement.summary;
    std::cout << "\n"
              << report::bisect_more_after(vcs::short_commit(*report.outcome.first_bad),
                                           report.outcome.ends->judgement.summary.ratio, step.ratio,
                                           step.ratio_lower, step.ratio_upper);
  }
  return report.exit_status();
}

// bisect: the session builds each commit (cached) and compares it with the reference.
int run_bisect(const AbOptions& o) {
  const InterruptScope interrupts;
  const auto plan = session::bisect_plan(o);
  if (!plan) return report_error(plan.error());
  ProgressLine line(!o.quiet && stderr_is_terminal());
  BisectProgress progress(line, o.quiet);
  const auto workshop = session::make_workshop();
  const auto report = session::bisect_revisions(*plan, *workshop, progress);
  if (!report) return report_error(report.error());
  return report_bisect(o, *report);
}

void add_shared_flags(CLI::App& command, AbOptions& o) {
  command.add_option("--build-dir", o.build.build_dir);
  command.add_option("--target", o.build.targets)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--build", o.build.command);
  command.add_option("--binary", o.build.binary);
  add_rounds_option(command, o.rounds, 1);
  add_max_rounds_option(command, o.max_rounds);
  add_power_flags(command, o.comparison);
  command.add_option("--budget", o.budget);
  command.add_option("--time-budget", o.time_budget);
  command.add_option("--worker-timeout", o.worker_timeout);
  command.add_flag("--together", o.together);
  add_format_option(command, o.format);
  command.add_option("--out", o.out);
  command.add_option("--html", o.html);
  add_comparison_flags(command, o.comparison);
  add_color_option(command, o.color);
  command.add_flag("--quiet,-q", o.quiet);
}

}  // namespace

CommandRunner add_ab_command(CLI::App& app) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* command = app.add_subcommand("ab");
  command->add_option("BASE", o->base)->required();
  command->add_option("NEW", o->candidate);
  command->add_option("--filter,--bench", o->bench);
  add_shard_options(*command, o->shard, nullptr);
  command->add_option("--cmd", o->commands)->allow_extra_args(false);
  add_fail_on_regression_flag(*command, o->fail_on_regression);
  add_recording_flags(*command, o->record, o->store, o->group);
  add_mode_option(*command, o->mode, {session::Mode::time, session::Mode::instructions});
  add_shared_flags(*command, *o);
  return when_parsed(command, [command, o]() -> int {
    o->trailing = trailing_arguments();
    o->command_line = tool_command_line();
    o->given = given_flags(*command);
    if (auto problem = session::check_ab(*o)) return report_error(*problem);
    if (auto refused = report::refuse_comparison_format(o->format)) return report_error(*refused);
    return run_ab(*o);
  });
}

CommandRunner add_bisect_command(CLI::App& app) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* command = app.add_subcommand("bisect");
  command->add_option("GOOD", o->good)->required();
  command->add_option("BAD", o->bad)->required();
  command->add_option("--filter,--bench", o->bench);
  command->add_option("--log", o->log);
  command->add_flag("--faster", o->faster);
  add_shared_flags(*command, *o);
  return when_parsed(command, [o]() -> int {
    o->trailing = trailing_arguments();
    return run_bisect(*o);
  });
}

}  // namespace benchkit::cli
