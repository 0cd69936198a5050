// `benchkit data manifest FILE... --out MANIFEST` and `benchkit data verify MANIFEST`: the
// manifests of benchmark data files (docs/data.md). formats/data_manifest is the file,
// store/input_files the checking and the digest cache.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "formats/data_manifest.hpp"
#include "store/atomic_file.hpp"
#include "store/digest_cache.hpp"
#include "store/file_digest.hpp"
#include "store/input_files.hpp"

namespace benchkit::cli {

namespace {

namespace fs = std::filesystem;

struct DataOptions {
  std::vector<std::string> files;
  std::string generator;
  std::string generator_version;
  std::string out;
  std::string manifest;
  bool no_cache = false;
};

// `file` as the manifest at `manifest_path` records it: relative to the manifest's folder.
std::string as_listed(const std::string& file, const std::string& manifest_path) {
  const fs::path folder = fs::absolute(fs::path(manifest_path)).lexically_normal().parent_path();
  const fs::path relative = fs::absolute(file).lexically_normal().lexically_relative(folder);
  return relative.empty() ? file : relative.string();
}

store::DigestCache cache_of(const DataOptions& options) {
  return options.no_cache ? store::DigestCache()
                          : store::DigestCache::load(store::digest_cache_path());
}

int write_manifest(const DataOptions& options) {
  formats::DataManifest manifest;
  manifest.generator = options.generator;
  manifest.generator_version = options.generator_version;
  store::DigestCache cache = cache_of(options);
  for (const std::string& file : options.files) {
    const auto stamp = store::stamp_of(file);
    if (!stamp) return report_error(stamp.error());
    const std::string key = fs::absolute(file).lexically_normal().string();
    std::string digest;
    if (auto cached = cache.find(key, *stamp)) {
      digest = *cached;
    } else {
      auto hashed = store::sha256_of(file);
      if (!hashed) return report_error(hashed.error());
      digest = *hashed;
      cache.remember(key, *stamp, digest);
    }
    const std::string listed = as_listed(file, options.out);
    for (const formats::DataFile& known : manifest.files) {
      if (known.path == listed) {
        return report_error(model::Error{
            fmt::format("{} is given twice; name each file once", file), model::ErrorKind::usage});
      }
    }
    manifest.files.push_back({listed, stamp->bytes, digest});
  }
  (void)cache.save();  // a cache only: a failure costs a hash next time
  const auto written =
      store::write_file_atomically(options.out, formats::manifest_to_json(manifest));
  if (!written) return report_error(written.error());
  std::cout << fmt::format("{}: {} file(s) with size and SHA-256{}\n", options.out,
                           manifest.files.size(),
                           manifest.generator.empty() ? "" : ", and how to regenerate them");
  return 0;
}

int verify_manifest(const DataOptions& options) {
  const auto text = store::read_file(options.manifest);
  if (!text) return report_error(text.error());
  const auto manifest = formats::manifest_from_json(*text, options.manifest);
  if (!manifest) return report_error(manifest.error());
  store::DigestCache cache = cache_of(options);
  const auto checked = store::check_manifest(options.manifest, *manifest, cache);
  (void)cache.save();
  if (!checked) return report_error(checked.error());
  std::size_t hashed = 0;
  for (const store::CheckedFile& file : *checked) {
    hashed += file.hashed ? 1 : 0;
    std::cout << fmt::format("ok  {}  {} bytes  {}{}\n", file.file.sha256, file.file.bytes,
                             file.file.path, file.hashed ? "" : "  (digest cached)");
  }
  std::cout << fmt::format("{}: all {} file(s) match ({} hashed, {} unchanged since cached)\n",
                           options.manifest, checked->size(), hashed, checked->size() - hashed);
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
  return [command, manifest, verify, options]() -> int {
    if (!command->parsed()) return -1;
    if (manifest->parsed()) return write_manifest(*options);
    if (verify->parsed()) return verify_manifest(*options);
    return report_error(model::Error{"benchkit data needs a subcommand: manifest or verify",
                                     model::ErrorKind::usage});
  };
}

}  // namespace benchkit::cli
