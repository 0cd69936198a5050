// The bench binary's command line: flags -> session::Plan -> the run pipeline
// (session/pipeline.hpp) -> reporter -> exit status.
// Exit status: 0 success; 1 a benchmark failed (threw, crashed, hung or exited; a scenario's
// verify failed) or --fail-on-regression found a regression; 2 a usage or input error;
// 130 interrupted.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/bench_flags.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "clock/phase_trace.hpp"
#include "model/duration.hpp"
#include "process/handshake.hpp"
#include "process/worker_invocation.hpp"
#include "process/worker_protocol.hpp"
#include "report/profile_report.hpp"
#include "report/progress_printer.hpp"
#include "report/reporter.hpp"
#include "report/run_failures.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"
#include "session/profiled.hpp"
#include "session/shard.hpp"
#include "session/skips.hpp"
#include "session/worker.hpp"
#include "store/atomic_file.hpp"
#include "store/redaction.hpp"

namespace benchkit {
namespace {

using cli::BenchFlags;
using cli::report_error;

// --out rewritten (atomically) after each benchmark, so that even a kill -9 of the whole run keeps
// every benchmark finished before it. A failed checkpoint is said once, as a warning; the final
// write reports it again as an error.
class OutCheckpoints {
 public:
  OutCheckpoints(std::string out, report::Format format, std::string command_line)
      : out_(std::move(out)), format_(format), command_line_(std::move(command_line)) {}

  void operator()(const RunResult& so_far, report::ProgressSink& sink) {
    // The session records the command line (RunSettings::command_line): the run so far is
    // rendered as it is, not copied with all its samples to add it.
    std::optional<RunResult> with_command_line;
    if (so_far.context.command_line != command_line_) {
      with_command_line = so_far;
      with_command_line->context.command_line = command_line_;
    }
    const RunResult& run = with_command_line ? *with_command_line : so_far;
    const auto reporter = report::make_reporter(format_, {});
    const auto written = store::write_file_atomically(
        out_, [&](std::ostream& out) { reporter->write(report::Document{.results = &run}, out); });
    if (!written && !warned_) {
      warned_ = true;
      sink.print("warning: " + written.error().message);
    }
  }

 private:
  std::string out_;
  report::Format format_;
  std::string command_line_;
  bool warned_ = false;
};

// Reports what the pipeline measured and saved, where report::plan_run_report sends each
// document; returns the exit status (Outcome::exit_status). `sync`: how --out reaches the disk (a
// driver's worker writes a scratch file that its driver reads at once and that a crash loses
// anyway: no flush).
int report_outcome(const BenchFlags& flags, report::Format format, session::Outcome& outcome,
                   store::DiskSync& sync = store::system_disk_sync()) {
  const std::vector<model::Error> pipeline_errors = outcome.errors;
  if (!outcome.measured) {
    for (const model::Error& error : pipeline_errors) cli::say_error(error);
    return outcome.exit_status();
  }
  const report::Options options{cli::want_color(flags.color)};
  const report::RunReport plan =
      report::plan_run_report({format, flags.out, flags.html, flags.quiet}, outcome.run,
                              outcome.comparison ? &*outcome.comparison : nullptr);
  for (model::Error& error : cli::emit(plan.results, options, sync)) {
    outcome.errors.push_back(std::move(error));
  }
  // A baseline or a history that could not be written, said after the results it would have kept.
  for (const model::Error& error : pipeline_errors) cli::say_error(error);
  cli::say_what_was_kept(outcome, plan.kept_quietly);
  cli::emit(plan.verdicts, options);
  // On stderr, whatever the format: every scenario whose verify failed, every benchmark that
  // failed to run (with its cause), an interruption.
  std::vector<std::string> kept_in;
  if (!flags.out.empty()) kept_in.push_back(flags.out);
  if (outcome.saved) kept_in.push_back("baseline " + outcome.saved->name);
  const report::RunFailures failures =
      report::bench_failures(outcome.run, outcome.invalid_runs(), outcome.interrupted, kept_in);
  for (const std::string& error : failures.errors) cli::say_error(model::Error{error});
  std::cerr << failures.note;
  return outcome.exit_status();
}

// --profile-time: the one chosen benchmark's routine, in this process, for a profiler the user
// attaches, or with the markers and summary file of `benchkit profile` (its worker).
int run_profiled(const session::ProfiledRequest& request, bool quiet,
                 const session::RunSettings& settings,
                 const std::vector<measure::Instance>& chosen) {
  const auto routine =
      session::run_profiled(request, settings, chosen, [&](const std::string& name) {
        if (!quiet) std::cerr << report::profiling_started(name, ::getpid(), request.shown);
      });
  if (!routine) return report_error(routine.error());
  if (!quiet) {
    std::cerr << report::profiled_summary(routine->benchmark, routine->iterations,
                                          routine->timed_ns);
  }
  return 0;
}

// The user's command line: measure the chosen benchmarks through the pipeline and report.
int measure_and_report(const BenchFlags& flags, session::RunSettings settings,
                       session::Chosen chosen) {
  const std::vector<BenchmarkResult> skipped = chosen.skipped;
  auto plan = session::plan_for(flags, std::move(settings), std::move(chosen));
  if (plan && !flags.quiet) {
    for (const BenchmarkResult& result : skipped) {
      std::cerr << session::describe_skip(result) << "\n";
    }
  }
  const report::Format format = cli::output_format(flags);
  // A progress line on a terminal, each failed benchmark on stderr as it fails, --out rewritten
  // after each benchmark.
  cli::ProgressLine line(!flags.quiet && cli::stderr_is_terminal());
  report::Checkpoint checkpoints;
  if (!flags.out.empty()) checkpoints = OutCheckpoints(flags.out, format, flags.command_line);
  report::ProgressPrinter progress(line, report::ProgressOf::bench_binary, flags.quiet,
                                   std::move(checkpoints));
  return cli::run_and_report(std::move(plan), progress, [&](session::Outcome& outcome) {
    return report_outcome(flags, format, outcome);
  });
}

int list_names(const std::vector<measure::Instance>& chosen) {
  for (const auto& instance : chosen) std::cout << instance.name << "\n";
  return 0;
}

// What a driver's worker (session/worker.hpp) shows and writes: a turns worker's result to
// --out as `--quiet --out FILE` writes it, a profiled routine's lines, the names listed.
class WorkerOutput final : public session::WorkerHost {
 public:
  int refused(const model::Error& error) override { return report_error(error); }
  int list(const std::vector<measure::Instance>& chosen) override { return list_names(chosen); }
  int take_turns(const process::WorkerInvocation& invocation, session::Plan plan) override {
    BenchFlags output;
    output.out = invocation.out;
    output.quiet = invocation.quiet;
    const report::Format format = cli::output_format(output);
    // The driver reads --out once this worker ended, from its temporary folder: no checkpoint
    // (the one benchmark is written once, at the end) and no flush to the disk, which took 4 of
    // the worker's fsyncs and 13 ms of each worker on this VM (docs/verdicts.md, "Where a
    // comparison's seconds go").
    cli::ProgressLine line(!output.quiet && cli::stderr_is_terminal());
    report::ProgressPrinter progress(line, report::ProgressOf::bench_binary, output.quiet);
    session::Outcome outcome = session::run(std::move(plan), progress);
    const clock::TracedPhase writing("write");
    return report_outcome(output, format, outcome, store::scratch_disk_sync());
  }
  int profile(const session::ProfiledRequest& request, bool quiet,
              const session::RunSettings& settings,
              const std::vector<measure::Instance>& chosen) override {
    return run_profiled(request, quiet, settings, chosen);
  }
};

}  // namespace

int run_main(int argc, char** argv) {
  if (clock::phase_trace_enabled()) {
    const std::int64_t now = clock::trace_now_ns();
    clock::trace_phase("main", now, now);
  }
  const std::vector<std::string> words(argv + std::min(argc, 1), argv + argc);
  // The handshake answers before anything else is read (process/handshake.hpp).
  if (std::find(words.begin(), words.end(), std::string(process::worker::kInfoFlag)) !=
      words.end()) {
    std::cout << process::bench_info_line() << std::flush;
    return 0;
  }
  // A driver's worker is handed off before the user's flags are parsed: its flags are the
  // driver's (process/worker_invocation.hpp).
  if (process::WorkerInvocation::is_worker(words)) {
    const std::string command_line = store::recorded_command_line(argc, argv);
    WorkerOutput output;
    return session::run_worker(words, command_line, output);
  }
  BenchFlags flags;
  CLI::App app{"", argc > 0 ? argv[0] : "bench"};
  cli::add_bench_flags(app, flags);
  if (cli::asks_for_help(argc, argv)) cli::describe(app, "./my_bench");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    const std::string program = argc > 0 ? argv[0] : "the benchmark binary";
    return report_error(model::Error{fmt::format("{}{}\n{}Run {} --help to see every flag.",
                                                 error.what(), session::gbench_flag_hint(words),
                                                 cli::misspelt_flags(app, program, words), program),
                                     model::ErrorKind::usage});
  }
  flags.given = cli::given_flags(app);
  flags.command_line = store::recorded_command_line(argc, argv);
  if (auto problem = session::check_mode(flags)) return report_error(*problem);
  session::default_processes(flags);
  auto settings = session::run_settings(flags);
  if (!settings) return report_error(settings.error());
  auto chosen = session::choose_for_run(flags);
  if (!chosen) return report_error(chosen.error());
  if (flags.list) {
    // Empty, not an error (a driver lists each build, and a new benchmark is in one only); said.
    if (chosen->chosen.empty() && !flags.filter.empty()) {
      std::cerr << "note: no benchmark matches --filter \"" << flags.filter << "\"\n";
    }
    return list_names(chosen->chosen);
  }
  if (chosen->shard && !flags.quiet) std::cerr << session::describe_shard(*chosen->shard) << "\n";
  if (!flags.profile_time.empty()) {
    return run_profiled({model::parse_duration_ns(flags.profile_time), flags.profile_time},
                        flags.quiet, *settings, chosen->chosen);
  }
  return measure_and_report(flags, std::move(*settings), std::move(*chosen));
}

}  // namespace benchkit
