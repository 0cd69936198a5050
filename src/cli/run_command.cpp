// `benchkit run`: whole processes measured in interleaved rounds, or a bench binary run in
// fresh worker processes.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "analysis/compare.hpp"
#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "benchkit_build_info.hpp"
#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "formats/result_json.hpp"
#include "process/handshake.hpp"
#include "process/interrupt.hpp"
#include "process/rounds.hpp"
#include "process/spawn.hpp"
#include "report/command_table.hpp"
#include "report/comparison.hpp"
#include "session/result_files.hpp"
#include "session/runner.hpp"
#include "stats/intervals.hpp"
#include "stats/summary.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"
#include "system/context.hpp"
#include "vcs/git.hpp"

namespace benchkit::cli {
namespace {

constexpr int kUsageError = 2;
constexpr const char* kShellProbe = "(shell start-up)";

struct RunOptions {
  std::vector<std::string> positional;  // before `--`: a bench binary, or a command
  std::vector<std::string> commands;    // --cmd
  std::vector<std::string> names;       // --name
  std::string shell;                    // --shell[=PATH]
  std::size_t warmup = 1;
  std::size_t runs = 0;
  std::size_t min_runs = 10;
  std::size_t max_runs = 0;
  std::string time_budget = "3s";
  double precision = 0.01;
  std::string setup, prepare, conclude, cleanup;
  std::vector<std::vector<std::string>> scans;  // NAME MIN MAX
  double step = 1.0;
  std::vector<std::vector<std::string>> lists;  // NAME a,b,c
  double timeout = 0.0;
  std::string ignore_failure;  // "", "all" or "1,2"
  std::string input;
  std::string output = "null";
  std::string pin;
  std::vector<std::string> env;
  std::string order = "alternate";
  std::uint64_t seed = 0;
  std::string reference;
  std::string export_json, export_markdown, export_csv;
  bool quiet = false;
  std::string color = "auto";
  double noise_threshold = 0.02;
  std::string adjustment = "holm";
  std::string save_baseline, baseline;
  bool fail_on_regression = false;
  std::size_t processes = 0;
};

// "0,2-3" -> {0, 2, 3}.
model::Result<std::vector<int>> parse_cpus(const std::string& text) {
  std::vector<int> cpus;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    int first = 0;
    int last = 0;
    char dash = 0;
    char extra = 0;
    const int fields = std::sscanf(item.c_str(), "%d%c%d%c", &first, &dash, &last, &extra);
    if (fields == 1 && first >= 0) {
      cpus.push_back(first);
    } else if (fields == 3 && dash == '-' && first >= 0 && last >= first && last < 4096) {
      for (int c = first; c <= last; ++c) cpus.push_back(c);
    } else {
      return model::Error{fmt::format(
          "--pin \"{}\": \"{}\" is not a CPU number or range (write e.g. 0,2-3)", text, item)};
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

// The --cmd/--name/--env options in the order they were given: a --name or --env applies to
// the --cmd before it (an --env before every --cmd applies to all of them).
struct CommandLineLayout {
  std::vector<std::vector<std::string>> env_per_command;
  std::vector<std::string> env_for_all;
  std::vector<std::string> name_per_command;
  std::string error;
};

CommandLineLayout layout(const CLI::App& command, const RunOptions& o, std::size_t count) {
  CommandLineLayout out;
  out.env_per_command.resize(count);
  out.name_per_command.resize(count);
  std::size_t cmd = 0;
  std::size_t env = 0;
  std::size_t name = 0;
  bool seen_cmd = false;
  for (const CLI::Option* option : command.parse_order()) {
    const std::string& flag = option->get_name();
    if (flag == "--cmd") {
      seen_cmd = true;
      ++cmd;
    } else if (flag == "--env" && env < o.env.size()) {
      if (seen_cmd) {
        out.env_per_command[cmd - 1].push_back(o.env[env++]);
      } else {
        out.env_for_all.push_back(o.env[env++]);
      }
    } else if (flag == "--name" && name < o.names.size()) {
      const std::size_t target = seen_cmd ? cmd - 1 : name;
      if (target >= count) {
        out.error = "more --name than commands: give one --name after each --cmd";
        return out;
      }
      if (!out.name_per_command[target].empty()) {
        out.error = fmt::format("two --name values for command {}", target + 1);
        return out;
      }
      out.name_per_command[target] = o.names[name++];
    }
  }
  return out;
}

// Whether `program` answers the bench-binary handshake (docs/commands.md).
bool is_bench_binary(const std::string& program) {
  if (program.find('/') == std::string::npos || ::access(program.c_str(), X_OK) != 0) return false;
  const auto answer = process::probe_bench_binary(program);
  return answer && answer->benchkit;
}

// `benchkit run ./my_bench`: the binary runs itself in fresh worker processes and merges them.
int run_bench_binary(const RunOptions& o, const std::vector<std::string>& bench_flags) {
  std::vector<std::string> argv = {o.positional.front(), "--processes",
                                   std::to_string(o.processes == 0 ? 5 : o.processes)};
  auto forward = [&argv](const char* flag, const std::string& value) {
    if (!value.empty()) argv.insert(argv.end(), {flag, value});
  };
  forward("--save-baseline", o.save_baseline);
  forward("--baseline", o.baseline);
  if (o.fail_on_regression) argv.push_back("--fail-on-regression");
  argv.insert(argv.end(), {"--noise-threshold", fmt::format("{}", o.noise_threshold)});
  argv.insert(argv.end(), {"--adjust", o.adjustment});
  argv.insert(argv.end(), bench_flags.begin(), bench_flags.end());
  if (!o.quiet) std::cerr << "benchkit run: " << fmt::format("{}", fmt::join(argv, " ")) << "\n";
  const auto exit = process::run_and_wait(argv);
  if (!exit) {
    std::cerr << "error: " << exit.error().message << "\n";
    return kUsageError;
  }
  if (exit->signal != 0) {
    std::cerr << fmt::format("error: {} {}\n", o.positional.front(), exit->describe());
    return 1;
  }
  return exit->exit_code;
}

// Shows progress on a terminal and writes the exports after each round (at most every 2 s).
class Observer : public process::RoundObserver {
 public:
  Observer(const std::vector<process::RoundBenchmark>& benchmarks, bool visible,
           std::function<void(const process::RoundsResult&)> checkpoint)
      : benchmarks_(benchmarks), visible_(visible), checkpoint_(std::move(checkpoint)) {}

  void run_started(std::size_t b, std::size_t round, bool warmup) override {
    if (!visible_) return;
    const double elapsed = seconds_since_start();
    std::cerr << fmt::format("\r\033[K{} {} · {} · {:.1f} s", warmup ? "warm-up" : "round",
                             round + 1, benchmarks_[b].command.name, elapsed)
              << std::flush;
  }
  void benchmark_failed(std::size_t b, const std::string& message) override {
    if (visible_) std::cerr << "\r\033[K";
    std::cerr << fmt::format("error: {}: {}\n", benchmarks_[b].command.name, message);
  }
  void round_finished(const process::RoundsResult& so_far) override {
    const double now = seconds_since_start();
    if (now - last_checkpoint_ >= 2.0) {
      last_checkpoint_ = now;
      checkpoint_(so_far);
    }
  }
  void clear() const {
    if (visible_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  double seconds_since_start() const {
    return static_cast<double>(clock::steady_clock().now_ns() - start_) / 1e9;
  }
  const std::vector<process::RoundBenchmark>& benchmarks_;
  bool visible_;
  std::function<void(const process::RoundsResult&)> checkpoint_;
  std::int64_t start_ = clock::steady_clock().now_ns();
  double last_checkpoint_ = 0.0;
};

// The results of the rounds in the result model (kind "command"); the shell probe, when there
// is one, is subtracted from every command and not listed.
RunResult to_results(const std::vector<process::RoundBenchmark>& benchmarks,
                     const process::RoundsResult& rounds, const std::string& rss_method,
                     bool with_shell_probe) {
  RunResult run;
  std::optional<stats::Interval> shell_ci;
  double shell_median = 0.0;
  for (std::size_t b = 0; b < benchmarks.size(); ++b) {
    const process::BenchmarkOutcome& outcome = rounds.benchmarks[b];
    BenchmarkResult result;
    result.name = benchmarks[b].command.name;
    result.kind = "command";
    result.params = benchmarks[b].command.params;
    result.command = benchmarks[b].command.display;
    for (const process::MeasuredRun& measured : outcome.runs) {
      Sample sample;
      sample.iters = 1;
      sample.ns = measured.record.wall_ns;
      sample.round = static_cast<std::uint32_t>(measured.round);
      sample.resources = measured.record.resources;
      result.samples.push_back(std::move(sample));
      if (const auto rss = measured.record.resources.peak_rss_bytes) {
        result.memory.peak_rss_bytes = std::max(result.memory.peak_rss_bytes.value_or(0), *rss);
      }
    }
    result.memory.peak_rss_method = rss_method;
    result.warm_up_iters = outcome.warmups.size();
    for (const process::RunRecord& w : outcome.warmups) result.warm_up_ns += w.wall_ns;
    if (!outcome.warmups.empty()) result.first_iteration_ns = outcome.warmups.front().wall_ns;
    if (!outcome.failure.empty()) result.failures.push_back(outcome.failure);
    if (with_shell_probe && b == 0) {
      std::vector<double> times;
      for (const Sample& s : result.samples) times.push_back(s.ns);
      if (!times.empty()) {
        shell_median = stats::median(times);
        shell_ci = stats::median_ci(times);
      }
      continue;
    }
    if (shell_ci) result.overhead_ns_per_sample = shell_median;
    analysis::compute_estimates(result);
    if (shell_ci) {
      // The shell's start-up is estimated too: its CI half-widths add in quadrature.
      Estimate& m = result.estimates.median;
      m.lower = m.value - std::hypot(m.value - m.lower, shell_median - shell_ci->lower);
      m.upper = m.value + std::hypot(m.upper - m.value, shell_ci->upper - shell_median);
      result.counters["shell_startup_ns"] = shell_median;
      result.counters["shell_startup_lower_ns"] = shell_ci->lower;
      result.counters["shell_startup_upper_ns"] = shell_ci->upper;
    }
    analysis::diagnose(result, analysis::ClockFacts{});
    run.benchmarks.push_back(std::move(result));
  }
  return run;
}

// The comparison of every command against the reference, on the paired rounds.
std::optional<analysis::Comparison> compare_to_reference(const RunResult& run,
                                                         const std::string& reference,
                                                         const analysis::CompareSettings& settings,
                                                         std::string& error) {
  if (run.benchmarks.size() < 2) return std::nullopt;
  const BenchmarkResult* base = &run.benchmarks.front();
  if (!reference.empty()) {
    base = nullptr;
    for (const BenchmarkResult& b : run.benchmarks) {
      if (b.name == reference) base = &b;
    }
    if (!base) {
      error =
          fmt::format("--reference \"{}\" is not one of the benchmarks; the names are:", reference);
      for (const BenchmarkResult& b : run.benchmarks) error += "\n  " + b.name;
      return std::nullopt;
    }
  }
  RunResult baseline;
  RunResult candidate;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (&b == base) continue;
    BenchmarkResult reference_copy = *base;
    reference_copy.name = b.name;
    baseline.benchmarks.push_back(std::move(reference_copy));
    candidate.benchmarks.push_back(b);
  }
  return analysis::compare(baseline, candidate, settings);
}

// Where whole processes were measured: the machine and the git state, not benchkit's own
// executable (the commands are what ran).
Context command_context(std::uint64_t seed) {
  Context context = system::collect_context(/*identify_executable=*/false);
  vcs::record(vcs::git_facts("."), context);
  context.tool_version = build_info::version;
  context.seed = seed;
  context.command_line = tool_command_line();
  return context;
}

// Writes every requested export; false (after saying why) when one cannot be written.
bool write_exports(const RunOptions& o, const RunResult& run) {
  bool ok = true;
  for (const auto& [path, format] : {std::pair{o.export_json, report::Format::json},
                                     std::pair{o.export_markdown, report::Format::markdown},
                                     std::pair{o.export_csv, report::Format::csv}}) {
    if (path.empty()) continue;
    const std::string text = report::make_reporter(format)->render(run);
    if (const auto written = store::write_file_atomically(path, text); !written) {
      std::cerr << "error: " << written.error().message << "\n";
      ok = false;
    }
  }
  return ok;
}

int run_commands(const CLI::App& command, RunOptions& o) {
  const std::vector<std::string>& trailing = trailing_arguments();
  // Which form: a bench binary, `-- CMD ARGS`, or --cmd (several).
  if (!o.positional.empty() && o.commands.empty() && is_bench_binary(o.positional.front())) {
    if (o.positional.size() > 1) {
      std::cerr << "error: a bench binary's own flags go after --: benchkit run "
                << o.positional.front() << " -- --filter X\n";
      return kUsageError;
    }
    return run_bench_binary(o, trailing);
  }
  if (o.processes != 0) {
    std::cerr << "error: --processes applies to benchkit bench binaries (which answer "
                 "--benchkit-info); a command's runs are each a fresh process already\n";
    return kUsageError;
  }
  std::vector<process::CommandSpec> specs;
  const bool use_shell = !o.shell.empty();
  auto add_command = [&](std::vector<std::string> argv, std::string text) -> bool {
    process::CommandSpec spec;
    if (use_shell) {
      spec.shell_command = text.empty() ? fmt::format("{}", fmt::join(argv, " ")) : text;
    } else if (!argv.empty()) {
      spec.argv = std::move(argv);
    } else {
      auto words = process::split_words(text);
      if (!words) {
        std::cerr << "error: --cmd " << words.error().message << "\n";
        return false;
      }
      spec.argv = std::move(*words);
    }
    specs.push_back(std::move(spec));
    return true;
  };
  if (!o.positional.empty() && !trailing.empty()) {
    std::cerr << fmt::format(
        "error: {} is not a benchkit bench binary (it does not answer --benchkit-info), so "
        "nothing may come before --: write benchkit run [options] -- {} ...\n",
        o.positional.front(), o.positional.front());
    return kUsageError;
  }
  std::vector<std::string> direct = !trailing.empty() ? trailing : o.positional;
  if (!direct.empty()) {
    if (!add_command(direct, use_shell ? fmt::format("{}", fmt::join(direct, " ")) : std::string()))
      return kUsageError;
  }
  for (const std::string& text : o.commands) {
    if (!add_command({}, text)) return kUsageError;
  }
  if (specs.empty()) {
    std::cerr << "error: no command to run; write benchkit run -- CMD ARGS..., or --cmd \"...\" "
                 "(repeatable) to compare several\n";
    return kUsageError;
  }
  const CommandLineLayout layout_of = layout(command, o, specs.size());
  if (!layout_of.error.empty()) {
    std::cerr << "error: " << layout_of.error << "\n";
    return kUsageError;
  }
  for (const std::string& e : o.env) {
    if (e.find('=') == std::string::npos || e.front() == '=') {
      std::cerr << fmt::format("error: --env \"{}\" is not KEY=VALUE\n", e);
      return kUsageError;
    }
  }
  for (std::size_t c = 0; c < specs.size(); ++c) {
    specs[c].name = layout_of.name_per_command[c];
    specs[c].env = layout_of.env_for_all;
    specs[c].env.insert(specs[c].env.end(), layout_of.env_per_command[c].begin(),
                        layout_of.env_per_command[c].end());
  }

  std::vector<process::Parameter> parameters;
  for (const auto& scan : o.scans) {
    char* end = nullptr;
    const double min = std::strtod(scan[1].c_str(), &end);
    const bool min_ok = end && *end == '\0' && !scan[1].empty();
    const double max = std::strtod(scan[2].c_str(), &end);
    const bool max_ok = end && *end == '\0' && !scan[2].empty();
    if (!min_ok || !max_ok) {
      std::cerr << fmt::format("error: --parameter-scan {} {} {}: MIN and MAX must be numbers\n",
                               scan[0], scan[1], scan[2]);
      return kUsageError;
    }
    auto p = process::scan_parameter(scan[0], min, max, o.step);
    if (!p) {
      std::cerr << "error: " << p.error().message << "\n";
      return kUsageError;
    }
    parameters.push_back(std::move(*p));
  }
  for (const auto& list : o.lists) {
    auto p = process::list_parameter(list[0], list[1]);
    if (!p) {
      std::cerr << "error: " << p.error().message << "\n";
      return kUsageError;
    }
    parameters.push_back(std::move(*p));
  }
  auto planned = process::expand(specs, parameters, use_shell ? o.shell : std::string());
  if (!planned) {
    std::cerr << "error: " << planned.error().message << "\n";
    return kUsageError;
  }

  process::RoundSettings settings;
  settings.warmup = o.warmup;
  settings.runs = o.runs;
  settings.min_runs = o.runs > 0 ? o.runs : o.min_runs;
  settings.max_runs = o.max_runs;
  if (o.max_runs > 0 && o.max_runs < settings.min_runs) {
    std::cerr << fmt::format("error: --max-runs {} is below --min-runs {}\n", o.max_runs,
                             settings.min_runs);
    return kUsageError;
  }
  const auto budget = parse_duration_ns(o.time_budget);
  if (!budget || *budget <= 0) {
    std::cerr << fmt::format(
        "error: --time-budget \"{}\" is not a positive duration; write e.g. 500ms, 3s or 1m\n",
        o.time_budget);
    return kUsageError;
  }
  settings.budget_ns = static_cast<double>(*budget);
  settings.timeout_seconds = o.timeout;
  settings.order = o.order == "random" ? process::Order::random : process::Order::alternate;
  settings.seed = o.seed;
  if (!o.ignore_failure.empty()) {
    if (o.ignore_failure == "all") {
      settings.ignore_all_failures = true;
    } else {
      const auto codes = process::list_parameter("--ignore-failure", o.ignore_failure);
      for (const std::string& code : codes ? codes->values : std::vector<std::string>{""}) {
        char* end = nullptr;
        const long value = std::strtol(code.c_str(), &end, 10);
        if (!end || *end != '\0' || value < 0 || value > 255) {
          std::cerr << fmt::format(
              "error: --ignore-failure={}: write exit codes 0-255 separated by commas, or "
              "--ignore-failure alone for every failure\n",
              o.ignore_failure);
          return kUsageError;
        }
        settings.ignored_exit_codes.push_back(static_cast<int>(value));
      }
    }
  }
  if (use_shell) settings.hook_shell = o.shell;
  settings.run_template.input_path = o.input;
  if (!o.input.empty() && ::access(o.input.c_str(), R_OK) != 0) {
    std::cerr << fmt::format("error: --input {}: cannot be read ({})\n", o.input,
                             std::strerror(errno));
    return kUsageError;
  }
  if (o.output == "null") {
    settings.run_template.output = process::Output::null;
  } else if (o.output == "pipe") {
    settings.run_template.output = process::Output::pipe;
  } else if (o.output == "inherit") {
    settings.run_template.output = process::Output::inherit;
  } else {
    settings.run_template.output = process::Output::file;
    settings.run_template.output_path = o.output;
    std::ofstream truncate(o.output, std::ios::trunc);
    if (!truncate) {
      std::cerr << fmt::format(
          "error: --output {}: cannot be written (use null, pipe, inherit or a file path)\n",
          o.output);
      return kUsageError;
    }
  }
  if (!o.pin.empty()) {
    auto cpus = parse_cpus(o.pin);
    if (!cpus) {
      std::cerr << "error: " << cpus.error().message << "\n";
      return kUsageError;
    }
    settings.run_template.cpus = std::move(*cpus);
  }

  // A missing baseline is found before anything runs.
  std::optional<RunResult> baseline;
  if (!o.save_baseline.empty()) {
    if (const auto path = store::baseline_path(o.save_baseline); !path) {
      std::cerr << "error: --save-baseline: " << path.error().message << "\n";
      return kUsageError;
    }
  }
  if (!o.baseline.empty()) {
    auto loaded = session::load_file_or_baseline(o.baseline);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().message << "\n";
      return kUsageError;
    }
    baseline = std::move(*loaded);
  }
  if (o.fail_on_regression && !baseline && planned->size() < 2) {
    std::cerr << "error: --fail-on-regression needs something to compare: --baseline NAME, or "
                 "several commands (compared with the --reference)\n";
    return kUsageError;
  }

  std::vector<process::RoundBenchmark> benchmarks;
  const bool shell_probe = use_shell;
  if (shell_probe) {
    process::RoundBenchmark probe;
    probe.command.name = kShellProbe;
    probe.command.argv = {o.shell, "-c", ""};
    probe.command.display = o.shell + " -c ''";
    benchmarks.push_back(std::move(probe));
  }
  for (process::PlannedCommand& p : *planned) {
    process::RoundBenchmark b;
    b.hooks.setup = process::substitute(o.setup, p.params);
    b.hooks.prepare = process::substitute(o.prepare, p.params);
    b.hooks.conclude = process::substitute(o.conclude, p.params);
    b.hooks.cleanup = process::substitute(o.cleanup, p.params);
    b.command = std::move(p);
    benchmarks.push_back(std::move(b));
  }

  process::ExecutorChoice executor = process::make_executor();
  if (!executor.warning.empty() && !o.quiet) std::cerr << "note: " << executor.warning << "\n";
  const std::string rss_method = executor.executor->peak_rss_method();

  const Context context = command_context(o.seed);
  auto finished_run = [&](const process::RoundsResult& rounds) {
    RunResult run = to_results(benchmarks, rounds, rss_method, shell_probe);
    run.context = context;
    return run;
  };

  const bool visible = !o.quiet && isatty(STDERR_FILENO) != 0;
  const bool has_exports =
      !o.export_json.empty() || !o.export_markdown.empty() || !o.export_csv.empty();
  Observer observer(benchmarks, visible, [&](const process::RoundsResult& so_far) {
    // The estimates of every benchmark (bootstraps included) are computed only to be written.
    if (has_exports) write_exports(o, finished_run(so_far));
  });
  process::install_interrupt_handler();
  const process::PrecisionCheck precise = [&o](const std::vector<double>& times) {
    if (times.size() < 2) return false;
    const double median = stats::median(times);
    const stats::Interval ci = stats::median_ci(times);
    return median > 0 && std::max(median - ci.lower, ci.upper - median) <= o.precision * median;
  };
  if (!o.quiet) {
    std::cerr << fmt::format("benchkit run: {} benchmark{}{}, interleaved in rounds ({} order)\n",
                             planned->size(), planned->size() == 1 ? "" : "s",
                             shell_probe ? " and the shell's start-up" : "", o.order);
  }
  const process::RoundsResult rounds = process::run_rounds(
      benchmarks, settings, *executor.executor, clock::steady_clock(), precise, observer);
  observer.clear();
  RunResult run = finished_run(rounds);

  int status = write_exports(o, run) ? 0 : kUsageError;
  const report::Options options{
      o.color == "always" ||
      (o.color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr)};
  if (!o.quiet) {
    std::cout << report::render_command_table(run, options);
    std::cout << fmt::format("{} round{}: {}\n", rounds.rounds, rounds.rounds == 1 ? "" : "s",
                             rounds.stop_reason);
  }
  const analysis::CompareSettings compare_settings =
      comparison_settings(o.noise_threshold, o.adjustment);
  std::string error;
  bool regressed = false;
  if (auto among = compare_to_reference(run, o.reference, compare_settings, error)) {
    among->design_warning.clear();
    if (!o.quiet) {
      const std::string reference = o.reference.empty() ? run.benchmarks.front().name : o.reference;
      std::cout << fmt::format("\nagainst {} (paired rounds):\n", reference)
                << report::render_comparison(*among, report::Format::console, options);
    }
    regressed = regressed || among->any_regression();
  } else if (!error.empty()) {
    std::cerr << "error: " << error << "\n";
    status = kUsageError;
  }
  if (baseline) {
    analysis::Comparison comparison = analysis::compare(*baseline, run, compare_settings);
    comparison.context_warning = session::context_differences(baseline->context, run.context);
    if (!o.quiet) {
      std::cout << fmt::format("\nagainst baseline {}:\n", o.baseline)
                << report::render_comparison(comparison, report::Format::console, options);
    }
    regressed = regressed || comparison.any_regression();
  }
  if (!o.save_baseline.empty()) {
    const auto saved = store::save_baseline(o.save_baseline, formats::to_json(run));
    if (!saved) {
      std::cerr << "error: " << saved.error().message << "\n";
      status = kUsageError;
    } else if (!o.quiet) {
      std::cout << fmt::format("baseline {} saved to {}\n", o.save_baseline, saved->path);
    }
  }
  std::cout.flush();
  if (rounds.interrupted) {
    std::cerr << "interrupted: the runs so far are in the table"
              << (o.export_json.empty() ? "" : " and in " + o.export_json) << "\n";
    return 130;
  }
  std::size_t failed = 0;
  for (const BenchmarkResult& b : run.benchmarks) failed += b.valid() ? 0 : 1;
  if (failed > 0) {
    std::cerr << fmt::format("{} benchmark{} failed\n", failed, failed == 1 ? "" : "s");
    return 1;
  }
  if (status != 0) return status;
  return o.fail_on_regression && regressed ? 1 : 0;
}

}  // namespace

model::Result<RunResult> run_command_repeatedly(const std::vector<std::string>& argv,
                                                std::size_t runs) {
  process::RoundBenchmark benchmark;
  benchmark.command.argv = argv;
  benchmark.command.display = fmt::format("{}", fmt::join(argv, " "));
  benchmark.command.name = benchmark.command.display;
  const std::vector<process::RoundBenchmark> benchmarks = {benchmark};
  process::RoundSettings settings;
  settings.warmup = 1;
  settings.runs = runs;
  process::ExecutorChoice executor = process::make_executor();
  const bool visible = isatty(STDERR_FILENO) != 0;
  Observer observer(benchmarks, visible, [](const process::RoundsResult&) {});
  process::install_interrupt_handler();
  const process::RoundsResult rounds = process::run_rounds(
      benchmarks, settings, *executor.executor, clock::steady_clock(), nullptr, observer);
  observer.clear();
  if (rounds.interrupted) return model::Error{"interrupted"};
  if (!rounds.benchmarks[0].failure.empty()) {  // the observer has said how
    return model::Error{benchmark.command.display + " failed; every run must succeed"};
  }
  RunResult run = to_results(benchmarks, rounds, executor.executor->peak_rss_method(), false);
  for (Sample& sample : run.benchmarks[0].samples) {
    sample.process = sample.round.value_or(0);
    sample.round.reset();
  }
  run.context = command_context(0);
  return run;
}

CommandRunner add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run",
      "Measure whole processes: benchkit run [options] -- CMD ARGS..., or --cmd \"...\" "
      "repeated to compare several (run interleaved in rounds A B, B A, ... so that drift hits "
      "all alike, and compared on the paired rounds). Commands are spawned without a shell "
      "unless --shell. A benchkit bench binary (benchkit run ./my_bench [-- bench flags]) is run "
      "in --processes fresh worker processes and its samples merged. Exit status: 0; 1 when a "
      "command failed or, with --fail-on-regression, regressed; 2 for usage errors; 130 when "
      "interrupted.");
  command->add_option("program", o->positional,
                      "A bench binary, or (without --) the command to measure");
  command
      ->add_option("--cmd", o->commands,
                   "A command to measure (repeatable); split into words like a shell would, "
                   "but without one unless --shell")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--name", o->names,
                   "Name of the --cmd before it (default: the command); may use {PARAM}")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_flag("--shell{/bin/sh}", o->shell,
                    "Run commands through a shell (--shell=PATH for another); its start-up "
                    "time is measured in the same rounds and subtracted");
  command->add_option("--warmup", o->warmup, "Runs per command before measuring (default 1)");
  command->add_option("--runs", o->runs, "Exactly this many measured runs per command");
  command->add_option("--min-runs", o->min_runs, "At least this many runs (default 10)");
  command->add_option("--max-runs", o->max_runs, "At most this many runs (default: no limit)");
  command->add_option("--time-budget", o->time_budget,
                      "Measuring time per command after --min-runs before stopping even if "
                      "imprecise (default 3s)");
  command
      ->add_option("--precision", o->precision,
                   "Stop once the median's 95% CI is within ±this fraction (default 0.01)")
      ->check(CLI::Range(1e-6, 1.0));
  command->add_option("--setup", o->setup, "Shell command run once per benchmark, before it");
  command->add_option("--prepare", o->prepare, "Shell command run before every run (not timed)");
  command->add_option("--conclude", o->conclude, "Shell command run after every run (not timed)");
  command->add_option("--cleanup", o->cleanup, "Shell command run once per benchmark, after it");
  command
      ->add_option("--parameter-scan", o->scans,
                   "NAME MIN MAX: run once per value, {NAME} replaced (repeatable: cartesian)")
      ->expected(3)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command->add_option("--parameter-step-size", o->step, "Step of --parameter-scan (default 1)");
  command
      ->add_option("--parameter-list", o->lists,
                   "NAME a,b,c: run once per value, {NAME} replaced (repeatable: cartesian)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--timeout", o->timeout,
                   "Seconds per run; then SIGTERM to its process group, SIGKILL 1 s later")
      ->check(CLI::PositiveNumber);
  command->add_flag("--ignore-failure{all}", o->ignore_failure,
                    "Count runs that fail (non-zero exit, signal) instead of stopping; "
                    "--ignore-failure=1,2 for these exit codes only");
  command->add_option("--input", o->input, "File given to every run as standard input");
  command->add_option("--output", o->output,
                      "Standard output of the runs: null (default), pipe (read by benchkit), "
                      "inherit, or a file path");
  command->add_option("--pin", o->pin, "Run on these CPUs only, e.g. 0 or 2-3");
  command
      ->add_option("--env", o->env,
                   "KEY=VALUE for the --cmd before it (for all when before every --cmd)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--order", o->order,
                   "Order within a round: alternate (A B, B A, ...; default) or random "
                   "(seeded by --seed)")
      ->check(CLI::IsMember({"alternate", "random"}));
  command->add_option("--seed", o->seed, "Seed of --order random (recorded in the results)");
  command->add_option("--reference", o->reference,
                      "The benchmark the others are compared with (default: the first)");
  command->add_option("--export-json", o->export_json,
                      "Write the results (benchkit result format, kind command) to this file; "
                      "rewritten as the rounds go, so a failure loses nothing");
  command->add_option("--export-markdown", o->export_markdown, "Write a Markdown table");
  command->add_option("--export-csv", o->export_csv, "Write a CSV table");
  command->add_flag("--quiet,-q", o->quiet, "No table and no progress");
  command->add_option("--color", o->color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  add_comparison_flags(*command, o->noise_threshold, o->adjustment);
  command->add_option("--save-baseline", o->save_baseline, "Save the results as baseline NAME");
  command->add_option("--baseline", o->baseline,
                      "Compare against a baseline name or result file, with verdicts");
  command->add_flag("--fail-on-regression", o->fail_on_regression,
                    "Exit with status 1 when a command regressed (against --baseline, or "
                    "against the --reference)");
  command
      ->add_option("--processes", o->processes,
                   "Bench binaries: fresh worker processes to run the suite in (default 5)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
  return [command, o]() -> int {
    if (!command->parsed()) return -1;
    return run_commands(*command, *o);
  };
}

}  // namespace benchkit::cli
