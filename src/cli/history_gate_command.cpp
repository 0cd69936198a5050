// `benchkit history check` (the CI gate) and `benchkit history report` (the Markdown snapshot):
// the parts of `history` that give verdicts.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/history_commands.hpp"
#include "cli/report_output.hpp"
#include "report/history_check_text.hpp"
#include "report/history_snapshot.hpp"
#include "report/reporter.hpp"
#include "session/history.hpp"

namespace benchkit::cli {

namespace {

int check_newest(const HistoryOptions& o) {
  const auto request = session::check_request(o);
  if (!request) return report_error(request.error());
  return with_store(o, [&](store::Store& store) {
    const auto outcome = session::check_run(store, *request);
    if (!outcome) return report_error(outcome.error());
    const report::CheckReport check{.run = outcome->candidate.id,
                                    .group = outcome->candidate.group,
                                    .shards = outcome->shards,
                                    .commit = outcome->candidate.commit,
                                    .branch = outcome->candidate.branch,
                                    .machine = outcome->candidate.machine,
                                    .base_branch = o.base_branch,
                                    .history_runs = outcome->history_runs,
                                    .comparison = &outcome->comparison,
                                    .changes = outcome->changes,
                                    .last = o.last};
    const std::string text = report::check_report(check, o.format);
    if (const int status = print_or_write(text, o.out); status != 0) return status;
    return session::check_status(o, outcome->comparison);
  });
}

int write_snapshot(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const auto snapshot = session::history_snapshot(store, session::snapshot_request(o));
    if (!snapshot) return report_error(snapshot.error());
    const std::string text = o.format == model::Format::html
                                 ? report::render_snapshot_html(*snapshot)
                                 : report::render_snapshot_markdown(*snapshot);
    if (const int status = print_or_write(text, o.out); status != 0) return status;
    if (o.html.empty()) return 0;
    return print_or_write(report::render_snapshot_html(*snapshot), o.html);
  });
}

}  // namespace

void add_gate_subcommands(CLI::App& history, const std::shared_ptr<HistoryOptions>& o,
                          HistoryActions& actions) {
  CLI::App* check = history.add_subcommand(
      "check",
      "The CI gate: is RUN (default: the newest; a run group's shards together) slower than the "
      "history of its machine on the base branch? Refused (exit status 2) while the group lacks "
      "shards. Prints the verdict table of compare (a prediction interval from the recent "
      "runs combined with RUN's own samples; docs/change-points.md), then the change points "
      "among the last N commits with their commit ranges. Exit status 1 with "
      "--fail-on-regression when a benchmark regressed.");
  check->add_option("run", o->run, "Run identity (default: the newest run)");
  check->add_option("--base-branch", o->base_branch, "The branch whose history judges (main)");
  check
      ->add_option("--last", o->last,
                   "Name change points among the last N commits (10); they are searched in the "
                   "newest max(128, N) commits of the history")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  check
      ->add_option("--expect-shards", o->expect_shards,
                   "The run is a group of N shards (--shard K/N): refuse it (exit status 2) "
                   "while fewer are recorded (default: the N its shards recorded)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  check->add_option("--wait", o->wait,
                    "Wait up to DURATION (90s, 10m) for the missing shards of the run's group "
                    "to be recorded before refusing it");
  add_fail_on_regression_flag(*check, o->fail_on_regression);
  add_output(
      *check, *o,
      {model::Format::console, model::Format::markdown, model::Format::json, model::Format::csv},
      "; markdown is the pull-request comment of compare, json and csv the verdict table "
      "alone");
  add_comparison_flags(*check, o->comparison);
  actions.push_back({check, check_newest});
  CLI::App* report = history.add_subcommand(
      "report",
      "Write the Markdown (or HTML) snapshot of a period (for perf/ in the repository): the runs "
      "compared, "
      "their commits and machines, the table of changes from the first run to the newest, the "
      "change points");
  report->add_option("--since", o->since, "Start of the period (2026-11-01)")->required();
  report->add_option("--before", o->before, "End of the period (default: now)");
  add_selection(*report, *o, false);
  add_comparison_flags(*report, o->comparison);
  add_format_choice(*report, o->format, {model::Format::markdown, model::Format::html},
                    "; html is one self-contained page, the comparison's summary table and "
                    "forest plot, then every benchmark's trend over the period with its change "
                    "points");
  add_out_option(*report, o->out);
  add_html_option(*report, o->html,
                  "the snapshot as that HTML page (opens from the file, loads nothing)");
  actions.push_back({report, write_snapshot});
}

}  // namespace benchkit::cli
