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
                                  step.judgement.rounds, vcs::short_commit(step.reference),
                                  subject}));
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
  command.add_option("--build-dir", o.build.build_dir,
                     "CMake: the build folder whose settings (generator, build type, compilers, "
                     "flags, package folders from its CMakeCache.txt) every revision is built "
                     "with (default: the one folder in the repository holding a CMakeCache.txt)");
  command
      .add_option("--target", o.build.targets,
                  "CMake: a bench target to build and compare (repeatable; default: every "
                  "executable linking benchkit::main; a Google Benchmark target is named here "
                  "and compared as benchkit compare OLD NEW does)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--build", o.build.command,
                     "Not CMake: the shell command that builds a revision, run in its worktree; "
                     "{src} is the worktree and {build} its build folder (with --binary)");
  command.add_option("--binary", o.build.binary,
                     "With --build: the bench binary the command makes (relative to {build}, or "
                     "with {src}/{build})");
  add_rounds_option(command, o.rounds, 1);
  add_max_rounds_option(command, o.max_rounds);
  add_power_flags(command, o.comparison);
  add_budget_option(command, o.budget);
  add_time_budget_option(command, o.time_budget,
                         "default 100ms a side for bench binaries, 1s for a --cmd");
  add_worker_timeout_option(command, o.worker_timeout);
  add_format_option(command, o.format, "Format of the comparison");
  add_out_option(command, o.out, "Write the comparison in --format to this file");
  add_html_option(command, o.html);
  add_comparison_flags(command, o.comparison);
  add_color_option(command, o.color);
  add_quiet_flag(command, o.quiet);
}

}  // namespace

CommandRunner add_ab_command(CLI::App& app) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* command = app.add_subcommand(
      "ab",
      "Compare two git revisions: benchkit ab BASE [NEW] [-- BENCH FLAGS]. Each is checked out "
      "in its own worktree under .benchkit/worktrees (your checkout, index, branches and stash "
      "are not touched) and built the same way, then their bench binaries run side by side as "
      "--baseline does (with --mode instructions: each counts its benchmarks under valgrind). "
      "NEW defaults to the working tree with its uncommitted changes. Builds "
      "are kept: a second ab of the same revisions rebuilds nothing. Exit status: 0; 1 when a "
      "benchmark failed or, with --fail-on-regression, regressed; 2 for usage errors; 130 when "
      "interrupted. docs/ab.md.");
  command
      ->add_option("BASE", o->base,
                   "The revision compared against (tag, branch, commit, "
                   "HEAD~3)")
      ->required();
  command->add_option("NEW", o->candidate,
                      "The new revision (default: the working tree, uncommitted changes "
                      "included)");
  add_filter_option(*command, o->bench, "Only benchmarks", true);
  add_shard_options(*command, o->shard, nullptr);
  command
      ->add_option("--cmd", o->commands,
                   "Compare a whole command instead: run it for each build ({build}, {src} "
                   "filled in), interleaved in rounds as benchkit run does")
      ->allow_extra_args(false);
  add_fail_on_regression_flag(*command, o->fail_on_regression);
  add_record_flag(*command, o->record, "both runs (BASE and NEW)");
  add_store_option(*command, o->store);
  add_group_option(*command, o->group);
  add_mode_option(*command, o->mode, {session::Mode::time, session::Mode::instructions},
                  ": the builds' bench binaries take samples in turns; instructions: each "
                  "build's bench binary counts its benchmarks under valgrind's callgrind (as its "
                  "own --mode instructions does), compared with --count-threshold; flags after "
                  "-- such as --sample-size 2 go to both (docs/instructions.md)");
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
  CLI::App* command = app.add_subcommand(
      "bisect",
      "Find the first commit between GOOD and BAD that made --bench slower: benchkit bisect GOOD "
      "BAD --bench REGEX [-- BENCH FLAGS]. Bisects git's commit graph; each step builds one "
      "commit (in a worktree, cached) and runs it side by side with the last good one: "
      "regressed -> bad, unchanged -> good, inconclusive -> more rounds, then skipped. Every "
      "step is logged (--log); --faster looks for a speed-up. Exit status: 0 found; 1 BAD is not "
      "slower (faster) or the answer stayed "
      "undecided; 2 usage errors; 130 interrupted. docs/ab.md.");
  command->add_option("GOOD", o->good, "A revision without the regression")->required();
  command->add_option("BAD", o->bad, "A later revision with it")->required();
  add_filter_option(*command, o->bench, "The benchmarks to watch (default: every one): those",
                    true);
  command->add_option("--log", o->log,
                      "The log of every step (commit, verdict, ratio, rounds; default "
                      ".benchkit/bisect/bisect.log in the repository)");
  command->add_flag("--faster", o->faster,
                    "Find the first commit that made --bench faster instead: GOOD a revision "
                    "before the speed-up, BAD a later one with it (git bisect's old and new); a "
                    "step improved is 'faster', anything else 'not faster'");
  add_shared_flags(*command, *o);
  return when_parsed(command, [o]() -> int {
    o->trailing = trailing_arguments();
    return run_bisect(*o);
  });
}

}  // namespace benchkit::cli
