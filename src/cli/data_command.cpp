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
  CLI::App* command = app.add_subcommand(
      "data",
      "Manifests of benchmark data files: each file's size and SHA-256 and the command that "
      "generates them, checked before a benchmark uses them (docs/data.md).");
  command->require_subcommand(1);
  CLI::App* manifest = command->add_subcommand(
      "manifest",
      "Write a manifest of FILE...: size, SHA-256, and the generator command and version if "
      "given. Paths are recorded relative to the manifest's folder. Digests are cached by size "
      "and modification time ($BENCHKIT_DIR/data-cache.json, default .benchkit/).");
  manifest->add_option("files", options->files, "Data files to list")->required();
  manifest->add_option("--generator", options->generator,
                       "The command that makes the files again (run from the manifest's "
                       "folder); a mismatch tells the user to run it");
  manifest->add_option("--generator-version", options->generator_version,
                       "The generator's version (a release, a commit), recorded beside it");
  manifest->add_option("--out", options->out, "The manifest to write (atomically)")->required();
  manifest->add_flag("--no-cache", options->no_cache,
                     "Hash every file, ignoring (and not updating) the digest cache");
  CLI::App* verify = command->add_subcommand(
      "verify",
      "Check every file of MANIFEST: size and SHA-256. Exit status 0 when all match; 2 when one "
      "is missing or differs (the message names it, both digests and the generator to run).");
  verify->add_option("manifest", options->manifest, "The manifest (benchkit data manifest)")
      ->required();
  verify->add_flag("--no-cache", options->no_cache,
                   "Hash every file, even those unchanged (size, modification time) since their "
                   "digest was cached");
  return when_parsed(command, [manifest, verify, options]() -> int {
    if (manifest->parsed()) return manifest_and_say(*options);
    if (verify->parsed()) return verify_and_say(*options);
    return report_error(model::Error{"benchkit data needs a subcommand: manifest or verify",
                                     model::ErrorKind::usage});
  });
}

}  // namespace benchkit::cli
