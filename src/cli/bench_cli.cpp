// The bench binary's command line: flags -> request -> session -> reporter -> exit status.
// Exit status: 0 success; 1 a benchmark failed (threw, crashed, hung or exited; a scenario's
// verify failed) or --fail-on-regression found a regression; 2 a usage or input error;
// 130 interrupted.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "analysis/compare.hpp"
#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "benchkit/bench.hpp"
#include "benchkit/registry.hpp"
#include "cli/bench_flags.hpp"
#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "clock/callgrind.hpp"
#include "clock/perf_counters.hpp"
#include "clock/profile_markers.hpp"
#include "formats/result_json.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "process/interrupt.hpp"
#include "process/spawn.hpp"
#include "process/temporary_folder.hpp"
#include "process/worker_protocol.hpp"
#include "report/reporter.hpp"
#include "session/ab.hpp"
#include "session/counted.hpp"
#include "session/profiled.hpp"
#include "session/result_files.hpp"
#include "session/runner.hpp"
#include "session/side_by_side.hpp"
#include "session/skips.hpp"
#include "session/suite.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"
#include "store/redaction.hpp"

namespace benchkit {
namespace {

using cli::BenchFlags;
namespace worker = process::worker;

using cli::report_error;

// The binary kept with --baseline NAME when the comparison can run it side by side; otherwise
// nothing, and `note` says why the saved samples are compared instead.
std::optional<std::string> side_by_side_binary(const cli::BenchFlags& flags, bool have_baseline,
                                               std::string& note) {
  if (flags.baseline.empty() || !have_baseline || flags.saved_samples || flags.test ||
      flags.worker_stream >= 0 || flags.turns_fd >= 0) {
    return std::nullopt;
  }
  const auto kept = store::baseline_executable(flags.baseline);
  if (!kept) {
    note = fmt::format(
        "compared with the samples saved in baseline {}: no bench binary was kept with it to run "
        "again side by side (save it with this version's --save-baseline to get that)",
        flags.baseline);
    return std::nullopt;
  }
  const auto handshake = process::probe_bench_binary(*kept);
  if (!handshake || !handshake->benchkit || !handshake->turns) {
    note = fmt::format(
        "compared with the samples saved in baseline {}: its kept binary {} cannot run side by "
        "side ({})",
        flags.baseline, *kept,
        !handshake             ? handshake.error().message
        : !handshake->benchkit ? handshake->problem
                               : "it was built with a benchkit that cannot take turns");
    return std::nullopt;
  }
  return kept;
}

// The checks that failed, once per invalid scenario run (its phases all carry them) or
// invalid benchmark, in the order of the results.
std::vector<std::pair<std::string, std::vector<std::string>>> invalid_runs(const RunResult& run) {
  std::vector<std::pair<std::string, std::vector<std::string>>> invalid;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.valid() || benchmark.failure) continue;
    const std::string name = benchmark.kind == "scenario"
                                 ? benchmark.name.substr(0, benchmark.name.rfind('/'))
                                 : benchmark.name;
    if (invalid.empty() || invalid.back().first != name) {
      invalid.emplace_back(name, benchmark.failures);
    }
  }
  return invalid;
}

// The command line the results keep, without the password of a --store URL.
std::string command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) text += ' ';
    text += argv[i];
  }
  return store::redact_passwords(text);
}

// Saves the run as baseline --save-baseline, with this bench binary so that --baseline can run
// it again beside a new build. Returns the exit status (2 when it cannot be saved).
int save_baseline(const BenchFlags& flags, const RunResult& run, bool quiet) {
  const auto saved = store::save_baseline(flags.save_baseline, formats::to_json(run));
  if (!saved) return report_error(saved.error());
  const auto kept =
      store::save_baseline_executable(flags.save_baseline, process::self_executable());
  if (!kept) {
    std::cerr << fmt::format(
        "warning: the bench binary was not kept with baseline {} ({}): comparisons against it "
        "will use its saved samples\n",
        flags.save_baseline, kept.error().message);
  }
  if (!flags.quiet && !quiet) {
    std::cout << fmt::format(
        "baseline {} saved to {}{}\n", flags.save_baseline, saved->path,
        kept ? fmt::format(" (with its bench binary, {})", kept->path) : std::string());
  }
  return 0;
}

// Names on stderr, whatever the format, every benchmark that failed to run (with its cause) and
// every scenario whose verify failed; returns 1 when there is any, else 0.
int say_what_failed(const RunResult& run) {
  std::vector<const BenchmarkResult*> failed;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.failure) failed.push_back(&benchmark);
  }
  const auto invalid = invalid_runs(run);
  for (const auto& [name, checks] : invalid) {
    for (const std::string& check : checks) {
      std::cerr << fmt::format("error: {} is invalid: {}\n", name, check);
    }
  }
  if (!failed.empty()) {
    std::cerr << fmt::format("{} benchmark(s) failed; every other benchmark is measured{}:\n",
                             failed.size(),
                             run.benchmarks.size() > failed.size() ? " and kept" : "");
    for (const BenchmarkResult* benchmark : failed) {
      std::cerr << fmt::format("  {}: {}\n", benchmark->name, benchmark->failures.front());
    }
    return 1;
  }
  if (!invalid.empty()) {
    std::cerr << fmt::format("{} scenario run(s) failed a check and are kept out of comparisons\n",
                             invalid.size());
    return 1;
  }
  return 0;
}

// What the user sees while the run goes: a progress line on a terminal, each failed benchmark
// on stderr as it fails, and --out rewritten (atomically) after each benchmark, so that even a
// kill -9 of the whole run keeps every benchmark finished before it.
class RunProgress final : public session::SuiteObserver {
 public:
  RunProgress(const BenchFlags& flags, report::Format format, std::string command_line)
      : flags_(flags),
        format_(format),
        visible_(!flags.quiet && cli::stderr_is_terminal()),
        command_line_(std::move(command_line)) {}

  void started(std::size_t process, std::size_t processes, std::size_t index, std::size_t total,
               const std::string& name) override {
    if (!visible_) return;
    const std::string where =
        processes > 1 ? fmt::format("[process {}/{}] ", process + 1, processes) : "";
    std::cerr << fmt::format("\r\033[K{}[{}/{}] {}", where, index + 1, total, name) << std::flush;
  }
  void failed(const BenchmarkResult& failed) override {
    clear();
    std::cerr << fmt::format("error: {} failed: {}\n", failed.name, failed.failures.front());
  }
  void checkpoint(const RunResult& so_far) override {
    if (flags_.out.empty()) return;
    // The session records the command line (RunSettings::command_line): the run so far is
    // rendered as it is, not copied with all its samples to add it.
    std::optional<RunResult> with_command_line;
    if (so_far.context.command_line != command_line_) {
      with_command_line = so_far;
      with_command_line->context.command_line = command_line_;
    }
    const RunResult& run = with_command_line ? *with_command_line : so_far;
    // A failed checkpoint is said once; the final write reports it again as an error.
    const auto reporter = report::make_reporter(format_, {});
    const auto written = store::write_file_atomically(flags_.out, [&](std::ostream& out) {
      reporter->write(report::Document{.results = &run}, out);
    });
    if (!written && !warned_) {
      warned_ = true;
      clear();
      std::cerr << "warning: " << written.error().message << "\n";
    }
  }
  void clear() const {
    if (visible_) std::cerr << "\r\033[K" << std::flush;
  }
  bool visible() const { return visible_; }

 private:
  const BenchFlags& flags_;
  report::Format format_;
  bool visible_;
  std::string command_line_;
  bool warned_ = false;
};

struct Measured {
  RunResult run;
  // The run compared against (with the baseline binary's new samples when it ran side by side).
  std::optional<RunResult> baseline;
  std::string method_note;
  bool interrupted = false;
};

// The suite of this binary as the flags ask for it: one forked worker per benchmark, all in this
// process, or N fresh processes of this executable, each with its share of the budget.
session::SuiteRequest suite_request(const BenchFlags& flags, const session::RunSettings& settings,
                                    std::vector<measure::Instance> chosen) {
  session::SuiteRequest request;
  request.settings = settings;
  request.chosen = std::move(chosen);
  request.in_process = flags.in_process || flags.turns_fd >= 0;
  request.processes = flags.test ? 1 : flags.processes;
  if (request.processes <= 1) return request;
  const auto processes = static_cast<std::int64_t>(request.processes);
  request.worker_command = {
      process::self_executable(), worker::kQuietFlag,
      // Each process gets its share of the budget and of the minimum sample count.
      worker::kTimeBudgetFlag, fmt::format("{}ns", settings.engine.time_budget_ns / processes),
      worker::kSampleSizeFlag,
      std::to_string(std::max<std::size_t>(
          5, (settings.engine.min_samples + request.processes - 1) / request.processes)),
      worker::kPrecisionFlag, fmt::format("{}", settings.engine.precision)};
  if (!flags.filter.empty()) {
    request.worker_command.insert(request.worker_command.end(),
                                  {worker::kFilterFlag, flags.filter});
  }
  if (flags.exact) request.worker_command.push_back(worker::kExactFlag);
  // The workers choose the same benchmarks as this process, skipped ones left out.
  for (const std::string& tag : flags.skip_tags) {
    request.worker_command.insert(request.worker_command.end(), {"--skip-tag", tag});
  }
  const std::vector<std::string> shared = cli::shared_worker_flags(flags, settings);
  request.worker_command.insert(request.worker_command.end(), shared.begin(), shared.end());
  return request;
}

// The names the baseline's binary lists (with this run's --param values).
model::Result<std::set<std::string>> listed_by(const std::string& binary, const BenchFlags& flags) {
  std::vector<std::string> argv = {binary, "--list"};
  for (const std::string& param : flags.params) argv.insert(argv.end(), {"--param", param});
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(30);
  const auto listed = process::run_captured(argv, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{
        fmt::format("the baseline's binary {} could not list its benchmarks ({}); compare against "
                    "the saved samples with --saved-samples",
                    binary, listed ? listed->exit.describe() : listed.error().message),
        model::ErrorKind::failed};
  }
  std::set<std::string> names;
  std::istringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.insert(line);
  }
  return names;
}

// Runs the chosen benchmarks side by side with `baseline_binary` (session/side_by_side.hpp).
// Benchmarks that binary does not have run here alone, and are reported as added.
model::Result<session::SideBySideRuns> run_beside(const BenchFlags& flags,
                                                  const session::RunSettings& settings,
                                                  const std::vector<measure::Instance>& chosen,
                                                  const std::string& baseline_binary,
                                                  RunProgress& progress) {
  const auto theirs = listed_by(baseline_binary, flags);
  if (!theirs) return theirs.error();
  session::SideBySide plan;
  plan.baseline_executable = baseline_binary;
  plan.candidate_executable = process::self_executable();
  std::vector<measure::Instance> only_here;
  for (const measure::Instance& instance : chosen) {
    if (theirs->count(instance.name)) {
      plan.benchmarks.push_back(instance.name);
    } else {
      only_here.push_back(instance);
    }
  }
  plan.rounds = flags.rounds;
  plan.max_rounds = cli::max_rounds_of(flags);
  plan.worker_timeout = std::chrono::milliseconds(flags.worker_timeout_ns / 1'000'000);
  plan.round_budget_ns = std::max<std::int64_t>(
      1'000'000, settings.engine.time_budget_ns / static_cast<std::int64_t>(flags.rounds));
  plan.worker_flags = cli::shared_worker_flags(flags, settings);
  plan.clock = session::process_clock().clock;
  plan.progress = [&](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                      const std::string& name) {
    if (!progress.visible()) return;
    std::cerr << fmt::format("\r\033[K[round {}/{}] [{}/{}] {} (baseline and new in turns{})",
                             round + 1, planned, index + 1, count, name,
                             round >= flags.rounds ? "; more rounds: still inconclusive" : "")
              << std::flush;
  };
  plan.failed = [&](const std::string& name, const std::string& message) {
    progress.clear();
    std::cerr << fmt::format("error: {} failed: {}\n", name, message);
  };
  // More rounds for the benchmarks the comparison cannot decide yet.
  const analysis::CompareSettings compare_settings = cli::comparison_settings(flags.comparison);
  const session::Undecided undecided = [&](const session::SideBySideRuns& so_far) {
    return analysis::undecided_at_interim_look(so_far.baseline, so_far.candidate, compare_settings);
  };
  auto runs = plan.benchmarks.empty()
                  ? model::Result<session::SideBySideRuns>(session::SideBySideRuns{})
                  : session::run_side_by_side(plan, undecided);
  if (!runs) {
    return model::Error{runs.error().message, process::interrupt_requested()
                                                  ? model::ErrorKind::interrupted
                                                  : model::ErrorKind::failed};
  }
  if (!only_here.empty()) {
    BenchFlags alone_flags = flags;
    alone_flags.processes = 1;
    session::SuiteOutcome alone =
        session::run_suite(suite_request(alone_flags, settings, only_here), progress);
    if (runs->candidate.benchmarks.empty()) runs->candidate.context = alone.run.context;
    for (BenchmarkResult& result : alone.run.benchmarks) {
      runs->candidate.benchmarks.push_back(std::move(result));
    }
  }
  return runs;
}

// Side by side with the baseline's kept binary: the baseline's new samples replace the saved
// ones (benchmarks it no longer ran keep theirs); the saved context still describes it.
model::Result<Measured> measure_beside(const BenchFlags& flags,
                                       const session::RunSettings& settings,
                                       const std::vector<measure::Instance>& chosen,
                                       const std::string& binary, RunResult saved,
                                       RunProgress& progress) {
  Measured measured;
  // Collected once here, not by each worker of each round (they leave it out).
  const Context context = session::run_context(settings, chosen);
  auto runs = run_beside(flags, settings, chosen, binary, progress);
  progress.clear();
  if (!runs) return runs.error();
  std::set<std::string> rerun;
  for (const BenchmarkResult& b : runs->baseline.benchmarks) rerun.insert(b.name);
  for (BenchmarkResult& old : saved.benchmarks) {
    if (!rerun.count(old.name)) runs->baseline.benchmarks.push_back(std::move(old));
  }
  runs->baseline.context = saved.context;
  measured.baseline = std::move(runs->baseline);
  measured.run = std::move(runs->candidate);
  // The rounds' own findings (machine speed, counters) join the run's context.
  std::vector<Diagnostic> found = std::move(measured.run.context.warnings);
  const std::optional<std::int64_t> peak = measured.run.context.process_peak_rss_bytes;
  measured.run.context = context;
  measured.run.context.process_peak_rss_bytes = peak;
  for (Diagnostic& warning : found) {
    const bool known =
        std::any_of(context.warnings.begin(), context.warnings.end(),
                    [&](const Diagnostic& present) { return present.code == warning.code; });
    if (!known) measured.run.context.warnings.push_back(std::move(warning));
  }
  measured.method_note = fmt::format(
      "baseline {}: its bench binary ran again beside this one, {} rounds of fresh process "
      "pairs per benchmark taking samples in turns, so both met the machine in the same "
      "state{} (--saved-samples compares the saved samples instead)",
      flags.baseline, session::rounds_taken(measured.run),
      cli::max_rounds_of(flags) > flags.rounds
          ? fmt::format("; benchmarks still inconclusive after {} got more, up to {}", flags.rounds,
                        cli::max_rounds_of(flags))
          : "");
  return measured;
}

// The command of a counted worker: valgrind, then this binary (or the baseline's) counting.
std::vector<std::string> counted_worker_command(const BenchFlags& flags,
                                                const session::RunSettings& settings,
                                                const std::string& valgrind,
                                                const session::CountedFiles& files) {
  std::vector<std::string> command = session::callgrind_command(valgrind, files, false);
  command.insert(command.end(), {process::self_executable(), worker::kQuietFlag, "--mode",
                                 "instructions", "--callgrind-dumps", files.dump_prefix()});
  if (!flags.filter.empty()) command.insert(command.end(), {worker::kFilterFlag, flags.filter});
  if (flags.exact) command.push_back(worker::kExactFlag);
  if (flags.test) command.push_back("--test");
  if (flags.sample_size > 0) {
    command.insert(command.end(), {worker::kSampleSizeFlag, std::to_string(flags.sample_size)});
  }
  const std::vector<std::string> shared = cli::shared_worker_flags(flags, settings);
  command.insert(command.end(), shared.begin(), shared.end());
  return command;
}

// The baseline's kept binary counted again now, under the same valgrind and options (counts do
// not depend on the machine's state, so the two need not take turns): its result, or the error.
model::Result<RunResult> count_baseline_binary(const BenchFlags& flags, const std::string& binary,
                                               const std::string& folder) {
  std::vector<std::string> chosen;
  if (!flags.filter.empty()) chosen.insert(chosen.end(), {"--filter", flags.filter});
  if (flags.exact) chosen.push_back("--exact");
  if (flags.sample_size > 0) {
    chosen.insert(chosen.end(), {"--sample-size", std::to_string(flags.sample_size)});
  }
  for (const std::string& param : flags.params) chosen.insert(chosen.end(), {"--param", param});
  for (const std::string& name : flags.keep_env) chosen.insert(chosen.end(), {"--keep-env", name});
  auto counted = session::count_bench_binary(binary, chosen, folder + "/baseline.json");
  if (!counted) {
    return model::Error{
        fmt::format("the baseline's bench binary could not be counted ({}); compare against the "
                    "counts saved with the baseline with --saved-samples",
                    counted.error().message),
        model::ErrorKind::failed};
  }
  return counted;
}

// --mode instructions: every benchmark in a fresh process under callgrind (session/counted.hpp),
// supervised from here; with --baseline, the baseline's binary is counted too when it was kept.
model::Result<Measured> measure_counted(const BenchFlags& flags,
                                        const session::RunSettings& settings,
                                        std::vector<measure::Instance> chosen,
                                        std::optional<RunResult> baseline, RunProgress& progress) {
  const auto valgrind = session::find_valgrind();
  if (!valgrind) return valgrind.error();
  const auto folder = process::make_temporary_folder("benchkit-callgrind");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  const session::CountedFiles files{*folder};
  Measured measured;
  if (baseline && !flags.baseline.empty() && !flags.saved_samples) {
    if (const auto kept = store::baseline_executable(flags.baseline)) {
      auto counted = count_baseline_binary(flags, *kept, *folder);
      if (!counted) return counted.error();
      counted->context = baseline->context;
      baseline = std::move(*counted);
      measured.method_note = fmt::format(
          "baseline {}: its bench binary was counted again now, under the same valgrind and "
          "options (--saved-samples compares the saved counts instead)",
          flags.baseline);
    }
  }
  if (baseline) {
    for (const BenchmarkResult& benchmark : baseline->benchmarks) {
      if (benchmark.metric.empty() && !benchmark.failure && benchmark.kind == "micro") {
        return model::Error{
            fmt::format("the baseline holds times ({} has no instruction counts), and --mode "
                        "instructions counts: save the baseline with --mode instructions, or "
                        "compare with --mode time",
                        benchmark.name),
            model::ErrorKind::input};
      }
    }
  }
  session::SuiteRequest request;
  request.settings = settings;
  request.chosen = std::move(chosen);
  request.processes = flags.test ? 1 : std::max<std::size_t>(1, flags.processes);
  request.fresh_process_each = flags.counted_order.empty();
  if (!flags.counted_order.empty()) {
    request.one_worker = true;
    request.processes = 1;
    for (std::size_t i = 0; i < request.chosen.size(); ++i) request.order.push_back(i);
    if (flags.counted_order == "reverse") std::reverse(request.order.begin(), request.order.end());
  }
  request.worker_command = counted_worker_command(flags, settings, *valgrind, files);
  request.exec.environment =
      session::counted_environment(session::current_environment(), flags.keep_env);
  request.exec.fixed_addresses = true;
  session::SuiteOutcome outcome = session::run_suite(request, progress);
  progress.clear();
  session::explain_crashes(outcome.run, *folder);
  outcome.run.context.clock["mode"] = "instructions (valgrind callgrind)";
  outcome.run.context.clock["cache_geometry"] = fmt::format(
      "{} {} {}", session::kInstructionCache, session::kDataCache, session::kLastLevelCache);
  measured.run = std::move(outcome.run);
  measured.interrupted = outcome.interrupted;
  measured.baseline = std::move(baseline);
  return measured;
}

// Measures what the flags ask for: side by side with a kept baseline binary, or the suite.
model::Result<Measured> measure_run(const BenchFlags& flags, const session::RunSettings& settings,
                                    std::vector<measure::Instance> chosen,
                                    std::optional<RunResult> baseline, RunProgress& progress) {
  if (flags.mode == "instructions") {
    return measure_counted(flags, settings, std::move(chosen), std::move(baseline), progress);
  }
  std::string note;
  const std::optional<std::string> beside = side_by_side_binary(flags, baseline.has_value(), note);
  if (beside) {
    return measure_beside(flags, settings, chosen, *beside, std::move(*baseline), progress);
  }
  session::SuiteOutcome outcome =
      session::run_suite(suite_request(flags, settings, std::move(chosen)), progress);
  progress.clear();
  Measured measured;
  measured.run = std::move(outcome.run);
  measured.interrupted = outcome.interrupted;
  measured.baseline = std::move(baseline);
  measured.method_note = note;
  return measured;
}

// Writes --out and the baseline, prints the table and the comparison, and says what failed.
int report_and_save(const BenchFlags& flags, report::Format format, Measured& measured) {
  const RunResult& run = measured.run;
  const report::Options options{cli::want_color(flags.color)};
  std::optional<analysis::Comparison> comparison;
  if (measured.baseline) {
    comparison =
        analysis::compare(*measured.baseline, run, cli::comparison_settings(flags.comparison));
    comparison->context_warning =
        session::context_differences(measured.baseline->context, run.context);
    comparison->method_note = measured.method_note;
  }
  // stdout carries one document: with a baseline and a machine format (json, csv, markdown)
  // that is the comparison; the results themselves then go to --out. html and junit hold both
  // in one document.
  const bool both_in_one = format == report::Format::html || format == report::Format::junit;
  const auto reporter = report::make_reporter(format, options);
  // A format with no form for a comparison (gbench, bmf, github-action) leaves it to the console.
  const bool comparison_on_stdout =
      comparison && flags.out.empty() && format != report::Format::console && !both_in_one &&
      reporter->refusal(report::Document{.comparison = &*comparison}).empty();
  const auto console = report::make_reporter(report::Format::console, options);
  const report::Document results{.results = &run};
  const report::Document page{.results = &run, .comparison = comparison ? &*comparison : nullptr};
  int status = 0;
  if (!flags.html.empty()) status = cli::write_html(flags.html, page);
  if (!flags.out.empty()) {
    const auto written = store::write_file_atomically(
        flags.out, [&](std::ostream& out) { reporter->write(both_in_one ? page : results, out); });
    if (!written) status = report_error(written.error());
    if (written && !flags.quiet) {
      std::cout << console->render(results);
      std::cout << fmt::format("results written to {}\n", flags.out);
    }
  } else if (both_in_one) {
    std::cout << reporter->render(page);
  } else if (!comparison_on_stdout && (!flags.quiet || format != report::Format::console)) {
    std::cout << reporter->render(results);
  }
  if (!flags.save_baseline.empty()) {
    const int saved = save_baseline(flags, run, comparison_on_stdout);
    if (saved != 0) status = saved;
  }
  if (flags.record && !measured.interrupted) {
    const int recorded =
        cli::record_in_history(flags.store, run, flags.quiet || comparison_on_stdout);
    if (recorded != 0) status = recorded;
  }
  if (comparison) {
    // Printed apart from the results (not as one document of both) because the line saying
    // where the baseline was saved comes between them.
    const report::Document verdicts{.comparison = &*comparison};
    if (comparison_on_stdout) {
      std::cout << reporter->render(verdicts);
    } else if (!flags.quiet && !(both_in_one && flags.out.empty())) {
      std::cout << "\n" << console->render(verdicts);
    }
    if (flags.fail_on_regression && comparison->any_regression() && status == 0) status = 1;
  }
  std::cout.flush();
  const int failed = say_what_failed(run);
  if (measured.interrupted) {
    std::cerr << "interrupted: the benchmarks that finished before it are shown and saved\n";
    return 130;
  }
  return status != 0 ? status : failed;
}

// A worker of --processes N: measures its share, sending each result on the stream.
int serve_as_worker(BenchFlags& flags, const session::RunSettings& settings,
                    const std::vector<measure::Instance>& chosen) {
  const auto indices = worker::parse_selection(flags.worker_select);
  if (!indices) {
    return report_error(model::Error{fmt::format("{} \"{}\" is not a list of benchmark numbers",
                                                 worker::kSelectFlag, flags.worker_select),
                                     model::ErrorKind::usage});
  }
  session::serve(settings, chosen, *indices, flags.worker_stream);
  return 0;
}

// The benchmarks the flags choose; the error says why none can run.
model::Result<std::vector<measure::Instance>> choose(const BenchFlags& flags) {
  std::vector<measure::Instance> chosen;
  try {
    chosen = session::select(measure::expand_registered(cli::parse_param_overrides(flags.params)),
                             flags.filter, flags.exact);
  } catch (const std::invalid_argument& error) {
    return model::Error{error.what(), model::ErrorKind::usage};
  }
  if (!chosen.empty() || flags.list) return chosen;
  if (measure::expand_registered().empty()) {
    return model::Error{
        "this binary registers no benchmarks; add BENCHKIT(function) next to a function taking "
        "benchkit::Bencher&, or BENCHKIT_SCENARIO(function) next to one taking "
        "benchkit::Scenario&",
        model::ErrorKind::usage};
  }
  return model::Error{fmt::format("no benchmark matches --filter \"{}\"; run with --list to see "
                                  "the names",
                                  flags.filter),
                      model::ErrorKind::usage};
}

// The baseline to compare with, read before the run so that a missing one costs nothing.
model::Result<std::optional<RunResult>> load_compared(const BenchFlags& flags) {
  if (flags.baseline.empty() && flags.baseline_file.empty()) return std::optional<RunResult>();
  auto loaded = flags.baseline.empty() ? session::load_result_file(flags.baseline_file)
                                       : session::load_baseline(flags.baseline);
  if (!loaded) return loaded.error();
  return std::optional<RunResult>(std::move(*loaded));
}

// --mode as this process can honour it: a counted worker must run under valgrind, and a run
// that is not a worker must not (benchkit starts valgrind itself); counters need the CPU's.
std::optional<model::Error> check_mode(const BenchFlags& flags) {
  const bool under_valgrind = clock::running_on_valgrind();
  const bool worker = flags.worker_stream >= 0 || flags.turns_fd >= 0;
  if (flags.mode == "instructions") {
    if (worker && (!under_valgrind || flags.callgrind_dumps.empty())) {
      return model::Error{
          "a counted worker runs under valgrind --tool=callgrind with --callgrind-dumps: start "
          "it through --mode instructions, not by hand",
          model::ErrorKind::usage};
    }
    if (!worker && under_valgrind) {
      return model::Error{
          "--mode instructions starts valgrind itself: run this binary without valgrind in "
          "front of it (or drop --mode instructions to profile it under your own valgrind)",
          model::ErrorKind::usage};
    }
    if (flags.turns_fd >= 0) {
      return model::Error{"--mode instructions does not take turns with another build",
                          model::ErrorKind::usage};
    }
  }
  if (flags.mode == "counters" && !flags.list) {
    const auto counters = clock::open_hardware_counters();
    if (!counters->available()) {
      return model::Error{
          fmt::format("--mode counters reads instructions:u from the CPU's counters, and this "
                      "machine has none ({}). Count them under simulation with --mode "
                      "instructions instead (valgrind: the same count in every run, about 50x "
                      "slower)",
                      counters->unavailable_reason()),
          model::ErrorKind::usage};
    }
  }
  return std::nullopt;
}

// --mode counters: the samples' instructions:u become the measurement (time stays in the
// counters' place as `ns_elapsed`), and the estimates are computed again from them.
void headline_counters(RunResult& run) {
  for (BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.kind != "micro" || benchmark.failure || benchmark.samples.empty()) continue;
    const bool counted =
        std::all_of(benchmark.samples.begin(), benchmark.samples.end(),
                    [](const Sample& sample) { return sample.counters.count("instructions") > 0; });
    if (!counted) continue;
    for (Sample& sample : benchmark.samples) {
      sample.counters["ns_elapsed"] = sample.ns;
      sample.ns = sample.counters["instructions"];
      sample.probe_ns.reset();
    }
    benchmark.metric = "instructions";
    // The counters are read around the timed region: their own instructions are in each sample.
    benchmark.overhead_ns_per_sample = 0.0;
    benchmark.first_iteration_ns.reset();
    benchmark.diagnostics.clear();
    analysis::compute_estimates(benchmark);
    analysis::diagnose_counted(benchmark);
  }
}

// --profile-time: the one chosen benchmark's routine, in this process, for a profiler.
int run_profiled(const BenchFlags& flags, const session::RunSettings& settings,
                 const std::vector<measure::Instance>& chosen) {
  const auto duration = cli::parse_duration_ns(flags.profile_time);
  if (!duration || *duration <= 0) {
    return report_error(model::Error{
        fmt::format("--profile-time \"{}\" is not a positive duration; write e.g. 5s or 500ms",
                    flags.profile_time),
        model::ErrorKind::usage});
  }
  if (chosen.size() != 1) {
    std::string names;
    for (std::size_t i = 0; i < chosen.size() && i < 5; ++i) {
      names += (i ? ", " : "") + chosen[i].name;
    }
    return report_error(model::Error{
        fmt::format("--profile-time runs one benchmark, and {} match ({}{}): choose one with "
                    "--filter NAME --exact",
                    chosen.size(), names, chosen.size() > 5 ? ", ..." : ""),
        model::ErrorKind::usage});
  }
  std::string problem;
  const auto markers = clock::make_profile_markers(flags.profile_markers, problem);
  if (!markers) return report_error(model::Error{problem, model::ErrorKind::usage});
  if (!flags.quiet) {
    std::cerr << fmt::format(
        "profiling {} in process {}: its set-up, one warm-up iteration, then its routine alone "
        "for {}\n",
        chosen.front().name, ::getpid(), flags.profile_time);
  }
  const auto routine = session::profile_routine(settings, chosen.front(), *duration, markers.get());
  if (!routine) return report_error(routine.error());
  if (!flags.profile_summary.empty()) {
    const auto written =
        store::write_file_atomically(flags.profile_summary, session::profiled_json(*routine));
    if (!written) return report_error(written.error());
  }
  if (!flags.quiet) {
    std::cerr << fmt::format("profiled {}: {} iterations, {:.3f} s in the routine\n",
                             routine->benchmark, routine->iterations, routine->timed_ns / 1e9);
  }
  return 0;
}

}  // namespace

int run_main(int argc, char** argv) {
  BenchFlags flags;
  CLI::App app{
      "Runs the benchmarks registered in this binary with BENCHKIT(...) and reports the median "
      "time per iteration with its 95% confidence interval, and the scenarios registered with "
      "BENCHKIT_SCENARIO(...) phase by phase.\n"
      "Sampling stops once the interval is within ±1% of the median (after at least 30 "
      "samples) or when the time budget is spent. A scenario runs once (--repetitions N).\n"
      "Every benchmark runs in a worker forked from this process: one that crashes, hangs past "
      "--timeout or exits is recorded as failed and the others still run (--in-process for a "
      "debugger).\n"
      "Exit status: 0 success; 1 a benchmark failed (threw, crashed, hung, exited), a "
      "scenario's verify failed or --fail-on-regression found a regression; 2 a usage or "
      "input error; 130 interrupted.",
      argc > 0 ? argv[0] : "bench"};
  cli::add_bench_flags(app, flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << fmt::format("error: {}\nRun {} --help to see every flag.\n", error.what(),
                             argc > 0 ? argv[0] : "the benchmark binary");
    return 2;
  }
  if (flags.benchkit_info) {
    std::cout << process::bench_info_line() << std::flush;
    return 0;
  }
  if (auto problem = check_mode(flags)) return report_error(*problem);
  if (flags.processes == 0 && flags.mode == "instructions") {
    // Counts do not change from one process to the next: one run is the whole answer.
    flags.processes = 1;
  }
  if (flags.processes == 0) {
    const bool verdict_run = !flags.save_baseline.empty() || !flags.baseline.empty() ||
                             !flags.baseline_file.empty() || flags.fail_on_regression;
    flags.processes = verdict_run ? 3 : 1;
  }
  auto settings = cli::run_settings(flags);
  if (!settings) return report_error(settings.error());
  auto chosen = choose(flags);
  if (!chosen) return report_error(chosen.error());
  std::vector<BenchmarkResult> skipped = session::take_skipped(*chosen, flags.skip_tags);
  // Scenarios are whole workloads of millions of items, timed phase by phase: under callgrind
  // they would take minutes each and their times would be the simulation's. A counted run and
  // its workers leave them out alike (the workers' benchmark numbers must match).
  std::size_t scenarios_left_out = 0;
  if (flags.mode == "instructions" && !flags.list) {
    scenarios_left_out = static_cast<std::size_t>(std::erase_if(
        *chosen, [](const measure::Instance& instance) { return instance.is_scenario(); }));
    if (chosen->empty()) {
      return report_error(
          model::Error{"--mode instructions counts micro benchmarks, and these "
                       "are all scenarios: run them with --mode time",
                       model::ErrorKind::usage});
    }
  }
  if (flags.list) {
    for (const auto& instance : *chosen) std::cout << instance.name << "\n";
    return 0;
  }
  if (flags.worker_stream >= 0) return serve_as_worker(flags, *settings, *chosen);
  if (!flags.profile_time.empty()) return run_profiled(flags, *settings, *chosen);
  if (auto problem = cli::check_before_running(flags, app)) return report_error(*problem);
  auto baseline = load_compared(flags);
  if (!baseline) return report_error(baseline.error());

  // A worker of a side-by-side comparison: one sample per turn, then its result.
  std::optional<session::TurnGate> gate;
  if (flags.turns_fd >= 0) {
    gate.emplace(flags.turns_fd);
    settings->gate = &*gate;
    settings->measuring_only = true;
  }
  const report::Format format = cli::output_format(flags);
  if (!flags.quiet) {
    for (const BenchmarkResult& result : skipped) {
      std::cerr << session::describe_skip(result) << "\n";
    }
  }
  settings->command_line = command_line(argc, argv);
  RunProgress progress(flags, format, settings->command_line);
  auto measured = measure_run(flags, *settings, std::move(*chosen), std::move(*baseline), progress);
  if (!measured) return report_error(measured.error());
  if (flags.mode == "counters") headline_counters(measured->run);
  if (scenarios_left_out > 0) {
    measured->run.context.warnings.push_back(Diagnostic{
        "scenarios_not_counted", "info",
        fmt::format("{} scenario(s) left out: --mode instructions counts micro benchmarks; run "
                    "scenarios with --mode time",
                    scenarios_left_out)});
  }
  measured->run.context.command_line = command_line(argc, argv);
  for (BenchmarkResult& result : skipped) measured->run.benchmarks.push_back(std::move(result));
  session::gather_inputs(measured->run);
  return report_and_save(flags, format, *measured);
}

}  // namespace benchkit
