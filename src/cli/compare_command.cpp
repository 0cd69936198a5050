// `benchkit compare BASE NEW`: the verdicts of a new run against a baseline.
#include <fmt/format.h>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "analysis/compare.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "report/reporter.hpp"
#include "session/gbench_binary.hpp"
#include "session/result_files.hpp"
#include "session/runner.hpp"
#include "session/side_by_side.hpp"

namespace benchkit::cli {

namespace {
struct CompareOptions {
  std::string base;
  std::string candidate;
  std::string format = "console";
  std::string out;
  std::string html;
  double noise_threshold = 0.02;
  std::string adjustment = "holm";
  bool fail_on_regression = false;
  bool all_samples = false;
  std::size_t rounds = 10;
};

// An executable program rather than a result file: runnable, and not JSON text.
bool is_program(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) || ::access(path.c_str(), X_OK) != 0) {
    return false;
  }
  char first = 0;
  std::ifstream(path, std::ios::binary).get(first);
  return first != '{';
}

// The names `binary --list` prints (a benchkit bench binary).
model::Result<std::vector<std::string>> benchkit_names(const std::string& binary) {
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(30);
  const auto listed = process::run_captured({binary, "--list"}, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{fmt::format("{} --list could not list its benchmarks ({})", binary,
                                    listed ? listed->exit.describe() : listed.error().message),
                        model::ErrorKind::failed};
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < listed->out.size()) {
    std::size_t end = listed->out.find('\n', start);
    if (end == std::string::npos) end = listed->out.size();
    if (end > start) names.push_back(listed->out.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

// The benchmarks of `base` that `candidate` has too, in base's order.
std::vector<std::string> common(const std::vector<std::string>& base,
                                const std::vector<std::string>& candidate) {
  const std::set<std::string> theirs(candidate.begin(), candidate.end());
  std::vector<std::string> both;
  for (const std::string& name : base) {
    if (theirs.count(name)) both.push_back(name);
  }
  return both;
}

// `benchkit compare OLD_BINARY NEW_BINARY`: both benchkit bench binaries (sampling in turns,
// session/side_by_side.hpp) or both Google Benchmark binaries (session/gbench_binary.hpp), run
// side by side in paired rounds. `note` gets the sentence that says how they were measured.
model::Result<session::SideBySideRuns> run_binaries(const CompareOptions& o, std::string& note) {
  const std::array<std::string, 2> paths = {o.base, o.candidate};
  std::array<bool, 2> benchkit = {false, false};
  std::array<std::optional<std::vector<std::string>>, 2> gbench;
  std::array<std::string, 2> why;
  for (std::size_t side = 0; side < 2; ++side) {
    const auto answer = process::probe_bench_binary(paths[side]);
    benchkit[side] = answer && answer->benchkit && answer->turns;
    if (benchkit[side]) continue;
    if (!session::links_google_benchmark(paths[side])) {
      why[side] = "it does not answer --benchkit-info and does not link Google Benchmark";
      continue;
    }
    auto listed = session::list_gbench_benchmarks(paths[side], trailing_arguments());
    if (listed) {
      gbench[side] = std::move(*listed);
    } else {
      why[side] = listed.error().message;
    }
  }
  for (std::size_t side = 0; side < 2; ++side) {
    if (!benchkit[side] && !gbench[side]) {
      return model::Error{
          fmt::format("{} is an executable but neither a benchkit bench binary nor a Google "
                      "Benchmark binary ({}): give compare two result files, two baseline names, "
                      "or two bench binaries built with benchkit::main or Google Benchmark",
                      paths[side], why[side]),
          model::ErrorKind::usage};
    }
  }
  if (benchkit[0] != benchkit[1]) {
    return model::Error{
        fmt::format("{} is a {} binary and {} a {} one: compare runs two builds of one suite; "
                    "give two binaries of the same kind",
                    paths[0], benchkit[0] ? "benchkit" : "Google Benchmark", paths[1],
                    benchkit[1] ? "benchkit" : "Google Benchmark"),
        model::ErrorKind::usage};
  }
  const std::vector<std::string>& flags = trailing_arguments();
  auto progress = [](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                     const std::string& name) {
    std::cerr << fmt::format("\r\033[K[round {}/{}] [{}/{}] {}", round + 1, planned, index + 1,
                             count, name)
              << std::flush;
  };
  if (!benchkit[0]) {
    session::GbenchSideBySide plan;
    plan.baseline_executable = o.base;
    plan.candidate_executable = o.candidate;
    plan.benchmarks = common(*gbench[0], *gbench[1]);
    plan.rounds = o.rounds;
    plan.flags = flags;
    plan.progress = progress;
    note = fmt::format(
        "Google Benchmark binaries: {} rounds, each a fresh process of each build per benchmark "
        "(--benchmark_filter), the first of the two alternating; the comparison pairs the rounds",
        o.rounds);
    auto runs = session::run_gbench_side_by_side(plan);
    std::cerr << "\r\033[K";
    return runs;
  }
  const auto base_names = benchkit_names(o.base);
  if (!base_names) return base_names.error();
  const auto candidate_names = benchkit_names(o.candidate);
  if (!candidate_names) return candidate_names.error();
  session::SideBySide plan;
  plan.baseline_executable = o.base;
  plan.candidate_executable = o.candidate;
  plan.benchmarks = common(*base_names, *candidate_names);
  plan.rounds = o.rounds;
  plan.worker_flags = flags;
  // A second for each benchmark and side, the default --time-budget of a bench binary.
  plan.round_budget_ns =
      1'000'000'000 / static_cast<std::int64_t>(std::max<std::size_t>(1, o.rounds));
  plan.worker_timeout = std::chrono::seconds(60);
  plan.clock = session::process_clock().clock;
  plan.progress = progress;
  note = fmt::format(
      "benchkit bench binaries: {} rounds of fresh process pairs per benchmark taking samples "
      "in turns; the comparison pairs the rounds",
      o.rounds);
  auto runs = session::run_side_by_side(plan);
  std::cerr << "\r\033[K";
  return runs;
}

}  // namespace

namespace {
// --count-threshold: one value per process (a command line is parsed once), so that every
// command that compares takes it without each passing it on.
double count_threshold = analysis::kCountNoiseThreshold;
}  // namespace

void add_comparison_flags(CLI::App& command, double& noise_threshold, std::string& adjustment,
                          bool* all_samples) {
  command
      .add_option("--count-threshold", count_threshold,
                  "Counts (--mode instructions, counters): changes within ±this fraction are "
                  "'unchanged' (default 0.001 = ±0.1%; counts repeat exactly, so any larger "
                  "change is a verdict; docs/instructions.md)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--noise-threshold", noise_threshold,
                  "Changes within ±this fraction are 'unchanged' (default 0.02 = ±2%)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--adjust", adjustment,
                  "Correction of p-values across the benchmarks: holm (default), bh "
                  "(Benjamini-Hochberg) or none")
      ->check(CLI::IsMember({"holm", "bh", "none"}));
  if (all_samples) {
    command.add_flag("--all-samples", *all_samples,
                     "Compare every sample, also those taken while the machine ran slow (by "
                     "default both sides are cut at one machine speed, read from a reference "
                     "loop timed between samples; docs/verdicts.md)");
  }
}

analysis::CompareSettings comparison_settings(double noise_threshold, const std::string& adjustment,
                                              bool all_samples) {
  analysis::CompareSettings settings;
  settings.all_samples = all_samples;
  settings.noise_threshold = noise_threshold;
  settings.count_noise_threshold = count_threshold;
  settings.adjustment = adjustment == "bh"     ? analysis::Adjustment::benjamini_hochberg
                        : adjustment == "none" ? analysis::Adjustment::none
                                               : analysis::Adjustment::holm;
  return settings;
}

CommandRunner add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare a new run against a baseline: ratio of medians with its 95% CI, a rank test "
      "adjusted across all benchmarks, and a verdict per benchmark (regressed, improved, "
      "unchanged, inconclusive). BASE and NEW are result files (benchkit, Google Benchmark or "
      "hyperfine JSON) or baseline names; given two executables (benchkit or Google Benchmark "
      "binaries) it runs them side by side in paired rounds first. Exit status: "
      "0, or 1 with --fail-on-regression when a benchmark regressed; 2 for bad input.");
  command
      ->add_option("base", options->base,
                   "Baseline: a result file, a baseline name, or an executable")
      ->required();
  command
      ->add_option("new", options->candidate,
                   "New run: a result file, a baseline name, or an executable")
      ->required();
  add_format_option(*command, options->format, "Format of the comparison");
  command->add_option("--out", options->out, "Write to this file instead of stdout");
  add_html_option(*command, options->html);
  add_comparison_flags(*command, options->noise_threshold, options->adjustment,
                       &options->all_samples);
  command->add_flag("--fail-on-regression", options->fail_on_regression,
                    "Exit with status 1 when any benchmark regressed (for CI)");
  command
      ->add_option("--rounds", options->rounds,
                   "Two executables: paired rounds per benchmark (default 10; the comparison "
                   "needs at least 6). Flags after -- go to both builds")
      ->check(CLI::Range(1, 1000));
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    if (is_program(options->base) || is_program(options->candidate)) {
      if (!is_program(options->base) || !is_program(options->candidate)) {
        return report_error(model::Error{
            fmt::format("{} and {}: give two executables, or two result files or baselines, not "
                        "one of each",
                        options->base, options->candidate),
            model::ErrorKind::usage});
      }
      std::string note;
      auto runs = run_binaries(*options, note);
      if (!runs) return report_error(runs.error());
      analysis::Comparison comparison = analysis::compare(
          runs->baseline, runs->candidate,
          comparison_settings(options->noise_threshold, options->adjustment, options->all_samples));
      comparison.method_note = note;
      const auto format = report::parse_format(options->format).value();
      if (const int status =
              render_or_write(format, report::Document{.comparison = &comparison}, options->out);
          status != 0) {
        return status;
      }
      return options->fail_on_regression && comparison.any_regression() ? 1 : 0;
    }
    auto base = session::load_file_or_baseline(options->base);
    if (!base) {
      std::cerr << "error: " << base.error().message << "\n";
      return 2;
    }
    auto candidate = session::load_file_or_baseline(options->candidate);
    if (!candidate) {
      std::cerr << "error: " << candidate.error().message << "\n";
      return 2;
    }
    analysis::Comparison comparison = analysis::compare(
        *base, *candidate,
        comparison_settings(options->noise_threshold, options->adjustment, options->all_samples));
    comparison.context_warning = session::context_differences(base->context, candidate->context);
    const auto format = report::parse_format(options->format).value();
    // The HTML page shows the new run's samples under the verdicts; the other formats the
    // verdicts alone.
    const report::Document page{.results = &*candidate, .comparison = &comparison};
    const report::Document verdicts{.comparison = &comparison};
    if (const int status =
            render_or_write(format, format == report::Format::html ? page : verdicts, options->out);
        status != 0) {
      return status;
    }
    if (!options->html.empty()) {
      if (const int status = write_html(options->html, page); status != 0) return status;
    }
    return options->fail_on_regression && comparison.any_regression() ? 1 : 0;
  };
}

}  // namespace benchkit::cli
