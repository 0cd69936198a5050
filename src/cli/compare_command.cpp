// `benchkit compare BASE NEW`: the verdicts of a new run against a baseline.
#include <fmt/format.h>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
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
  ComparisonFlags comparison;
  bool fail_on_regression = false;
  std::size_t rounds = 10;
  std::string filter;
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

// The benchmarks of `base` that `candidate` has too and whose name `filter` matches (searched
// anywhere in the name; empty matches all), in base's order.
std::vector<std::string> common(const std::vector<std::string>& base,
                                const std::vector<std::string>& candidate,
                                const std::optional<std::regex>& filter) {
  const std::set<std::string> theirs(candidate.begin(), candidate.end());
  std::vector<std::string> both;
  for (const std::string& name : base) {
    if (theirs.count(name) && (!filter || std::regex_search(name, *filter))) both.push_back(name);
  }
  return both;
}

// One executable given to compare: which kind of bench binary it is, and its benchmarks.
struct Probed {
  bool benchkit = false;  // else Google Benchmark
  std::vector<std::string> names;
};

model::Result<Probed> probe_binary(const std::string& path, const std::vector<std::string>& flags) {
  const auto answer = process::probe_bench_binary(path);
  if (answer && answer->benchkit && answer->turns) {
    auto names = benchkit_names(path);
    if (!names) return names.error();
    return Probed{true, std::move(*names)};
  }
  std::string why = "it does not answer --benchkit-info and does not link Google Benchmark";
  if (session::links_google_benchmark(path)) {
    auto listed = session::list_gbench_benchmarks(path, flags);
    if (listed) return Probed{false, std::move(*listed)};
    why = listed.error().message;
  }
  return model::Error{
      fmt::format("{} is an executable but neither a benchkit bench binary nor a Google "
                  "Benchmark binary ({}): give compare two result files, two baseline names, or "
                  "two bench binaries built with benchkit::main or Google Benchmark",
                  path, why),
      model::ErrorKind::usage};
}

// The fields both kinds of side-by-side plan share, filled in one place.
template <class Plan>
Plan paired_plan(const CompareOptions& o, std::vector<std::string> benchmarks) {
  Plan plan;
  plan.baseline_executable = o.base;
  plan.candidate_executable = o.candidate;
  plan.benchmarks = std::move(benchmarks);
  plan.rounds = o.rounds;
  plan.progress = [](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                     const std::string& name) {
    std::cerr << fmt::format("\r\033[K[round {}/{}] [{}/{}] {}", round + 1, planned, index + 1,
                             count, name)
              << std::flush;
  };
  return plan;
}

// The two runs compare judges, and the sentence that says how they were measured (empty for
// result files and baselines).
struct Compared {
  RunResult base;
  RunResult candidate;
  std::string method_note;
};

// `benchkit compare OLD_BINARY NEW_BINARY`: both benchkit bench binaries (sampling in turns,
// session/side_by_side.hpp) or both Google Benchmark binaries (session/gbench_binary.hpp), run
// side by side in paired rounds.
model::Result<Compared> run_binaries(const CompareOptions& o) {
  const std::vector<std::string>& flags = trailing_arguments();
  const auto base = probe_binary(o.base, flags);
  if (!base) return base.error();
  const auto candidate = probe_binary(o.candidate, flags);
  if (!candidate) return candidate.error();
  if (base->benchkit != candidate->benchkit) {
    return model::Error{
        fmt::format("{} is a {} binary and {} a {} one: compare runs two builds of one suite; "
                    "give two binaries of the same kind",
                    o.base, base->benchkit ? "benchkit" : "Google Benchmark", o.candidate,
                    candidate->benchkit ? "benchkit" : "Google Benchmark"),
        model::ErrorKind::usage};
  }
  if (base->benchkit) {
    // Each worker is told which benchmark to run with --filter/--exact: a second one from the
    // user would make it refuse its command line.
    for (const std::string& flag : flags) {
      if (flag == "--filter" || flag.starts_with("--filter=") || flag == "--exact") {
        return model::Error{fmt::format("{} after --: flags after -- go to every worker of "
                                        "both builds; choose benchmarks with compare's own "
                                        "--filter REGEX, before --",
                                        flag),
                            model::ErrorKind::usage};
      }
    }
  }
  std::optional<std::regex> filter;
  if (!o.filter.empty()) {
    try {
      filter.emplace(o.filter);
    } catch (const std::regex_error& error) {
      return model::Error{
          fmt::format("--filter \"{}\" is not a regular expression ({})", o.filter, error.what()),
          model::ErrorKind::usage};
    }
  }
  std::vector<std::string> benchmarks = common(base->names, candidate->names, filter);
  if (benchmarks.empty()) {
    return model::Error{
        fmt::format("{} and {} have no benchmark in common{}: list them with --list (benchkit) "
                    "or --benchmark_list_tests (Google Benchmark)",
                    o.base, o.candidate,
                    filter ? fmt::format(" that --filter \"{}\" matches", o.filter) : ""),
        model::ErrorKind::usage};
  }
  Compared out;
  model::Result<session::SideBySideRuns> runs = model::Error{"not run"};
  if (!base->benchkit) {
    auto plan = paired_plan<session::GbenchSideBySide>(o, std::move(benchmarks));
    plan.flags = flags;
    out.method_note = fmt::format(
        "Google Benchmark binaries: {} rounds, each a fresh process of each build per benchmark "
        "(--benchmark_filter), the first of the two alternating; the comparison pairs the rounds",
        o.rounds);
    runs = session::run_gbench_side_by_side(plan);
  } else {
    auto plan = paired_plan<session::SideBySide>(o, std::move(benchmarks));
    plan.worker_flags = flags;
    // A second for each benchmark and side, the default --time-budget of a bench binary.
    plan.round_budget_ns =
        1'000'000'000 / static_cast<std::int64_t>(std::max<std::size_t>(1, o.rounds));
    plan.worker_timeout = std::chrono::seconds(60);
    plan.clock = session::process_clock().clock;
    out.method_note = fmt::format(
        "benchkit bench binaries: {} rounds of fresh process pairs per benchmark taking samples "
        "in turns; the comparison pairs the rounds",
        o.rounds);
    runs = session::run_side_by_side(plan);
  }
  std::cerr << "\r\033[K";
  if (!runs) return runs.error();
  out.base = std::move(runs->baseline);
  out.candidate = std::move(runs->candidate);
  return out;
}

// BASE and NEW: two executables run now, or two result files or baselines read.
model::Result<Compared> compared_inputs(const CompareOptions& o) {
  const bool base_runs = is_program(o.base);
  const bool candidate_runs = is_program(o.candidate);
  if (base_runs != candidate_runs) {
    return model::Error{fmt::format("{} and {}: give two executables, or two result files or "
                                    "baselines, not one of each",
                                    o.base, o.candidate),
                        model::ErrorKind::usage};
  }
  if (base_runs) return run_binaries(o);
  auto base = session::load_file_or_baseline(o.base);
  if (!base) return model::Error{base.error().message, model::ErrorKind::input};
  auto candidate = session::load_file_or_baseline(o.candidate);
  if (!candidate) return model::Error{candidate.error().message, model::ErrorKind::input};
  return Compared{std::move(*base), std::move(*candidate), {}};
}

}  // namespace

void add_comparison_flags(CLI::App& command, ComparisonFlags& flags, bool with_all_samples) {
  command
      .add_option("--count-threshold", flags.count_threshold,
                  "Counts (--mode instructions, counters): changes within ±this fraction are "
                  "'unchanged' (default 0.001 = ±0.1%; counts repeat exactly, so any larger "
                  "change is a verdict; docs/instructions.md)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--noise-threshold", flags.noise_threshold,
                  "Changes within ±this fraction are 'unchanged' (default 0.02 = ±2%)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--adjust", flags.adjustment,
                  "Correction of p-values across the benchmarks: holm (default), bh "
                  "(Benjamini-Hochberg) or none")
      ->check(CLI::IsMember({"holm", "bh", "none"}));
  if (with_all_samples) {
    command.add_flag("--all-samples", flags.all_samples,
                     "Compare every sample, also those taken while the machine ran slow (by "
                     "default both sides are cut at one machine speed, read from a reference "
                     "loop timed between samples; docs/verdicts.md)");
  }
}

analysis::CompareSettings comparison_settings(const ComparisonFlags& flags) {
  analysis::CompareSettings settings;
  settings.all_samples = flags.all_samples;
  settings.noise_threshold = flags.noise_threshold;
  settings.count_noise_threshold = flags.count_threshold;
  settings.adjustment = flags.adjustment == "bh"     ? analysis::Adjustment::benjamini_hochberg
                        : flags.adjustment == "none" ? analysis::Adjustment::none
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
  add_comparison_flags(*command, options->comparison, true);
  command->add_flag("--fail-on-regression", options->fail_on_regression,
                    "Exit with status 1 when any benchmark regressed (for CI)");
  command
      ->add_option("--rounds", options->rounds,
                   "Two executables: paired rounds per benchmark (default 10; the comparison "
                   "needs at least 6). Flags after -- go to both builds")
      ->check(CLI::Range(1, 1000));
  command->add_option("--filter,--bench", options->filter,
                      "Two executables: only the benchmarks (of both) whose name matches this "
                      "regular expression (searched anywhere in the name)");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    const auto inputs = compared_inputs(*options);
    if (!inputs) return report_error(inputs.error());
    analysis::Comparison comparison = analysis::compare(inputs->base, inputs->candidate,
                                                        comparison_settings(options->comparison));
    if (inputs->method_note.empty()) {
      comparison.context_warning =
          session::context_differences(inputs->base.context, inputs->candidate.context);
    } else {
      comparison.method_note = inputs->method_note;
    }
    const auto format = report::parse_format(options->format).value();
    // The HTML page shows the new run's samples under the verdicts; the other formats the
    // verdicts alone.
    const report::Document page{.results = &inputs->candidate, .comparison = &comparison};
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
