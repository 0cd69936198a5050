#include "session/noise.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "analysis/compare.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "process/interrupt.hpp"
#include "process/run.hpp"
#include "process/temporary_folder.hpp"
#include "process/worker_protocol.hpp"
#include "session/command_events.hpp"
#include "session/commands.hpp"
#include "session/result_files.hpp"

namespace benchkit::session {

std::vector<std::string> noise_command(const NoiseRequest& request, const std::string& out) {
  std::vector<std::string> argv = {request.executable, "--processes",
                                   std::to_string(request.processes), "--out", out};
  argv.insert(argv.end(), request.flags.begin(), request.flags.end());
  return argv;
}

model::Result<NoiseRun> run_noise_experiment(const NoiseRequest& request) {
  const auto folder = process::make_temporary_folder("benchkit-noise");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  const std::string out = *folder + "/result.json";
  const std::vector<std::string> argv = noise_command(request, out);
  // Not --quiet: the binary then shows its own worker progress when stderr is a terminal; its
  // table on stdout is discarded (the caller's report replaces it).
  process::CaptureOptions spawn;
  spawn.out = process::Stream::discard;
  spawn.err = process::Stream::inherit;
  // Ctrl-C reaches the binary too (one process group): it stops, writes what finished and exits
  // with status 130, which this process waits for instead of ending at once.
  process::install_interrupt_handler();
  const auto finished = process::run_captured(argv, spawn);
  process::restore_default_interrupt_action();
  auto loaded = load_result_file(out);
  if (!finished) return model::Error{finished.error().message, model::ErrorKind::failed};
  if (process::interrupt_requested() || finished->exit.exit_code == 130) {
    if (!loaded) {
      return model::Error{fmt::format("interrupted while {} ran: nothing finished", request.name),
                          model::ErrorKind::interrupted};
    }
    return NoiseRun{std::move(*loaded), false, true};
  }
  // Exit status 1 with a result: some benchmarks failed (said by the binary), the others are
  // measured.
  const bool partial = finished->exit.exit_code == 1 && loaded;
  if (!finished->exit.ok() && !partial) {
    return model::Error{
        fmt::format("{} {} while running in {} fresh processes (its messages are above); the "
                    "command was: {}",
                    request.name, finished->exit.describe(), request.processes,
                    fmt::join(argv, " ")),
        model::ErrorKind::failed};
  }
  if (!loaded) {
    return model::Error{
        fmt::format("{} left no readable result: {}", request.name, loaded.error().message),
        model::ErrorKind::failed};
  }
  return NoiseRun{std::move(*loaded), partial};
}

namespace {

// Flags of the bench binary that `benchkit noise` sets itself, or that would make the run
// something other than one measurement in fresh processes: the user's, and a driver's that
// would turn the binary into one of its workers (process/worker_invocation.hpp).
constexpr const char* kReservedFlags[] = {"--processes",
                                          "--out",
                                          "--format",
                                          "--html",
                                          "--list",
                                          "--test",
                                          "--baseline",
                                          "--baseline-file",
                                          "--save-baseline",
                                          "--fail-on-regression",
                                          "--benchkit-info",
                                          process::worker::kStreamFlag,
                                          process::worker::kSelectFlag,
                                          process::worker::kIndexFlag,
                                          process::worker::kTurnsFlag,
                                          "--callgrind-dumps",
                                          "--profile-markers",
                                          "--profile-summary"};

model::Error input(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::input};
}

// An experiment that did not run is bad input (exit status 2, docs/noise.md), unless Ctrl-C
// stopped it (130).
model::Error did_not_run(const model::Error& error) {
  return error.kind == model::ErrorKind::interrupted ? error : input(error.message);
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

class NoiseMeasurer final : public Measurer {
 public:
  explicit NoiseMeasurer(NoisePlan plan) : plan_(std::move(plan)) {}

  model::Result<Measured> measure(Observer& observer) override {
    const auto path = bench_binary_path(plan_.target);
    if (!path) return path.error();
    if (auto problem = check_noise_binary(*path, plan_)) return *problem;
    NoiseRequest request;
    request.executable = *path;
    request.name = plan_.target;
    request.processes = plan_.processes;
    request.flags = plan_.flags;
    observer.measuring_started(fmt::format("running {} in {} fresh processes, one after another",
                                           plan_.target, plan_.processes));
    auto ran = run_noise_experiment(request);
    if (!ran) return did_not_run(ran.error());
    Measured measured;
    measured.run = std::move(ran->run);
    measured.interrupted = ran->interrupted;
    return measured;
  }

 private:
  NoisePlan plan_;
};

}  // namespace

model::Result<std::string> bench_binary_path(const std::string& target) {
  // A path without a slash is a file here, not a program to look up in PATH.
  std::string path = target.find('/') == std::string::npos ? "./" + target : target;
  if (const std::string problem = check_target(path); !problem.empty()) return input(problem);
  return path;
}

std::optional<model::Error> check_noise_binary(const std::string& path, const NoisePlan& plan) {
  const auto handshake = process::probe_bench_binary(path);
  if (!handshake) return input(handshake.error().message);
  if (!handshake->benchkit) {
    // A Google Benchmark suite's per-benchmark A/A is a comparison with itself, side by side.
    const std::string gbench =
        process::links_google_benchmark(path)
            ? fmt::format(
                  "; for each of its benchmarks' noise, compare it with itself side by "
                  "side: benchkit compare {0} {0} (each benchmark's interval is the noise "
                  "a comparison of two builds meets)",
                  plan.target)
            : std::string();
    return input(fmt::format("{} is not a benchkit bench binary: {}; {}{}", plan.target,
                             handshake->problem, hint_for_commands(plan.target), gbench));
  }
  if (plan.processes > 64) {
    return input("a bench binary runs in at most 64 processes (--processes 64)");
  }
  if (handshake->protocol != process::kBenchProtocol) {
    return input(fmt::format(
        "{} was built with benchkit {}, which drives bench binaries by protocol {}; this "
        "benchkit command speaks protocol {}: use the benchkit command of the binary's version",
        plan.target, handshake->version, handshake->protocol, process::kBenchProtocol));
  }
  for (const std::string& word : plan.flags) {
    const std::string flag = word.substr(0, word.find('='));
    if (std::find(std::begin(kReservedFlags), std::end(kReservedFlags), flag) !=
        std::end(kReservedFlags)) {
      return input(
          fmt::format("{} after -- is not allowed: benchkit noise runs the binary with --processes "
                      "N --out FILE itself and compares nothing (use benchkit noise --processes N)",
                      flag));
    }
  }
  return std::nullopt;
}

model::Result<OrderReport> check_count_order(const CountOrderPlan& plan, Observer& observer) {
  const auto path = bench_binary_path(plan.target);
  if (!path) return path.error();
  const auto handshake = process::probe_bench_binary(*path);
  if (!handshake || !handshake->benchkit) {
    return input(
        fmt::format("{} is not a benchkit bench binary: --mode instructions counts a "
                    "bench binary's benchmarks",
                    plan.target));
  }
  observer.measuring_started(fmt::format(
      "counting {} twice under valgrind, every benchmark in one process, in the chosen order and "
      "reversed",
      plan.target));
  auto report = measure_order_dependence(*path, plan.flags, plan.threshold);
  if (!report) return input(report.error().message);
  return report;
}

namespace {

class CommandNoiseMeasurer final : public Measurer {
 public:
  explicit CommandNoiseMeasurer(CommandNoisePlan plan) : plan_(std::move(plan)) {}

  model::Result<Measured> measure(Observer& observer) override {
    observer.measuring_started(fmt::format("running {} {} times, each a fresh process",
                                           fmt::join(plan_.argv, " "), plan_.runs));
    process::ExecutorChoice executor = process::make_executor();
    CommandEvents events(observer);
    // Ctrl-C after some runs: the noise of those (exit status 130).
    bool interrupted = false;
    auto run = run_command_repeatedly(plan_.argv, plan_.runs, *executor.executor,
                                      clock::steady_clock(), events, &interrupted);
    if (!run) return did_not_run(run.error());
    run->context = command_context(0, plan_.command_line);
    Measured measured;
    measured.run = std::move(*run);
    measured.interrupted = interrupted;
    return measured;
  }

 private:
  CommandNoisePlan plan_;
};

}  // namespace

std::unique_ptr<Measurer> make_measurer(CommandNoisePlan plan) {
  return std::make_unique<CommandNoiseMeasurer>(std::move(plan));
}

std::unique_ptr<Measurer> make_measurer(NoisePlan plan) {
  return std::make_unique<NoiseMeasurer>(std::move(plan));
}

NoiseFindings noise_findings(const RunResult& run) {
  NoiseFindings findings{analysis::analyse_noise(run)};
  if (!findings.analysis.recommendation) {
    findings.nothing_analysed = model::Error{
        "no benchmark ran in 2 or more processes; nothing to analyse", model::ErrorKind::input};
  }
  return findings;
}

}  // namespace benchkit::session
