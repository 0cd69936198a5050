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
  CLI::App* check = history.add_subcommand("check");
  check->add_option("run", o->run);
  check->add_option("--base-branch", o->base_branch);
  check->add_option("--last", o->last)->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  check->add_option("--expect-shards", o->expect_shards)
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  check->add_option("--wait", o->wait);
  add_fail_on_regression_flag(*check, o->fail_on_regression);
  add_output(
      *check, *o,
      {model::Format::console, model::Format::markdown, model::Format::json, model::Format::csv});
  add_comparison_flags(*check, o->comparison);
  actions.push_back({check, check_newest});
  CLI::App* report = history.add_subcommand("report");
  report->add_option("--since", o->since)->required();
  report->add_option("--before", o->before);
  add_selection(*report, *o, false);
  add_comparison_flags(*report, o->comparison);
  add_format_choice(*report, o->format, {model::Format::markdown, model::Format::html});
  report->add_option("--out", o->out);
  report->add_option("--html", o->html);
  actions.push_back({report, write_snapshot});
}

}  // namespace benchkit::cli
