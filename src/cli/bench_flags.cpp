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
  app.add_option("--filter", flags.filter);
  app.add_flag("--exact", flags.exact);
  app.add_flag("--list", flags.list);
  app.add_flag("--test", flags.test);
  app.add_option("--time-budget", flags.time_budget);
  app.add_option("--warm-up", flags.warm_up);
  app.add_option("--timeout", flags.timeout);
  app.add_option("--sample-size", flags.sample_size)
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  add_precision_option(app, flags.precision);
  app.add_option("--seed", flags.seed);
  app.add_option("--repetitions", flags.repetitions)
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  app.add_option("--skip-tag", flags.skip_tags);
  add_shard_options(app, flags.shard, &flags.shard_by);
  add_param_option(app, flags.params);
}

void add_output_flags(CLI::App& app, BenchFlags& flags) {
  add_format_option(app, flags.format);
  app.add_option("--out", flags.out);
  app.add_option("--html", flags.html);
  app.add_flag("--quiet,-q", flags.quiet);
  add_color_option(app, flags.color);
  app.add_flag("--no-counters", flags.no_counters);
}

void add_mode_flags(CLI::App& app, BenchFlags& flags) {
  add_mode_option(app, flags.mode,
                  {session::Mode::time, session::Mode::instructions, session::Mode::counters});
  app.add_option("--keep-env", flags.keep_env);
  app.add_option("--counted-order", flags.counted_order)
      ->check(CLI::IsMember({"forward", "reverse"}));
  app.add_option("--profile-time", flags.profile_time);
}

void add_baseline_flags(CLI::App& app, BenchFlags& flags) {
  app.add_option("--save-baseline", flags.save_baseline);
  auto* baseline_option = app.add_option("--baseline", flags.baseline);
  add_rounds_option(app, flags.rounds, 2);
  add_max_rounds_option(app, flags.max_rounds);
  add_power_flags(app, flags.comparison);
  app.add_option("--budget", flags.budget);
  app.add_option("--worker-timeout", flags.worker_timeout);
  app.add_flag("--saved-samples", flags.saved_samples);
  app.add_option("--baseline-file", flags.baseline_file)->excludes(baseline_option);
  cli::add_comparison_flags(app, flags.comparison, true);
}

void add_run_flags(CLI::App& app, BenchFlags& flags) {
  app.add_flag("--no-machine-warnings", flags.no_machine_warnings);
  app.add_option("--tag", flags.tags)->check([](const std::string& text) {
    const auto equals = text.find('=');
    return equals == std::string::npos || equals == 0
               ? std::string("a tag is key=value, e.g. --tag compiler=clang")
               : std::string();
  });
  add_processes_option(app, flags.processes, 1, 64);
  add_fail_on_regression_flag(app, flags.fail_on_regression);
  add_recording_flags(app, flags.record, flags.store, flags.group);
  app.add_flag("--in-process", flags.in_process);
  // Answered by run_main before any flag is parsed; listed here for --help.
  app.add_flag("--benchkit-info");
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
