#include "cli/bench_flags.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "cli/report_output.hpp"
#include "session/history.hpp"
#include "store/baselines.hpp"

namespace benchkit::cli {
namespace {

void add_measurement_flags(CLI::App& app, BenchFlags& flags) {
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
                 "sampling together) is taken for hung: its worker is killed, it is recorded as "
                 "failed, and the run goes on with the next (default 300s)");
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
  app.add_option("--skip-tag", flags.skip_tags,
                 "Leave out the benchmarks registered with .skip_when(TAG, reason), e.g. "
                 "--skip-tag ci in a CI job: each is listed as skipped with its reason, in the "
                 "output and the result, and is neither a regression nor a failure (repeatable)");
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
}

void add_output_flags(CLI::App& app, BenchFlags& flags) {
  add_format_option(app, flags.format, "Output format",
                    "default console; json when --out is given");
  app.add_option("--out", flags.out,
                 "Write the results in --format to this file (atomically), and keep the console "
                 "table on stdout");
  add_html_option(app, flags.html);
  app.add_flag("--quiet,-q", flags.quiet, "No console table and no progress");
  app.add_option("--color", flags.color, "Colour: auto, always or never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--no-counters", flags.no_counters, "Do not open hardware counters");
}

void add_mode_flags(CLI::App& app, BenchFlags& flags) {
  app.add_option("--mode", flags.mode,
                 "What to measure: time (default); instructions: each benchmark runs in a fresh "
                 "process under valgrind's callgrind (pinned caches, no address randomisation, a "
                 "fixed environment) and its instructions, cache hits, estimated cycles and "
                 "system calls per iteration are counted, the same in every run, about 50x "
                 "slower (docs/instructions.md); counters: instructions:u from the CPU's "
                 "counters through perf_event_open, at native speed, where the machine has them")
      ->transform(
          mode_names({session::Mode::time, session::Mode::instructions, session::Mode::counters}));
  app.add_option("--keep-env", flags.keep_env,
                 "--mode instructions: pass this environment variable to the benchmarks "
                 "(repeatable); they otherwise get only PATH, HOME, TMPDIR, LC_ALL=C and "
                 "BENCHKIT_*, so that every run starts from the same stack");
  app.add_option("--counted-order", flags.counted_order,
                 "--mode instructions: run every benchmark in one valgrind process, in the "
                 "order chosen (forward) or reversed (reverse), instead of each in a fresh "
                 "process: counts that differ between the two depend on what ran before them "
                 "(benchkit noise --mode instructions compares them)")
      ->check(CLI::IsMember({"forward", "reverse"}));
  app.add_option("--profile-time", flags.profile_time,
                 "Run only the chosen benchmark's measured routine (choose one with --filter "
                 "NAME --exact) for this long, e.g. 30s, in this process, after its set-up and "
                 "one warm-up iteration: attach a profiler to the process id it prints "
                 "(perf record -p PID, heaptrack -p PID), or let benchkit profile do it "
                 "(docs/profiling.md)");
}

void add_baseline_flags(CLI::App& app, BenchFlags& flags) {
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
  app.add_option("--baseline-file", flags.baseline_file,
                 "Compare this run against a result file (any --out of a bench binary)")
      ->excludes(baseline_option);
  cli::add_comparison_flags(app, flags.comparison, true);
}

void add_run_flags(CLI::App& app, BenchFlags& flags) {
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
  add_fail_on_regression_flag(app, flags.fail_on_regression, "against the baseline");
  app.add_flag("--record", flags.record,
               "Record this run in the history, with its commit, branch and machine, for "
               "benchkit history trend and check (docs/history.md)");
  add_store_option(app, flags.store);
  app.add_flag("--in-process", flags.in_process,
               "Run every benchmark in this process instead of one forked worker each: for a "
               "debugger or a profiler that follows one process. A crash then ends the run "
               "(what finished before it is kept in --out)");
  // Answered by run_main before any flag is parsed; listed here for --help.
  static const std::string info_help =
      "Print {\"benchkit\": VERSION, \"protocol\": 1, \"turns\": true} on one line and exit: how "
      "the benchkit command recognises a bench binary";
  app.add_flag("--benchkit-info", info_help);
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

// A duration flag's value in nanoseconds into `target`; empty text leaves it as it is.
std::optional<model::Error> duration_flag(const std::string& text, const char* name,
                                          std::int64_t& target) {
  if (text.empty()) return std::nullopt;
  const auto ns = parse_duration_ns(text);
  if (!ns || *ns <= 0) {
    return model::Error{
        fmt::format("{} \"{}\" is not a positive duration; write e.g. 500ms, 2s or 100us", name,
                    text),
        model::ErrorKind::usage};
  }
  target = *ns;
  return std::nullopt;
}

}  // namespace

void add_bench_flags(CLI::App& app, BenchFlags& flags) {
  add_measurement_flags(app, flags);
  add_output_flags(app, flags);
  add_mode_flags(app, flags);
  add_baseline_flags(app, flags);
  add_run_flags(app, flags);
}

std::size_t max_rounds_of(const BenchFlags& flags) {
  return flags.max_rounds > 0 ? flags.max_rounds : kMaxRoundsFactor * flags.rounds;
}

model::Result<session::RunSettings> run_settings(BenchFlags& flags) {
  process::WorkerInvocation invocation;
  for (const auto& [text, name, target] :
       {std::tuple{&flags.time_budget, "--time-budget", &invocation.time_budget_ns},
        std::tuple{&flags.warm_up, "--warm-up", &invocation.warm_up_ns},
        std::tuple{&flags.timeout, "--timeout", &invocation.timeout_ns}}) {
    std::int64_t ns = 0;
    if (auto error = duration_flag(*text, name, ns)) return *error;
    if (!text->empty()) *target = ns;
  }
  if (auto error =
          duration_flag(flags.worker_timeout, "--worker-timeout", flags.worker_timeout_ns)) {
    return *error;
  }
  invocation.seed = flags.seed;
  invocation.no_counters = flags.no_counters;
  invocation.no_machine_warnings = flags.no_machine_warnings;
  invocation.tags = flags.tags;
  invocation.test = flags.test;
  invocation.mode = flags.mode;
  invocation.repetitions = flags.repetitions;
  invocation.sample_size = flags.sample_size;
  invocation.precision = flags.precision;
  return run_settings(invocation);
}

session::RunSettings run_settings(const process::WorkerInvocation& invocation) {
  session::RunSettings settings;
  settings.seed = invocation.seed.value_or(0);
  settings.counters = !invocation.no_counters;
  settings.machine_warnings = !invocation.no_machine_warnings;
  for (const std::string& tag : invocation.tags) {
    const auto equals = tag.find('=');
    settings.tags[tag.substr(0, equals)] = tag.substr(equals + 1);
  }
  settings.engine.test_mode = invocation.test;
  settings.callgrind_dumps = invocation.callgrind_dumps;
  if (invocation.mode == session::Mode::instructions) {
    // The machine does not change a count: no warnings about it, no hardware counters.
    settings.machine_warnings = false;
    settings.counters = false;
    if (invocation.sample_size > 0) settings.engine.counted_samples = invocation.sample_size;
  }
  settings.repetitions = std::max<std::size_t>(1, invocation.repetitions);
  if (invocation.sample_size > 0) settings.engine.min_samples = invocation.sample_size;
  if (invocation.precision > 0) settings.engine.precision = invocation.precision;
  if (invocation.time_budget_ns) settings.engine.time_budget_ns = *invocation.time_budget_ns;
  if (invocation.warm_up_ns) settings.engine.warm_up_ns = *invocation.warm_up_ns;
  settings.timeout_ns = invocation.timeout_ns.value_or(kDefaultTimeoutNs);
  return settings;
}

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

process::WorkerInvocation shared_worker_invocation(const BenchFlags& flags,
                                                   const session::RunSettings& settings) {
  process::WorkerInvocation invocation;
  invocation.filter = flags.filter;
  invocation.exact = flags.exact;
  invocation.skip_tags = flags.skip_tags;
  invocation.params = flags.params;
  invocation.sample_size = flags.sample_size;
  invocation.warm_up_ns = settings.engine.warm_up_ns;
  invocation.seed = settings.seed;
  invocation.repetitions = flags.repetitions;
  invocation.no_counters = flags.no_counters;
  invocation.no_machine_warnings = flags.no_machine_warnings;
  invocation.tags = flags.tags;
  return invocation;
}

std::optional<model::Error> check_before_running(const BenchFlags& flags, const CLI::App& app) {
  auto usage = [](std::string message) {
    return model::Error{std::move(message), model::ErrorKind::usage};
  };
  if (flags.max_rounds > 0 && flags.max_rounds < flags.rounds) {
    return usage(fmt::format(
        "--max-rounds {} is below --rounds {}: give at least as many (equal: no rounds beyond "
        "--rounds)",
        flags.max_rounds, flags.rounds));
  }
  if (!flags.save_baseline.empty()) {
    if (const auto path = store::baseline_path(flags.save_baseline); !path) {
      return usage("--save-baseline: " + path.error().message);
    }
  }
  if (flags.fail_on_regression && flags.baseline.empty() && flags.baseline_file.empty()) {
    return usage(
        "--fail-on-regression needs --baseline NAME or --baseline-file PATH to compare against");
  }
  for (const char* side_by_side_flag :
       {"--rounds", "--max-rounds", "--worker-timeout", "--saved-samples"}) {
    if (app.count(side_by_side_flag) > 0 && flags.baseline.empty()) {
      return usage(
          fmt::format("{} applies to comparisons against a saved baseline: add --baseline NAME",
                      side_by_side_flag));
    }
  }
  if (!flags.store.empty() && !flags.record) {
    return usage("--store names the history that --record writes to: add --record");
  }
  // A history that cannot be opened is found now, not after the run it would have kept.
  if (flags.record) {
    if (const auto opened = session::check_history(flags.store); !opened) return opened.error();
  }
  // A bad --out or --html path is found now, not after a long run whose results it would lose.
  for (const auto& [flag, path] :
       {std::pair{"--out", &flags.out}, std::pair{"--html", &flags.html}}) {
    if (path->empty()) continue;
    const std::filesystem::path out(*path);
    const std::filesystem::path folder =
        out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || access(folder.c_str(), W_OK) != 0) {
      return model::Error{fmt::format(
          "cannot write {} {}: folder {} {}", flag, *path, folder.string(),
          error ? "cannot be created (" + error.message() + ")" : std::string("is not writable"))};
    }
  }
  return std::nullopt;
}

report::Format output_format(const BenchFlags& flags) {
  std::string name = flags.format;
  if (name.empty()) name = flags.out.empty() ? "console" : "json";
  return report::parse_format(name).value();
}

}  // namespace benchkit::cli
