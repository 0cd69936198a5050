// `benchkit history ...`: the runs kept across commits (docs/history.md). Each subcommand is
// flags -> request -> session/history -> reporter -> exit status.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/history_commands.hpp"
#include "cli/report_output.hpp"
#include "report/history_lines.hpp"
#include "report/reporter.hpp"
#include "report/trend.hpp"
#include "session/history.hpp"
#include "session/run_groups.hpp"
#include "store/atomic_file.hpp"
#include "store/open_store.hpp"

namespace benchkit::cli {

namespace {

int list_runs(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const auto runs = store.list(session::run_query(o));
    if (!runs) return report_error(runs.error());
    // A run group's shards are one run (session/run_groups.hpp).
    const std::vector<session::JoinedRun> joined = session::join_groups(*runs);
    if (o.format == model::Format::json) {
      return print_or_write(session::runs_document(joined, store.location()), o.out);
    }
    std::string text = report::runs_in(joined.size(), store.location());
    const session::RunsTable table = session::runs_table(joined);
    if (!table.rows.empty()) text += report::render_table(table.header, table.rows, table.right);
    return print_or_write(text, o.out);
  });
}

int show_run(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const auto joined = session::find_joined(store, o.run);
    if (!joined) return report_error(joined.error());
    const auto run = session::load_joined_run(store, *joined);
    if (!run) return report_error(run.error());
    return print_or_write(
        report::make_reporter(o.format)->render(report::Document{.results = &*run}), o.out);
  });
}

int add_files(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    // One file at a time, each line printed (and flushed) once its run is committed: when a later
    // file fails, the lines say which runs are in the history.
    for (const std::string& file : o.files) {
      const auto recorded = session::add_result_files(store, {file}, o.group);
      if (!recorded) return report_error(recorded.error());
      const session::Recorded& one = recorded->front();
      std::cout << report::recorded_file(one.added, one.id, file) << std::flush;
    }
    return 0;
  });
}

// `history trend` in a format written as it is made (console, markdown, csv): each benchmark's
// lines go out once its change points are marked, to stdout or through the atomic writer's
// stream (a file abandoned, the old one kept, when the history fails midway); the trend of every
// benchmark of a fleet's history (ten million lines) is never one string (docs/history.md, "Fleet
// scale").
int stream_trend_text(store::Store& store, const session::SeriesRequest& request,
                      report::Format format, const std::string& out) {
  const auto write = [&](std::ostream& stream) -> std::optional<model::Error> {
    std::size_t benchmarks = 0;
    const auto streamed = session::stream_trend(
        store, request,
        session::TrendStream{
            .start =
                [&](const analysis::Trend& head) { stream << report::trend_head(head, format); },
            .render =
                [format](const analysis::BenchmarkTrend& benchmark, std::string& text) {
                  report::append_trend_part(text, benchmark, format);
                },
            .each =
                [&](analysis::BenchmarkTrend&, std::string& text) {
                  ++benchmarks;
                  stream << text;
                }});
    if (!streamed) return streamed.error();
    stream << report::trend_end(benchmarks, format);
    return std::nullopt;
  };
  if (!out.empty()) {
    const auto written = store::write_file_unless_failed(out, write);
    return written ? 0 : report_error(written.error());
  }
  const std::optional<model::Error> failed = write(std::cout);
  std::cout.flush();
  return failed ? report_error(*failed) : 0;
}

int show_trend(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const session::SeriesRequest request = session::trend_request(o);
    const model::Format format = o.format;
    if (report::streams_trend(format) && o.html.empty()) {
      return stream_trend_text(store, request, format, o.out);
    }
    const auto trend = session::history_trend(store, request);
    if (!trend) return report_error(trend.error());
    if (const int status = print_or_write(report::render_trend(*trend, format), o.out);
        status != 0) {
      return status;
    }
    if (o.html.empty()) return 0;
    return print_or_write(report::render_trend(*trend, report::Format::html), o.html);
  });
}

int export_history(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const auto text = session::export_runs(store, session::run_query(o));
    if (!text) return report_error(text.error());
    return print_or_write(*text, o.out);
  });
}

int import_history(const HistoryOptions& o) {
  return with_store(o, [&](store::Store& store) {
    const auto added = session::import_runs(store, o.file);
    if (!added) return report_error(added.error());
    std::cout << report::imported_runs(*added, o.file, store.location());
    return 0;
  });
}

int prune_history(const HistoryOptions& o) {
  const auto request = session::prune_request(o);
  if (!request) return report_error(request.error());
  return with_store(o, [&](store::Store& store) {
    const auto removed = session::prune(store, *request);
    if (!removed) return report_error(removed.error());
    std::cout << report::removed_runs(*removed, store.location());
    return 0;
  });
}

}  // namespace

int with_store(const HistoryOptions& o, const std::function<int(store::Store&)>& body) {
  auto store = store::open_history(store::history_location(o.store));
  if (!store) return report_error(store.error());
  return body(**store);
}

void add_output(CLI::App& command, HistoryOptions& o, const std::vector<model::Format>& formats) {
  add_format_choice(command, o.format, formats);
  command.add_option("--out", o.out);
}

void add_selection(CLI::App& command, HistoryOptions& o, bool dates) {
  command.add_option("--machine", o.machine);
  command.add_option("--branch", o.branch);
  if (dates) {
    command.add_option("--since", o.since);
    command.add_option("--before", o.before);
  }
}

void add_reading_subcommands(CLI::App& history, const std::shared_ptr<HistoryOptions>& o,
                             HistoryActions& actions) {
  CLI::App* add = history.add_subcommand("add");
  add->add_option("files", o->files)->required();
  add->add_option("--group", o->group);
  actions.push_back({add, add_files});
  CLI::App* list = history.add_subcommand("list");
  add_selection(*list, *o, true);
  add_output(*list, *o, {model::Format::console, model::Format::json});
  actions.push_back({list, list_runs});
  CLI::App* show = history.add_subcommand("show");
  show->add_option("run", o->run)->required();
  add_format_option(*show, o->format);
  show->add_option("--out", o->out);
  actions.push_back({show, show_run});
  CLI::App* trend = history.add_subcommand("trend");
  trend->add_option("regex", o->pattern)->required();
  add_selection(*trend, *o, true);
  add_output(*trend, *o,
             {model::Format::console, model::Format::markdown, model::Format::json,
              model::Format::csv, model::Format::html});
  trend->add_option("--html", o->html);
  actions.push_back({trend, show_trend});
  CLI::App* out = history.add_subcommand("export");
  add_selection(*out, *o, true);
  out->add_option("--out", o->out);
  actions.push_back({out, export_history});
  CLI::App* in = history.add_subcommand("import");
  in->add_option("file", o->file)->required();
  actions.push_back({in, import_history});
  CLI::App* prune = history.add_subcommand("prune");
  prune->add_option("--keep", o->keep);
  prune->add_option("--before", o->before);
  actions.push_back({prune, prune_history});
}

CommandRunner add_history_command(CLI::App& app) {
  auto options = std::make_shared<HistoryOptions>();
  CLI::App* history = app.add_subcommand("history");
  history->require_subcommand(1);
  auto actions = std::make_shared<HistoryActions>();
  add_reading_subcommands(*history, options, *actions);
  add_gate_subcommands(*history, options, *actions);
  for (const auto& [command, action] : *actions) add_store_option(*command, options->store);
  return when_parsed(history, [options, actions]() -> int {
    for (const auto& [command, action] : *actions) {
      if (command->parsed()) return action(*options);
    }
    return report_error(
        model::Error{"benchkit history needs a subcommand; run benchkit history --help to see them",
                     model::ErrorKind::usage});
  });
}

}  // namespace benchkit::cli
