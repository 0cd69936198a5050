// `benchkit data`'s options as plain data (cli/data_command.cpp binds its flags to these fields)
// and its two jobs: a manifest of benchmark data files written, and one checked (docs/data.md).
// formats/data_manifest is the file, store/input_files the checking and the digest cache.
#pragma once

#include <string>
#include <vector>

#include "formats/data_manifest.hpp"
#include "model/error.hpp"
#include "store/input_files.hpp"

namespace benchkit::session {

struct DataOptions {
  std::vector<std::string> files;
  std::string generator;
  std::string generator_version;
  std::string out;       // manifest: the file written
  std::string manifest;  // verify: the file read
  bool no_cache = false;
};

// `file` as the manifest at `manifest_path` records it: relative to the manifest's folder.
std::string as_listed(const std::string& file, const std::string& manifest_path);

// Writes the manifest of options.files to options.out (atomically): each file's size and
// SHA-256 (from the digest cache when its size and time are unchanged), listed relative to the
// manifest's folder. A file given twice is a usage error.
model::Result<formats::DataManifest> write_manifest(const DataOptions& options);

// Checks every file of options.manifest: size and SHA-256. The error names the file that is
// missing or differs.
model::Result<std::vector<store::CheckedFile>> verify_manifest(const DataOptions& options);

}  // namespace benchkit::session
