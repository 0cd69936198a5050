// `benchkit merge FILE... --out FILE`: the result files of a suite's shards joined into one run,
// or their comparisons joined into one comparison judged as one suite (session/shard_merge.hpp,
// docs/ci.md).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "formats/result_json.hpp"
#include "report/merge_lines.hpp"
#include "report/reporter.hpp"
#include "session/merge_options.hpp"

namespace benchkit::cli {

namespace {

using session::MergeOptions;

// The shards' comparisons joined and judged again as one suite, in --format (json by default:
// a comparison file; markdown: the one pull-request comment).
int merge_comparisons(const MergeOptions& options) {
  const auto merged = session::merge_comparison_files(options.files);
  if (!merged) return report_error(merged.error());
  const model::Format format = options.format;
  const int written =
      render_or_write(format, report::Document{.comparison = &merged->comparison}, options.out);
  if (written != 0) return written;
  for (const model::Error& gap : session::merge_gaps(merged->missing)) say_error(gap);
  if (!options.out.empty()) {
    std::cerr << report::merged_comparisons(merged->files, merged->comparison.benchmarks.size(),
                                            options.out);
  }
  return session::merge_status(*merged, options);
}

int merge_results(const MergeOptions& options) {
  if (auto refused = session::check_result_merge(options)) return report_error(*refused);
  const auto merged = session::merge_shard_files(options.files, options.allow_mixed_machines);
  if (!merged) return report_error(merged.error());
  const int written = print_or_write(formats::to_json(merged->run), options.out);
  if (written != 0) return written;
  for (const model::Error& gap : session::merge_gaps(merged->missing, merged->failed)) {
    say_error(gap);
  }
  if (!options.out.empty()) {
    std::cerr << report::merged_results(merged->files, merged->run.benchmarks.size(), options.out);
  }
  return session::merge_status(*merged);
}

}  // namespace

CommandRunner add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand("merge");
  command->add_option("files", options->files)->required();
  command->add_option("--out", options->out);
  command->add_flag("--allow-mixed-machines", options->allow_mixed_machines);
  add_fail_on_regression_flag(*command, options->fail_on_regression);
  add_format_option(*command, options->format);
  return when_parsed(command, [options]() -> int {
    const auto kind = session::merge_kind(options->files);
    if (!kind) return report_error(kind.error());
    return *kind == session::MergeKind::comparisons ? merge_comparisons(*options)
                                                    : merge_results(*options);
  });
}

}  // namespace benchkit::cli
