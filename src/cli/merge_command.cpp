// `benchkit merge FILE... --out FILE`: the result files of a suite's shards joined into one run
// (session/shard_merge.hpp, docs/ci.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "formats/result_json.hpp"
#include "session/shard_merge.hpp"

namespace benchkit::cli {

namespace {
struct MergeOptions {
  std::vector<std::string> files;
  std::string out;
  bool allow_mixed_machines = false;
};
}  // namespace

CommandRunner add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "merge",
      "Join the result files of a suite's shards (--shard K/N, each run by its own CI runner) "
      "into one run, read everywhere a result file is (report, compare, history add). Refused: "
      "a benchmark in two files, different builds (executable SHA-256), different commits, "
      "different splits, and different machines unless --allow-mixed-machines. A shard missing "
      "from the recorded K/N and benchmarks that failed are named (docs/ci.md). Exit status: 0; "
      "1 the run is merged but a shard is missing or a benchmark failed; 2 refused or bad "
      "input.");
  command->add_option("files", options->files, "The shards' result files")->required();
  add_out_option(*command, options->out,
                 "Write the merged result here (atomically) instead of stdout");
  command->add_flag("--allow-mixed-machines", options->allow_mixed_machines,
                    "Merge shards measured on machines of different fingerprints; each "
                    "benchmark then keeps its machine (benchmarks[].machine)");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    const auto merged = session::merge_shard_files(options->files, options->allow_mixed_machines);
    if (!merged) return report_error(merged.error());
    const int written = print_or_write(formats::to_json(merged->run), options->out);
    if (written != 0) return written;
    for (const std::string& missing : merged->missing) {
      say_error(model::Error{"missing from the merge: " + missing, model::ErrorKind::failed});
    }
    for (const std::string& failed : merged->failed) {
      say_error(model::Error{fmt::format("benchmark {} failed", failed), model::ErrorKind::failed});
    }
    if (!options->out.empty()) {
      std::cerr << fmt::format("merged {} file(s), {} benchmarks, into {}\n", merged->files,
                               merged->run.benchmarks.size(), options->out);
    }
    return merged->incomplete() ? 1 : 0;
  };
}

}  // namespace benchkit::cli
