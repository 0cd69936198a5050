#include "cli/bench_flags.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "session/history.hpp"
#include "store/baselines.hpp"

namespace benchkit::cli {
namespace {

void add_measurement_flags(CLI::App& app, BenchFlags& flags) {
  add_filter_option(app, flags.filter, "Run only benchmarks", false);
  app.add_flag("--exact", flags.exact, "Treat --filter as a whole benchmark name, not a regex");
  app.add_flag("--list", flags.list, "List the benchmark names and exit");
  app.add_flag("--test", flags.test,
               "Smoke test: run each benchmark once, no statistics (what CTest should call)");
  add_time_budget_option(app, flags.time_budget, "default 1s");
  app.add_option("--warm-up", flags.warm_up,
                 "Warm-up time per benchmark, run whole (default: until two sample-sized "
                 "batches agree within 2%, at most 50ms)");
  app.add_option("--timeout", flags.timeout,
                 "A benchmark or scenario still running after this long (set-up, warm-up and "
                 "sampling together) is taken for hung: its worker is killed, it is recorded as "
                 "failed, and the run goes on with the next (default 300s)");
  app.add_option("--sample-size", flags.sample_size,
                 "Minimum samples per benchmark before the precision rule may stop (default "
                 "30, or 10 once the samples have taken 100 ms; a size given here is taken "
                 "whole)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  add_precision_option(app, flags.precision);
  add_seed_option(app, flags.seed);
  app.add_option("--repetitions", flags.repetitions,
                 "Run each scenario N times in this process, set-up included; each run is one "
                 "sample of each phase (default 1: a value without an interval)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  app.add_option("--skip-tag", flags.skip_tags,
                 "Leave out the benchmarks registered with .skip_when(TAG, reason), e.g. "
                 "--skip-tag ci in a CI job: each is listed as skipped with its reason, in the "
                 "output and the result, and is neither a regression nor a failure (repeatable)");
  add_shard_options(app, flags.shard, &flags.shard_by);
  add_param_option(app, flags.params);
}

void add_output_flags(CLI::App& app, BenchFlags& flags) {
  add_format_option(app, flags.format, "Output format",
                    "default console; json when --out is given");
  add_out_option(app, flags.out,
                 "Write the results in --format to this file (atomically), and keep the console "
                 "table on stdout");
  add_html_option(app, flags.html);
  add_quiet_flag(app, flags.quiet);
  add_color_option(app, flags.color, "Colour: auto, always or never (NO_COLOR is honoured)");
  app.add_flag("--no-counters", flags.no_counters, "Do not open hardware counters");
}

void add_mode_flags(CLI::App& app, BenchFlags& flags) {
  add_mode_option(
      app, flags.mode, {session::Mode::time, session::Mode::instructions, session::Mode::counters},
      "; instructions: each benchmark runs in a fresh process under valgrind's callgrind (pinned "
      "caches, no address randomisation, a fixed environment) and its instructions, cache hits, "
      "estimated cycles and system calls per iteration are counted, the same in every run, about "
      "50x slower (docs/instructions.md); counters: instructions:u from the CPU's counters "
      "through perf_event_open, at native speed, where the machine has them");
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
  add_save_baseline_option(app, flags.save_baseline);
  auto* baseline_option = app.add_option(
      "--baseline", flags.baseline,
      "Compare against saved baseline NAME and give verdicts. When the baseline kept its bench "
      "binary (every --save-baseline does), that binary is run again side by side with this "
      "one, sample by sample in turns, so that both see the machine in the same state "
      "(docs/verdicts.md)");
  add_rounds_option(app, flags.rounds, 2);
  add_max_rounds_option(app, flags.max_rounds);
  add_power_flags(app, flags.comparison);
  add_budget_option(app, flags.budget);
  add_worker_timeout_option(app, flags.worker_timeout);
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
  add_processes_option(app, flags.processes,
                       "default: 3 when saving a baseline or comparing with saved samples, else "
                       "1; docs/verdicts.md has the measured false-alarm rates; a side-by-side "
                       "comparison uses --rounds instead",
                       1, 64);
  add_fail_on_regression_flag(app, flags.fail_on_regression, "against the baseline");
  add_record_flag(app, flags.record);
  add_store_option(app, flags.store);
  add_group_option(app, flags.group);
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

}  // namespace

void add_bench_flags(CLI::App& app, BenchFlags& flags) {
  add_measurement_flags(app, flags);
  add_output_flags(app, flags);
  add_mode_flags(app, flags);
  add_baseline_flags(app, flags);
  add_run_flags(app, flags);
}

report::Format output_format(const BenchFlags& flags) {
  if (std::find(flags.given.begin(), flags.given.end(), "--format") != flags.given.end()) {
    return flags.format;
  }
  return flags.out.empty() ? report::Format::console : report::Format::json;
}

}  // namespace benchkit::cli
