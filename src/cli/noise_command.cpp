// `benchkit noise ./my_bench`: the same bench binary in N fresh processes (an A/A experiment),
// and per benchmark the spread between processes and the noise threshold and process count a
// comparison needs on this machine (docs/noise.md).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>
#include "analysis/compare.hpp"
#include "cli/command_progress.hpp"
#include "cli/commands.hpp"
#include "cli/noise_report.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "process/handshake.hpp"
#include "process/run.hpp"
#include "session/commands.hpp"
#include "session/noise.hpp"
#include "session/order_dependence.hpp"
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
  std::string mode = "time";  // instructions: the counted suite in two orders
};

// Flags of the bench binary that `benchkit noise` sets itself, or that would make the run
// something other than one measurement in fresh processes.
constexpr const char* kReservedFlags[] = {
    "--processes",     "--out",        "--format",        "--html",          "--list",
    "--test",          "--baseline",   "--baseline-file", "--save-baseline", "--fail-on-regression",
    "--benchkit-info", "--worker-out", "--worker-index"};

// benchkit noise's exit status is 2 for bad input and for a failed run alike (its help says so):
// an A/A experiment that did not run has no finding to report.
int fail(const model::Error& error) {
  std::cerr << "error: " << error.message << "\n";
  return 2;
}

std::string hint_for_commands(const std::string& target) {
  return fmt::format(
      "to measure the noise of any other program, run it as a command: benchkit noise -- {} "
      "ARGS…",
      target);
}

// The checks on the target before anything runs. Empty when it is an executable file.
std::string check_target(const std::string& target) {
  std::error_code error;
  const auto status = std::filesystem::status(target, error);
  if (!std::filesystem::exists(status)) {
    return fmt::format(
        "{}: no such file; give the path of a bench binary (a program linked with "
        "benchkit::main), e.g. benchkit noise ./build/my_bench, or {}",
        target, hint_for_commands("PROGRAM"));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return fmt::format("{} is not a file (a bench binary is a program linked with benchkit::main)",
                       target);
  }
  if (access(target.c_str(), X_OK) != 0) {
    return fmt::format(
        "{} is not executable (chmod +x it if it is a bench binary), and not a result file "
        "either",
        target);
  }
  return "";
}

// A result file written by a bench binary with --processes N --out FILE: analysed as it is.
bool looks_like_result_file(const std::string& target) {
  return target.size() > 5 && target.ends_with(".json") && access(target.c_str(), X_OK) != 0;
}

int measure_bench_binary(const NoiseCommandOptions& options, NoiseOptions& report) {
  // A path without a slash is a file here, not a program to look up in PATH.
  const std::string path =
      options.target.find('/') == std::string::npos ? "./" + options.target : options.target;
  if (const std::string problem = check_target(path); !problem.empty()) {
    std::cerr << "error: " << problem << "\n";
    return 2;
  }
  const auto handshake = process::probe_bench_binary(path);
  if (!handshake) {
    std::cerr << "error: " << handshake.error().message << "\n";
    return 2;
  }
  if (!handshake->benchkit) {
    std::cerr << fmt::format("error: {} is not a benchkit bench binary: {}; {}\n", options.target,
                             handshake->problem, hint_for_commands(options.target));
    return 2;
  }
  if (options.processes > 64) {
    std::cerr << "error: a bench binary runs in at most 64 processes (--processes 64)\n";
    return 2;
  }
  if (handshake->protocol != process::kBenchProtocol) {
    std::cerr << fmt::format(
        "error: {} was built with benchkit {}, which drives bench binaries by protocol {}; this "
        "benchkit command speaks protocol {}: use the benchkit command of the binary's version\n",
        options.target, handshake->version, handshake->protocol, process::kBenchProtocol);
    return 2;
  }
  for (const std::string& word : options.extra) {
    const std::string flag = word.substr(0, word.find('='));
    if (std::find(std::begin(kReservedFlags), std::end(kReservedFlags), flag) !=
        std::end(kReservedFlags)) {
      std::cerr << fmt::format(
          "error: {} after -- is not allowed: benchkit noise runs the binary with --processes "
          "N --out FILE itself and compares nothing (use benchkit noise --processes N)\n",
          flag);
      return 2;
    }
  }

  session::NoiseRequest request;
  request.executable = path;
  request.name = options.target;
  request.processes = options.processes;
  request.flags = options.extra;
  std::cerr << fmt::format("benchkit noise: running {} in {} fresh processes, one after another\n",
                           options.target, options.processes);
  auto measured = session::run_noise_experiment(request);
  if (!measured) return fail(measured.error());
  if (measured->partial) {
    std::cerr << "warning: some benchmarks failed (see above); the others are analysed (exit "
                 "status 1)\n";
  }
  const int status = report_noise(measured->run, report);
  // The failed benchmarks are named above and in the report; the run still failed.
  return measured->partial && status == 0 ? 1 : status;
}

// `benchkit noise -- CMD ARGS…`: the command run N times, each run its own process.
int measure_command(const NoiseCommandOptions& options) {
  std::cerr << fmt::format("benchkit noise: running {} {} times, each a fresh process\n",
                           fmt::join(options.extra, " "), options.processes);
  process::ExecutorChoice executor = process::make_executor();
  CommandProgress progress(stderr_is_terminal());
  auto run = session::run_command_repeatedly(options.extra, options.processes, *executor.executor,
                                             clock::steady_clock(), progress);
  progress.clear();
  if (!run) return fail(run.error());
  run->context = session::command_context(0, tool_command_line());
  NoiseOptions report;
  report.format = options.format;
  report.out = options.out;
  report.html = options.html;
  report.subject = fmt::format("{}", fmt::join(options.extra, " "));
  report.example = "benchkit run --baseline NAME -- " + report.subject;
  return report_noise(*run, report);
}

// `benchkit noise --mode instructions ./bench`: counts are the same in every fresh process, so
// the noise that is left is the order: the suite counted in one process both ways.
int measure_count_order(const NoiseCommandOptions& options) {
  const std::string path =
      options.target.find('/') == std::string::npos ? "./" + options.target : options.target;
  if (const std::string problem = check_target(path); !problem.empty()) return fail({problem});
  const auto handshake = process::probe_bench_binary(path);
  if (!handshake || !handshake->benchkit) {
    return fail(
        {fmt::format("{} is not a benchkit bench binary: --mode instructions counts a "
                     "bench binary's benchmarks",
                     options.target)});
  }
  std::cerr << fmt::format(
      "benchkit noise: counting {} twice under valgrind, every benchmark in one process, in the "
      "chosen order and reversed\n",
      options.target);
  const auto report =
      session::measure_order_dependence(path, options.extra, analysis::kCountNoiseThreshold);
  if (!report) return fail(report.error());
  std::string text;
  if (options.format == "json") {
    nlohmann::json json = {{"benchkit_order_dependence", 1},
                           {"threshold", report->threshold},
                           {"moved", report->moved()},
                           {"missing", report->missing}};
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& move : report->benchmarks) {
      rows.push_back({{"name", move.name},
                      {"forward", move.forward},
                      {"reverse", move.reverse},
                      {"change", move.change},
                      {"moved", move.moved}});
    }
    json["benchmarks"] = std::move(rows);
    text = json.dump(2) + "\n";
  } else {
    std::size_t width = 9;
    for (const auto& move : report->benchmarks) width = std::max(width, move.name.size());
    text += fmt::format("{:<{}}  {:>14}  {:>14}  {:>9}\n", "benchmark", width, "forward", "reverse",
                        "change");
    for (const auto& move : report->benchmarks) {
      text += fmt::format("{:<{}}  {:>14.1f}  {:>14.1f}  {:>+8.3f}%{}\n", move.name, width,
                          move.forward, move.reverse, 100.0 * move.change,
                          move.moved ? "  order-dependent" : "");
    }
    text += fmt::format(
        "\n{} of {} benchmarks moved by more than {:.1f}% when the order was reversed (counts "
        "in instructions per iteration, every benchmark in one valgrind process per order)\n",
        report->moved(), report->benchmarks.size(), 100.0 * report->threshold);
    if (report->moved() > 0) {
      text +=
          "An order-dependent count depends on what ran before it in the process: the "
          "allocator's state, caches or statics filled by another benchmark, or lazy "
          "initialisation done by whichever ran first. benchkit's counted runs start each "
          "benchmark in a fresh process, so their counts do not move; a suite run in one process "
          "(another harness, --in-process) would.\n";
    }
    for (const std::string& name : report->missing) {
      text += fmt::format("{}: counted in one order only (it failed in the other)\n", name);
    }
  }
  return print_or_write(text, options.out);
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
      ->check(CLI::IsMember({"time", "instructions"}));
  command->add_option("--out", options->out, "Write the report to this file instead of stdout");
  add_html_option(*command, options->html);
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    options->extra = trailing_arguments();
    if (options->target.empty() && !options->extra.empty()) {
      return measure_command(*options);
    }
    if (options->target.empty()) {
      std::cerr << "error: benchkit noise needs a bench binary (benchkit noise ./my_bench) or a "
                   "command after -- (benchkit noise -- CMD ARGS…)\n";
      return 2;
    }
    if (!options->stray_words.empty()) {
      std::cerr << fmt::format(
          "error: unexpected argument \"{}\": flags for the bench binary go after -- "
          "(benchkit noise {} -- {})\n",
          options->stray_words.front(), options->target, options->stray_words.front());
      return 2;
    }
    NoiseOptions report;
    report.format = options->format;
    report.out = options->out;
    report.html = options->html;
    report.subject = options->target;
    report.example = options->target + " --baseline NAME";
    if (options->mode == "instructions") return measure_count_order(*options);
    if (looks_like_result_file(options->target)) {
      auto loaded = session::load_result_file(options->target);
      if (!loaded) {
        std::cerr << "error: " << loaded.error().message << "\n";
        return 2;
      }
      report.example = "BENCH_BINARY --baseline NAME";
      return report_noise(*loaded, report);
    }
    return measure_bench_binary(*options, report);
  };
}

}  // namespace benchkit::cli
