// `benchkit merge FILE... --out FILE`: the result files of a suite's shards joined into one run,
// or their comparisons joined into one comparison judged as one suite (session/shard_merge.hpp,
// docs/ci.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "formats/result_json.hpp"
#include "report/reporter.hpp"
#include "session/shard_merge.hpp"

namespace benchkit::cli {

namespace {
struct MergeOptions {
  std::vector<std::string> files;
  std::string out;
  std::string format = "json";
  bool allow_mixed_machines = false;
  bool fail_on_regression = false;  // comparisons only: a merged run has no verdicts
};

// Says on stderr what the merge lacks (each an error of kind failed, which makes exit status 1).
void say_missing(const std::vector<std::string>& missing) {
  for (const std::string& shard : missing) {
    say_error(model::Error{"missing from the merge: " + shard, model::ErrorKind::failed});
  }
}

// The shards' comparisons joined and judged again as one suite, in --format (json by default:
// a comparison file; markdown: the one pull-request comment).
int merge_comparisons(const MergeOptions& options) {
  const auto merged = session::merge_comparison_files(options.files);
  if (!merged) return report_error(merged.error());
  const auto format = report::parse_format(options.format).value();
  const int written =
      render_or_write(format, report::Document{.comparison = &merged->comparison}, options.out);
  if (written != 0) return written;
  say_missing(merged->missing);
  if (!options.out.empty()) {
    std::cerr << fmt::format("merged {} comparison file(s), {} benchmarks, into {}\n",
                             merged->files, merged->comparison.benchmarks.size(), options.out);
  }
  const bool regressed = options.fail_on_regression && merged->comparison.any_regression();
  return merged->incomplete() || regressed ? 1 : 0;
}

int merge_results(const MergeOptions& options) {
  if (options.fail_on_regression) {
    return report_error(model::Error{
        "--fail-on-regression: result files hold no verdicts to fail on; merge the shards' "
        "comparisons (compare/ab --shard K/N --format json), or judge the merged run with "
        "benchkit compare or benchkit history check --fail-on-regression",
        model::ErrorKind::usage});
  }
  if (options.format != "json") {
    return report_error(model::Error{
        fmt::format("--format {}: a merged run is written as a result file (JSON); give it to "
                    "benchkit report --format {} (--format applies to merged comparisons)",
                    options.format, options.format),
        model::ErrorKind::usage});
  }
  const auto merged = session::merge_shard_files(options.files, options.allow_mixed_machines);
  if (!merged) return report_error(merged.error());
  const int written = print_or_write(formats::to_json(merged->run), options.out);
  if (written != 0) return written;
  say_missing(merged->missing);
  for (const std::string& failed : merged->failed) {
    say_error(model::Error{fmt::format("benchmark {} failed", failed), model::ErrorKind::failed});
  }
  if (!options.out.empty()) {
    std::cerr << fmt::format("merged {} file(s), {} benchmarks, into {}\n", merged->files,
                             merged->run.benchmarks.size(), options.out);
  }
  return merged->incomplete() ? 1 : 0;
}

}  // namespace

CommandRunner add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "merge",
      "Join the result files of a suite's shards (--shard K/N, each run by its own CI runner) "
      "into one run, read everywhere a result file is (report, compare, history add); or join "
      "the shards' comparisons (compare/ab --shard K/N --format json) into one, judged as one "
      "suite (the multiple-comparison adjustment over all the shards' benchmarks; --format "
      "markdown for one pull-request comment). Refused: a mix of results and comparisons, a "
      "benchmark in two files, different builds (executable SHA-256), different commits, "
      "different splits, and different machines unless --allow-mixed-machines (results). A "
      "shard missing from the recorded K/N and benchmarks that failed are named (docs/ci.md). "
      "Exit status: 0; 1 merged but a shard is missing or a benchmark failed, or (comparisons, "
      "--fail-on-regression) a benchmark regressed; 2 refused or bad input.");
  command->add_option("files", options->files, "The shards' result files, or their comparisons")
      ->required();
  add_out_option(*command, options->out,
                 "Write the merged result here (atomically) instead of stdout");
  command->add_flag("--allow-mixed-machines", options->allow_mixed_machines,
                    "Merge shards measured on machines of different fingerprints; each "
                    "benchmark then keeps its machine (benchmarks[].machine)");
  add_fail_on_regression_flag(*command, options->fail_on_regression,
                              "in the merged comparison (after the suite's adjustment)");
  add_format_option(*command, options->format,
                    "Format of a merged comparison (a merged run is always a JSON result file)",
                    "default json");
  return when_parsed(command, [options]() -> int {
    const auto kind = session::merge_kind(options->files);
    if (!kind) return report_error(kind.error());
    return *kind == session::MergeKind::comparisons ? merge_comparisons(*options)
                                                    : merge_results(*options);
  });
}

}  // namespace benchkit::cli
