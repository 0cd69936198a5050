// Checking a benchmark's data files against their expected size and SHA-256 (docs/data.md),
// with the digest cache, and the process's record of what was checked. The public calls
// benchkit::data::input_file and manifest_file (benchkit/data.hpp) are implemented here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "formats/data_manifest.hpp"
#include "model/error.hpp"
#include "store/digest_cache.hpp"

namespace benchkit::store {

struct ExpectedFile {
  std::string sha256;
  std::uint64_t bytes = 0;
  // How to make the file again, said in a mismatch ("python3 gen.py --rows 4000000").
  std::string regenerate;
};

struct CheckedFile {
  InputFile file;       // as found: path as given, size, digest
  bool hashed = false;  // false: the digest came from the cache
};

// Computes a file's SHA-256 (sha256_of by default; tests count the calls).
using Hasher = std::function<model::Result<std::string>(const std::string& path)>;

// Checks `path` against `expected`: the digest comes from `cache` when the file's size and
// modification time are those recorded there, else from `hash` (and is remembered in `cache`;
// saving it is the caller's). A mismatch in size or digest is an error that names the file,
// the digest found and the one expected, the sizes, and how to make the file again.
model::Result<CheckedFile> check_file(const std::string& path, const ExpectedFile& expected,
                                      DigestCache& cache, const Hasher& hash = sha256_of);

// Checks every file of a manifest read from `manifest_path` (its relative paths are relative
// to the manifest's folder). Returns the files checked; stops at the first mismatch.
model::Result<std::vector<CheckedFile>> check_manifest(const std::string& manifest_path,
                                                       const formats::DataManifest& manifest,
                                                       DigestCache& cache,
                                                       const Hasher& hash = sha256_of);

// `path` resolved against the folder of `manifest_path` when it is relative.
std::string beside_manifest(const std::string& manifest_path, const std::string& path);

// What a mismatch tells the user to run: the manifest's generator (and its version), from the
// manifest's folder.
std::string regenerate_hint(const std::string& manifest_path,
                            const formats::DataManifest& manifest);

// Every file benchkit::data::input_file and manifest_file checked in this process, in order.
// The runner takes the ones added while a benchmark ran (from `since`) into its result.
std::vector<InputFile> checked_inputs(std::size_t since = 0);
std::size_t checked_input_count();

// Where the digest cache of this process lives: $BENCHKIT_DIR/data-cache.json.
std::string digest_cache_path();

}  // namespace benchkit::store
