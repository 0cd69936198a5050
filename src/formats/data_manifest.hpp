// The manifest of a benchmark's data files (docs/data.md): each file's path, size and SHA-256,
// and the command that generates them, so that a benchmark can check its input before the
// first sample and say how to make it again. JSON, schema "benchkit/data-manifest", version 1.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"

namespace benchkit::formats {

struct DataFile {
  // As written in the manifest: relative paths are relative to the manifest's folder.
  std::string path;
  std::uint64_t bytes = 0;
  std::string sha256;  // 64 lowercase hexadecimal digits
};

struct DataManifest {
  static constexpr const char* schema = "benchkit/data-manifest";
  static constexpr int version = 1;
  // The command that writes the files (run from the manifest's folder), and its version: what a
  // mismatch tells the user to run. Either may be empty.
  std::string generator;
  std::string generator_version;
  std::vector<DataFile> files;
};

// Indented JSON with a stable key order, ending with a newline.
std::string manifest_to_json(const DataManifest& manifest);

// Reads a manifest; `origin` (the file's path) starts every error message, which also gives
// the place inside the document ("files[2].sha256: ...") and how to fix it. Refuses another
// schema or version, a digest that is not 64 hexadecimal digits (upper case is accepted and
// lowered), an empty or repeated path.
model::Result<DataManifest> manifest_from_json(std::string_view text, const std::string& origin);

// Whether `text` is a SHA-256 digest as manifests hold it (64 lowercase hexadecimal digits).
bool is_sha256_hex(std::string_view text);

}  // namespace benchkit::formats
