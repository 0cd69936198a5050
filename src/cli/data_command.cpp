// `benchkit data manifest FILE... --out MANIFEST` and `benchkit data verify MANIFEST`: the
// manifests of benchmark data files (docs/data.md), made and checked by session/data_manifests.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "report/data_lines.hpp"
#include "session/data_manifests.hpp"

namespace benchkit::cli {

namespace {

using session::DataOptions;

int manifest_and_say(const DataOptions& options) {
  const auto manifest = session::write_manifest(options);
  if (!manifest) return report_error(manifest.error());
  std::cout << report::manifest_written(options.out, manifest->files.size(),
                                        !manifest->generator.empty());
  return 0;
}

int verify_and_say(const DataOptions& options) {
  const auto checked = session::verify_manifest(options);
  if (!checked) return report_error(checked.error());
  std::size_t hashed = 0;
  for (const store::CheckedFile& file : *checked) {
    hashed += file.hashed ? 1 : 0;
    std::cout << report::file_verified(file.file, file.hashed);
  }
  std::cout << report::manifest_verified(options.manifest, checked->size(), hashed);
  return 0;
}

}  // namespace

CommandRunner add_data_command(CLI::App& app) {
  auto options = std::make_shared<DataOptions>();
  CLI::App* command = app.add_subcommand("data");
  command->require_subcommand(1);
  CLI::App* manifest = command->add_subcommand("manifest");
  manifest->add_option("files", options->files)->required();
  manifest->add_option("--generator", options->generator);
  manifest->add_option("--generator-version", options->generator_version);
  manifest->add_option("--out", options->out)->required();
  manifest->add_flag("--no-cache", options->no_cache);
  CLI::App* verify = command->add_subcommand("verify");
  verify->add_option("manifest", options->manifest)->required();
  verify->add_flag("--no-cache", options->no_cache);
  return when_parsed(command, [manifest, verify, options]() -> int {
    if (manifest->parsed()) return manifest_and_say(*options);
    if (verify->parsed()) return verify_and_say(*options);
    return report_error(model::Error{"benchkit data needs a subcommand: manifest or verify",
                                     model::ErrorKind::usage});
  });
}

}  // namespace benchkit::cli
