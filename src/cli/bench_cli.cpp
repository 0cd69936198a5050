// The bench binary's command line: parse the flags, run, report. Exit status: 0 success,
// 1 a benchmark failed (threw, or a scenario's verify failed, or --fail-on-regression found a
// regression), 2 a usage or input error.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "benchkit/registry.hpp"
#include "cli/bench_handshake.hpp"
#include "cli/bench_runner.hpp"
#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "cli/result_files.hpp"
#include "cli/side_by_side.hpp"
#include "formats/result_json.hpp"
#include "model/merge.hpp"
#include "process/capture.hpp"
#include "process/interrupt.hpp"
#include "process/spawn.hpp"
#include "report/comparison.hpp"
#include "report/reporter.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"

namespace benchkit {
namespace {

constexpr int kUsageError = 2;

struct Flags {
  std::string filter;
  bool exact = false;
  bool list = false;
  bool test = false;
  std::string time_budget;
  std::string warm_up;
  std::size_t sample_size = 0;
  double precision = 0.0;
  std::uint64_t seed = 0;
  std::string format;
  std::string out;
  bool quiet = false;
  std::string color = "auto";
  bool no_counters = false;
  std::string save_baseline;
  std::string baseline;
  std::string baseline_file;
  double noise_threshold = 0.02;
  bool all_samples = false;
  std::string adjustment = "holm";
  bool fail_on_regression = false;
  bool no_machine_warnings = false;
  std::vector<std::string> tags;
  std::size_t repetitions = 1;
  std::vector<std::string> params;  // NAME=V1,V2,...
  // 0 = automatic: 3 fresh processes when the run saves or checks a baseline, 1 otherwise.
  // On a shared machine the speed changes between runs by far more than within one: one
  // process per run gave 55% false alarms in A/A comparisons against 2.4% with three
  // (bench/verdicts/measure_rates, docs/verdicts.md). A plain run stays in one process, fast.
  std::size_t processes = 0;
  std::string worker_out;  // set in a worker process: where to write its results
  std::size_t worker_index = 0;
  bool worker_progress = false;  // a worker whose parent shows progress on a terminal
  bool benchkit_info = false;    // the handshake with the `benchkit` command
  // Side-by-side comparisons (--baseline NAME with the baseline's executable kept): rounds of
  // fresh process pairs per benchmark; --saved-samples compares the saved samples instead.
  std::size_t rounds = 10;
  // Benchmarks still inconclusive after `rounds` get more, `rounds` at a time, up to this
  // (0: three times `rounds`).
  std::size_t max_rounds = 0;
  // How long a side-by-side worker may take to set up, to take one sample or to write its
  // results before it is taken for hung and killed.
  std::string worker_timeout = "120s";
  // A benchmark still running after this long is taken for hung: the run stops with a message.
  std::string timeout = "300s";
  std::int64_t worker_timeout_ns = 0;
  bool saved_samples = false;
  int turns_fd = -1;  // set in a worker of a side-by-side comparison
};

// --param flags as given, for a bench binary this one starts.
std::vector<std::string> param_flags(const Flags& flags) {
  std::vector<std::string> argv;
  for (const std::string& param : flags.params) argv.insert(argv.end(), {"--param", param});
  return argv;
}

// The flags of this run that every worker it starts gets, whether the workers run one after
// another or side by side: what changes what a benchmark measures or records.
std::vector<std::string> shared_worker_flags(const Flags& flags, const cli::RunSettings& settings) {
  std::vector<std::string> argv = {"--warm-up",     fmt::format("{}ns", settings.engine.warm_up_ns),
                                   "--seed",        std::to_string(settings.seed),
                                   "--repetitions", std::to_string(flags.repetitions)};
  if (flags.no_counters) argv.push_back("--no-counters");
  if (flags.no_machine_warnings) argv.push_back("--no-machine-warnings");
  for (const std::string& tag : flags.tags) argv.insert(argv.end(), {"--tag", tag});
  const std::vector<std::string> params = param_flags(flags);
  argv.insert(argv.end(), params.begin(), params.end());
  return argv;
}

// Runs the suite in `flags.processes` fresh worker processes of this same executable, one
// after the other, each with a share of the time budget and the benchmarks in a rotated order
// (so each benchmark's processes are spread over the whole run), and merges their samples.
// Returns the merged run, or an error naming the worker that failed.
model::Result<RunResult> run_in_workers(const Flags& flags, const cli::RunSettings& settings,
                                        bool show_progress) {
  const std::string self = process::self_executable();
  char folder_template[] = "/tmp/benchkit-workers-XXXXXX";
  const char* folder = mkdtemp(folder_template);
  if (!folder) return model::Error{"cannot create a temporary folder for the worker results"};
  std::vector<RunResult> runs;
  std::string failure;
  for (std::size_t k = 0; k < flags.processes && failure.empty(); ++k) {
    const std::string out = fmt::format("{}/worker-{}.json", folder, k);
    std::vector<std::string> argv = {self,
                                     "--worker-out",
                                     out,
                                     "--worker-index",
                                     std::to_string(k),
                                     "--processes",
                                     std::to_string(flags.processes)};
    if (!flags.filter.empty()) argv.insert(argv.end(), {"--filter", flags.filter});
    if (flags.exact) argv.push_back("--exact");
    // Each process gets its share of the budget and of the minimum sample count.
    argv.insert(argv.end(),
                {"--time-budget",
                 fmt::format("{}ns", settings.engine.time_budget_ns /
                                         static_cast<std::int64_t>(flags.processes)),
                 "--sample-size",
                 std::to_string(std::max<std::size_t>(
                     5, (settings.engine.min_samples + flags.processes - 1) / flags.processes)),
                 "--precision", fmt::format("{}", settings.engine.precision),
                 // Not among the shared flags: a baseline's kept binary may predate --timeout
                 // (side by side, the controller's --worker-timeout catches a hang instead).
                 "--timeout", fmt::format("{}ns", settings.timeout_ns)});
    if (show_progress) argv.push_back("--worker-progress");
    const std::vector<std::string> shared = shared_worker_flags(flags, settings);
    argv.insert(argv.end(), shared.begin(), shared.end());
    const auto exit = process::run_and_wait(argv);
    if (!exit) {
      failure = exit.error().message;
    } else if (!exit->ok() && exit->exit_code != 1) {
      failure = fmt::format("worker process {} of {} {}", k + 1, flags.processes, exit->describe());
    } else if (auto loaded = cli::load_result_file(out); !loaded) {
      failure = fmt::format("worker process {} of {} left no readable result: {}", k + 1,
                            flags.processes, loaded.error().message);
    } else {
      runs.push_back(std::move(*loaded));
    }
    std::filesystem::remove(out);
  }
  std::filesystem::remove_all(folder);
  if (!failure.empty()) return model::Error{failure};
  RunResult merged = model::merge_processes(runs);
  analysis::compute_estimates(merged);
  analysis::note_machine_speed(merged);
  return merged;
}

// The binary kept with --baseline NAME when the comparison can run it side by side; otherwise
// nothing, and `note` says why the saved samples are compared instead.
std::optional<std::string> side_by_side_binary(const Flags& flags, bool have_baseline,
                                               std::string& note) {
  if (flags.baseline.empty() || !have_baseline || flags.saved_samples || flags.test ||
      !flags.worker_out.empty() || flags.turns_fd >= 0) {
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
  const auto handshake = cli::probe_bench_binary(*kept);
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

// Benchmarks still inconclusive after --rounds get more, up to this many times --rounds. Rounds
// of a memory-bound 64 MiB sum scatter 7-8% here (each process pair's buffers land on other
// physical pages), and its 5% slow-down was found in 3 of 9 comparisons at 30 rounds, 8 of 9 at
// 60 and 90; resampling those rounds: 57%, 90%, 97% (docs/verdicts.md). Decided benchmarks stop
// early, so the cost falls on the noisy ones.
constexpr std::size_t kMaxRoundsFactor = 9;

std::size_t max_rounds_of(const Flags& flags) {
  return flags.max_rounds > 0 ? flags.max_rounds : kMaxRoundsFactor * flags.rounds;
}

// How many rounds the benchmarks of a side-by-side run had: "10", or "10-60" when the undecided
// ones got more.
std::string rounds_taken(const RunResult& run) {
  std::size_t fewest = 0;
  std::size_t most = 0;
  for (const BenchmarkResult& result : run.benchmarks) {
    std::set<std::uint32_t> rounds;
    for (const Sample& sample : result.samples) {
      if (sample.round) rounds.insert(*sample.round);
    }
    if (rounds.empty()) continue;
    fewest = fewest == 0 ? rounds.size() : std::min(fewest, rounds.size());
    most = std::max(most, rounds.size());
  }
  return fewest == most ? fmt::format("{}", most) : fmt::format("{}-{}", fewest, most);
}

// Runs the chosen benchmarks side by side with `baseline_binary` (cli/side_by_side.hpp).
// Benchmarks that binary does not have run here alone, and are reported as added.
model::Result<cli::SideBySideRuns> run_beside(const Flags& flags, const cli::RunSettings& settings,
                                              const std::vector<measure::Instance>& chosen,
                                              const std::string& baseline_binary,
                                              bool show_progress, const cli::Progress& progress,
                                              std::size_t& failures) {
  std::vector<std::string> list_argv = {baseline_binary, "--list"};
  const std::vector<std::string> params = param_flags(flags);
  list_argv.insert(list_argv.end(), params.begin(), params.end());
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(30);
  const auto listed = process::run_captured(list_argv, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{fmt::format(
        "the baseline's binary {} could not list its benchmarks ({}); compare against the saved "
        "samples with --saved-samples",
        baseline_binary, listed ? listed->exit.describe() : listed.error().message)};
  }
  std::set<std::string> theirs;
  std::istringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) theirs.insert(line);
  }
  cli::SideBySide plan;
  plan.baseline_executable = baseline_binary;
  plan.candidate_executable = process::self_executable();
  std::vector<measure::Instance> only_here;
  for (const measure::Instance& instance : chosen) {
    if (theirs.count(instance.name)) {
      plan.benchmarks.push_back(instance.name);
    } else {
      only_here.push_back(instance);
    }
  }
  plan.rounds = flags.rounds;
  plan.max_rounds = max_rounds_of(flags);
  plan.worker_timeout = std::chrono::milliseconds(flags.worker_timeout_ns / 1'000'000);
  plan.round_budget_ns = std::max<std::int64_t>(
      1'000'000, settings.engine.time_budget_ns / static_cast<std::int64_t>(flags.rounds));
  plan.worker_flags = shared_worker_flags(flags, settings);
  plan.clock = cli::process_clock().clock;
  plan.progress = [&](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                      const std::string& name) {
    if (show_progress) {
      std::cerr << fmt::format("\r\033[K[round {}/{}] [{}/{}] {} (baseline and new in turns{})",
                               round + 1, planned, index + 1, count, name,
                               round >= flags.rounds ? "; more rounds: still inconclusive" : "")
                << std::flush;
    }
  };
  // More rounds for the benchmarks the comparison cannot decide yet.
  const analysis::CompareSettings compare_settings =
      cli::comparison_settings(flags.noise_threshold, flags.adjustment, flags.all_samples);
  const cli::Undecided undecided = [&](const cli::SideBySideRuns& so_far) {
    return analysis::undecided_at_interim_look(so_far.baseline, so_far.candidate, compare_settings);
  };
  auto runs = plan.benchmarks.empty() ? model::Result<cli::SideBySideRuns>(cli::SideBySideRuns{})
                                      : cli::run_side_by_side(plan, undecided);
  if (!runs) return runs;
  if (!only_here.empty()) {
    RunResult alone = cli::run_instances(settings, only_here, progress, failures);
    if (runs->candidate.benchmarks.empty()) runs->candidate.context = alone.context;
    for (BenchmarkResult& result : alone.benchmarks) {
      runs->candidate.benchmarks.push_back(std::move(result));
    }
  }
  return runs;
}

bool want_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO) != 0;
}

// One --param value: an integer or a number when it reads as one, text otherwise.
ParamValue parse_param_value(const std::string& text) {
  std::int64_t integer = 0;
  const char* end = text.data() + text.size();
  if (auto [at, error] = std::from_chars(text.data(), end, integer);
      error == std::errc() && at == end) {
    return ParamValue(integer);
  }
  double number = 0.0;
  if (auto [at, error] = std::from_chars(text.data(), end, number);
      error == std::errc() && at == end) {
    return ParamValue(number);
  }
  return ParamValue(text);
}

// --param NAME=V1,V2 (repeatable) as overrides of the registered values.
measure::ParamOverrides parse_param_overrides(const std::vector<std::string>& params) {
  measure::ParamOverrides overrides;
  for (const std::string& param : params) {
    const auto equals = param.find('=');
    std::vector<ParamValue>& values = overrides[param.substr(0, equals)];
    values.clear();
    std::size_t start = equals + 1;
    while (start <= param.size()) {
      const auto comma = std::min(param.find(',', start), param.size());
      if (comma > start) values.push_back(parse_param_value(param.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  return overrides;
}

// The checks that failed, once per invalid scenario run (its phases all carry them) or
// invalid benchmark, in the order of the results.
std::vector<std::pair<std::string, std::vector<std::string>>> invalid_runs(const RunResult& run) {
  std::vector<std::pair<std::string, std::vector<std::string>>> invalid;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.valid()) continue;
    const std::string name = benchmark.kind == "scenario"
                                 ? benchmark.name.substr(0, benchmark.name.rfind('/'))
                                 : benchmark.name;
    if (invalid.empty() || invalid.back().first != name) {
      invalid.emplace_back(name, benchmark.failures);
    }
  }
  return invalid;
}

std::string command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) text += ' ';
    text += argv[i];
  }
  return text;
}

}  // namespace

int run_main(int argc, char** argv) {
  Flags flags;
  CLI::App app{
      "Runs the benchmarks registered in this binary with BENCHKIT(...) and reports the median "
      "time per iteration with its 95% confidence interval, and the scenarios registered with "
      "BENCHKIT_SCENARIO(...) phase by phase.\n"
      "Sampling stops once the interval is within ±1% of the median (after at least 30 "
      "samples) or when the time budget is spent. A scenario runs once (--repetitions N).\n"
      "Exit status: 0 success; 1 a benchmark threw, a scenario's verify failed or "
      "--fail-on-regression found a regression; 2 a usage or input error.",
      argc > 0 ? argv[0] : "bench"};
  app.add_option("--filter", flags.filter,
                 "Run only benchmarks whose name matches this regular expression (searched "
                 "anywhere in the name, e.g. 'sort|hash' or '^codec/level=3')");
  app.add_flag("--exact", flags.exact, "Treat --filter as a whole benchmark name, not a regex");
  app.add_flag("--list", flags.list, "List the benchmark names and exit");
  app.add_flag("--test", flags.test,
               "Smoke test: run each benchmark once, no statistics (what CTest should call)");
  app.add_option("--time-budget", flags.time_budget,
                 "Sampling time per benchmark before it stops even if imprecise (default 1s; "
                 "units ns, us, ms, s, m)");
  app.add_option("--warm-up", flags.warm_up, "Warm-up time per benchmark (default 50ms)");
  app.add_option("--timeout", flags.timeout,
                 "A benchmark or scenario still running after this long (set-up, warm-up and "
                 "sampling together) is taken for hung: the run stops with exit status 1 and a "
                 "message naming it (default 300s)");
  app.add_option("--sample-size", flags.sample_size,
                 "Minimum samples per benchmark before the precision rule may stop (default 30)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  app.add_option("--precision", flags.precision,
                 "Target half-width of the median's 95% CI, relative (default 0.01 = ±1%)")
      ->check(CLI::Range(1e-6, 1.0));
  app.add_option("--seed", flags.seed, "Seed recorded with the results (default 0)");
  app.add_option("--repetitions", flags.repetitions,
                 "Run each scenario N times in this process, set-up included; each run is one "
                 "sample of each phase (default 1: a value without an interval)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  app.add_option("--param", flags.params,
                 "Replace the values of a parameter: --param items=10000000 or --param "
                 "size=64,4096 (repeatable; applies to every benchmark and scenario with that "
                 "parameter)")
      ->check([](const std::string& text) {
        const auto equals = text.find('=');
        return equals == std::string::npos || equals == 0 || equals + 1 == text.size()
                   ? std::string("a parameter is NAME=VALUE[,VALUE...], e.g. --param items=1000")
                   : std::string();
      });
  app.add_option("--format", flags.format,
                 "Output format: console, json, markdown or csv (default console; json when "
                 "--out is given)")
      ->check(CLI::IsMember({"console", "json", "markdown", "md", "csv"}));
  app.add_option("--out", flags.out,
                 "Write the results in --format to this file (atomically), and keep the console "
                 "table on stdout");
  app.add_flag("--quiet,-q", flags.quiet, "No console table and no progress");
  app.add_option("--color", flags.color, "Colour: auto, always or never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--no-counters", flags.no_counters, "Do not open hardware counters");
  app.add_option("--save-baseline", flags.save_baseline,
                 "Save this run as baseline NAME (under .benchkit/baselines/, or $BENCHKIT_DIR)");
  auto* baseline_option = app.add_option(
      "--baseline", flags.baseline,
      "Compare against saved baseline NAME and give verdicts. When the baseline kept its bench "
      "binary (every --save-baseline does), that binary is run again side by side with this "
      "one, sample by sample in turns, so that both see the machine in the same state "
      "(docs/verdicts.md)");
  app.add_option("--rounds", flags.rounds,
                 "Side-by-side comparisons: fresh process pairs per benchmark, each with "
                 "--time-budget / N of sampling a side (default 10)")
      ->check(CLI::Range(std::size_t{2}, std::size_t{1000}));
  app.add_option("--max-rounds", flags.max_rounds,
                 "Side-by-side comparisons: benchmarks not yet decided after --rounds (judged "
                 "with 99% intervals until the last batch) get more rounds, --rounds at a time, "
                 "up to N (default 9 x --rounds; equal to --rounds: no more)")
      ->check(CLI::Range(std::size_t{2}, std::size_t{3000}));
  app.add_option("--worker-timeout", flags.worker_timeout,
                 "Side-by-side comparisons: a worker that takes longer than this to set up, to "
                 "take one sample or to write its results is taken for hung, killed, and the "
                 "comparison stops with an error naming it (default 120s)");
  app.add_flag("--saved-samples", flags.saved_samples,
               "With --baseline: compare against the samples saved with the baseline instead of "
               "running its binary again side by side");
  app.add_option("--turns-fd", flags.turns_fd)->group("");
  app.add_option("--baseline-file", flags.baseline_file,
                 "Compare this run against a result file (any --out of a bench binary)")
      ->excludes(baseline_option);
  cli::add_comparison_flags(app, flags.noise_threshold, flags.adjustment, &flags.all_samples);
  app.add_flag("--no-machine-warnings", flags.no_machine_warnings,
               "Do not warn about the machine (frequency scaling, turbo, load, virtual machine); "
               "BENCHKIT_NO_MACHINE_WARNINGS=1 does the same");
  app.add_option("--tag", flags.tags, "Label the results: --tag key=value (repeatable)")
      ->check([](const std::string& text) {
        const auto equals = text.find('=');
        return equals == std::string::npos || equals == 0
                   ? std::string("a tag is key=value, e.g. --tag compiler=clang")
                   : std::string();
      });
  app.add_option("--processes", flags.processes,
                 "Run the suite in N fresh processes, one after another, and merge them: the "
                 "process becomes the unit of variation, so comparisons account for what "
                 "changes between runs (memory layout, machine state). Default: 3 when saving "
                 "a baseline or comparing with saved samples, else 1 (docs/verdicts.md has the "
                 "measured false-alarm rates). A side-by-side comparison uses --rounds instead")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
  app.add_option("--worker-out", flags.worker_out)->group("");
  app.add_option("--worker-index", flags.worker_index)->group("");
  app.add_flag("--worker-progress", flags.worker_progress)->group("");
  app.add_flag("--fail-on-regression", flags.fail_on_regression,
               "Exit with status 1 when a benchmark regressed against the baseline (for CI)");
  app.add_flag("--benchkit-info", flags.benchkit_info,
               "Print {\"benchkit\": VERSION, \"protocol\": 1, \"turns\": true} on one line and "
               "exit: how the benchkit command recognises a bench binary");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << fmt::format("error: {}\nRun {} --help to see every flag.\n", error.what(),
                             argc > 0 ? argv[0] : "the benchmark binary");
    return kUsageError;
  }
  if (flags.benchkit_info) {
    std::cout << cli::bench_info_line() << std::flush;
    return 0;
  }

  if (flags.processes == 0) {
    const bool verdict_run = !flags.save_baseline.empty() || !flags.baseline.empty() ||
                             !flags.baseline_file.empty() || flags.fail_on_regression;
    flags.processes = verdict_run ? 3 : 1;
  }

  cli::RunSettings settings;
  settings.seed = flags.seed;
  settings.counters = !flags.no_counters;
  settings.machine_warnings = !flags.no_machine_warnings;
  for (const std::string& tag : flags.tags) {
    const auto equals = tag.find('=');
    settings.tags[tag.substr(0, equals)] = tag.substr(equals + 1);
  }
  settings.engine.test_mode = flags.test;
  settings.repetitions = flags.repetitions;
  if (flags.sample_size > 0) settings.engine.min_samples = flags.sample_size;
  if (flags.precision > 0) settings.engine.precision = flags.precision;
  auto duration_flag = [&](const std::string& text, const char* name, std::int64_t& target) {
    if (text.empty()) return true;
    const auto ns = cli::parse_duration_ns(text);
    if (!ns || *ns <= 0) {
      std::cerr << fmt::format(
          "error: {} \"{}\" is not a positive duration; write e.g. 500ms, 2s or 100us\n", name,
          text);
      return false;
    }
    target = *ns;
    return true;
  };
  if (!duration_flag(flags.time_budget, "--time-budget", settings.engine.time_budget_ns) ||
      !duration_flag(flags.warm_up, "--warm-up", settings.engine.warm_up_ns) ||
      !duration_flag(flags.worker_timeout, "--worker-timeout", flags.worker_timeout_ns) ||
      !duration_flag(flags.timeout, "--timeout", settings.timeout_ns)) {
    return kUsageError;
  }

  std::vector<measure::Instance> chosen;
  try {
    chosen = cli::select(measure::expand_registered(parse_param_overrides(flags.params)),
                         flags.filter, flags.exact);
  } catch (const std::invalid_argument& error) {
    std::cerr << "error: " << error.what() << "\n";
    return kUsageError;
  }

  if (flags.list) {
    for (const auto& instance : chosen) std::cout << instance.name << "\n";
    return 0;
  }
  if (chosen.empty()) {
    if (measure::expand_registered().empty()) {
      std::cerr << "error: this binary registers no benchmarks; add BENCHKIT(function) next to a "
                   "function taking benchkit::Bencher&, or BENCHKIT_SCENARIO(function) next to "
                   "one taking benchkit::Scenario&\n";
    } else {
      std::cerr << fmt::format(
          "error: no benchmark matches --filter \"{}\"; run with --list to see the names\n",
          flags.filter);
    }
    return kUsageError;
  }

  if (flags.max_rounds > 0 && flags.max_rounds < flags.rounds) {
    std::cerr << fmt::format(
        "error: --max-rounds {} is below --rounds {}: give at least as many (equal: no rounds "
        "beyond --rounds)\n",
        flags.max_rounds, flags.rounds);
    return kUsageError;
  }

  // A missing or damaged baseline, or a bad baseline name, is found before the run.
  std::optional<RunResult> baseline;
  if (!flags.save_baseline.empty()) {
    if (const auto path = store::baseline_path(flags.save_baseline); !path) {
      std::cerr << "error: --save-baseline: " << path.error().message << "\n";
      return kUsageError;
    }
  }
  if (!flags.baseline.empty() || !flags.baseline_file.empty()) {
    auto loaded = flags.baseline.empty() ? cli::load_result_file(flags.baseline_file)
                                         : cli::load_baseline(flags.baseline);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().message << "\n";
      return kUsageError;
    }
    baseline = std::move(*loaded);
  }
  if (flags.fail_on_regression && !baseline) {
    std::cerr << "error: --fail-on-regression needs --baseline NAME or --baseline-file PATH to "
                 "compare against\n";
    return kUsageError;
  }
  for (const char* side_by_side_flag :
       {"--rounds", "--max-rounds", "--worker-timeout", "--saved-samples"}) {
    if (app.count(side_by_side_flag) > 0 && flags.baseline.empty()) {
      std::cerr << fmt::format(
          "error: {} applies to comparisons against a saved baseline: add --baseline NAME\n",
          side_by_side_flag);
      return kUsageError;
    }
  }

  // A bad --out path is found now, not after a long run whose results it would lose.
  if (!flags.out.empty()) {
    const std::filesystem::path out(flags.out);
    const std::filesystem::path folder =
        out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || access(folder.c_str(), W_OK) != 0) {
      std::cerr << fmt::format(
          "error: cannot write --out {}: folder {} {}\n", flags.out, folder.string(),
          error ? "cannot be created (" + error.message() + ")" : std::string("is not writable"));
      return kUsageError;
    }
  }

  std::string format_name = flags.format;
  if (format_name.empty()) format_name = flags.out.empty() ? "console" : "json";
  const report::Format format = report::parse_format(format_name).value();

  const bool progress_visible = !flags.quiet && isatty(STDERR_FILENO) != 0;
  cli::Progress progress;
  progress.started = [&](std::size_t index, std::size_t total, const std::string& name) {
    if (progress_visible) {
      std::cerr << fmt::format("\r\033[K[{}/{}] {}", index + 1, total, name) << std::flush;
    }
  };
  progress.failed = [&](const std::string& name, const std::string& error) {
    if (progress_visible) std::cerr << "\r\033[K";
    std::cerr << fmt::format("error: {} failed: {}\n", name, error);
  };

  // A worker: run the benchmarks in rotated order, write the result, nothing else.
  if (!flags.worker_out.empty()) {
    const std::size_t shift = chosen.empty()
                                  ? 0
                                  : flags.worker_index * chosen.size() /
                                        std::max<std::size_t>(1, flags.processes) % chosen.size();
    std::rotate(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(shift), chosen.end());
    std::size_t worker_failures = 0;
    cli::Progress worker_progress;
    worker_progress.failed = progress.failed;
    if (flags.worker_progress) {
      worker_progress.started = [&](std::size_t index, std::size_t total, const std::string& name) {
        std::cerr << fmt::format("\r\033[K[process {}/{}] [{}/{}] {}", flags.worker_index + 1,
                                 flags.processes, index + 1, total, name)
                  << std::flush;
      };
    }
    RunResult run = cli::run_instances(settings, chosen, worker_progress, worker_failures);
    run.context.command_line = command_line(argc, argv);
    const auto written = store::write_file_atomically(flags.worker_out, formats::to_json(run));
    if (!written) {
      std::cerr << "error: " << written.error().message << "\n";
      return kUsageError;
    }
    return worker_failures > 0 ? 1 : 0;
  }

  std::size_t failures = 0;
  RunResult run;
  // A worker of a side-by-side comparison: one sample per turn, then its result.
  std::optional<cli::TurnGate> gate;
  if (flags.turns_fd >= 0) {
    gate.emplace(flags.turns_fd);
    settings.gate = &*gate;
  }
  std::string method_note;
  const std::optional<std::string> side_by_side_with =
      side_by_side_binary(flags, baseline.has_value(), method_note);
  if (side_by_side_with) {
    auto measured = run_beside(flags, settings, chosen, *side_by_side_with, progress_visible,
                               progress, failures);
    if (progress_visible) std::cerr << "\r\033[K" << std::flush;
    if (!measured) {
      std::cerr << "error: " << measured.error().message << "\n";
      return process::interrupt_requested() ? 130 : 1;
    }
    std::set<std::string> rerun;
    for (const BenchmarkResult& b : measured->baseline.benchmarks) rerun.insert(b.name);
    // Compared: the baseline binary's new samples; benchmarks it no longer ran keep the saved
    // ones. The saved context (commit, build, time) still describes the baseline.
    for (BenchmarkResult& saved : baseline->benchmarks) {
      if (!rerun.count(saved.name)) measured->baseline.benchmarks.push_back(std::move(saved));
    }
    measured->baseline.context = baseline->context;
    baseline = std::move(measured->baseline);
    run = std::move(measured->candidate);
    method_note = fmt::format(
        "baseline {}: its bench binary ran again beside this one, {} rounds of fresh process "
        "pairs per benchmark taking samples in turns, so both met the machine in the same "
        "state{} (--saved-samples compares the saved samples instead)",
        flags.baseline, rounds_taken(run),
        max_rounds_of(flags) > flags.rounds
            ? fmt::format("; benchmarks still inconclusive after {} got more, up to {}",
                          flags.rounds, max_rounds_of(flags))
            : "");
  } else if (flags.processes > 1 && !flags.test && flags.turns_fd < 0) {
    auto merged = run_in_workers(flags, settings, progress_visible);
    if (progress_visible) std::cerr << "\r\033[K" << std::flush;
    if (!merged) {
      std::cerr << "error: " << merged.error().message << "\n";
      return 1;
    }
    run = std::move(*merged);
  } else {
    run = cli::run_instances(settings, chosen, progress, failures);
  }
  if (progress_visible) std::cerr << "\r\033[K" << std::flush;
  run.context.command_line = command_line(argc, argv);

  const report::Options options{want_color(flags.color)};
  std::optional<analysis::Comparison> comparison;
  if (baseline) {
    comparison = analysis::compare(
        *baseline, run,
        cli::comparison_settings(flags.noise_threshold, flags.adjustment, flags.all_samples));
    comparison->context_warning = cli::context_differences(baseline->context, run.context);
    comparison->method_note = method_note;
  }
  // stdout carries one document: with a baseline and a machine format (json, csv, markdown)
  // that is the comparison; the results themselves then go to --out.
  const bool comparison_on_stdout =
      comparison && flags.out.empty() && format != report::Format::console;
  if (!flags.out.empty()) {
    const std::string text = report::make_reporter(format, options)->render(run);
    const auto written = store::write_file_atomically(flags.out, text);
    if (!written) {
      std::cerr << "error: " << written.error().message << "\n";
      return kUsageError;
    }
    if (!flags.quiet) {
      std::cout << report::make_reporter(report::Format::console, options)->render(run);
      std::cout << fmt::format("results written to {}\n", flags.out);
    }
  } else if (!comparison_on_stdout && (!flags.quiet || format != report::Format::console)) {
    std::cout << report::make_reporter(format, options)->render(run);
  }
  int status = 0;
  if (!flags.save_baseline.empty()) {
    const auto saved = store::save_baseline(flags.save_baseline, formats::to_json(run));
    if (!saved) {
      std::cerr << "error: " << saved.error().message << "\n";
      status = kUsageError;
    } else {
      // The binary too, so that --baseline can run it again beside a new build.
      const auto kept =
          store::save_baseline_executable(flags.save_baseline, process::self_executable());
      if (!kept) {
        std::cerr << fmt::format(
            "warning: the bench binary was not kept with baseline {} ({}): comparisons against "
            "it will use its saved samples\n",
            flags.save_baseline, kept.error().message);
      }
      if (!flags.quiet && !comparison_on_stdout) {
        std::cout << fmt::format(
            "baseline {} saved to {}{}\n", flags.save_baseline, saved->path,
            kept ? fmt::format(" (with its bench binary, {})", kept->path) : std::string());
      }
    }
  }
  if (comparison) {
    if (comparison_on_stdout) {
      std::cout << report::render_comparison(*comparison, format, options);
    } else if (!flags.quiet) {
      std::cout << "\n" << report::render_comparison(*comparison, report::Format::console, options);
    }
    if (flags.fail_on_regression && comparison->any_regression()) status = 1;
  }
  std::cout.flush();
  // A failed verify makes the run invalid: said on stderr whatever the format, exit status 1.
  const auto invalid = invalid_runs(run);
  for (const auto& [name, checks] : invalid) {
    for (const std::string& check : checks) {
      std::cerr << fmt::format("error: {} is invalid: {}\n", name, check);
    }
  }
  if (failures > 0) {
    std::cerr << fmt::format("{} benchmark(s) failed\n", failures);
    return 1;
  }
  if (!invalid.empty()) {
    std::cerr << fmt::format("{} scenario run(s) failed a check and are kept out of comparisons\n",
                             invalid.size());
    return 1;
  }
  return status;
}

}  // namespace benchkit
