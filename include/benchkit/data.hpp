// Deterministic test data: payloads of controlled compressibility and seeded random integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchkit::data {

// How compressible a payload is. The kind matters for anything that looks at the bytes
// (compression, hashing with early exits, parsing): a `uniform` payload compresses by orders of
// magnitude and so overstates throughput; `random` is incompressible; `text` and `json` sit in
// between, like the data real programs see.
enum class Kind {
  uniform,  // one repeated byte
  text,     // English-like words and punctuation from a fixed vocabulary
  json,     // an array of small JSON records with varied keys, numbers and strings
  random,   // uniformly random bytes
};

// The kind's name as used in benchmark names and on the command line ("uniform", ...).
std::string_view to_string(Kind kind);
// Parses a kind's name; throws std::invalid_argument naming the accepted names.
Kind kind_from_string(std::string_view name);

// `bytes` bytes of the given kind. The same (kind, bytes, seed) gives the same bytes on every
// platform and in every version of benchkit with the same major version.
std::string payload(Kind kind, std::size_t bytes, std::uint64_t seed);

// `count` integers uniformly drawn from the full int range, reproducible for a seed.
std::vector<int> random_ints(std::size_t count, std::uint64_t seed);

// What an input file must be: its SHA-256 (64 hexadecimal digits, as sha256sum prints it), its
// size in bytes, and optionally the command that makes it again (said when it does not match).
struct FileCheck {
  std::string_view sha256;
  std::uint64_t bytes = 0;
  std::string_view regenerate = {};
};

// Names a benchmark's input file and checks it: the file must have the expected size and
// SHA-256, or this throws std::runtime_error naming the file, both digests and how to make it
// again (the benchmark is then recorded as failed and measures nothing). Call it in the
// benchmark (or scenario) before b.iter (or the first phase): the check runs before the first
// sample. The digest is cached by size and modification time in .benchkit/data-cache.json
// ($BENCHKIT_DIR), so an unchanged file is hashed once, not before every run. The file is
// recorded in the result (benchmarks[].inputs and the context's inputs). Returns `path`.
//   auto path = benchkit::data::input_file("corpus/rows.csv",
//                                          {.sha256 = "9f86d0...", .bytes = 1'048'576});
std::string input_file(std::string_view path, const FileCheck& expected);

// The same check for the file listed as `name` in a manifest written by `benchkit data
// manifest` (its path as written there, relative to the manifest's folder); the manifest's
// generator is what a mismatch tells the user to run. Returns the file's path (the manifest's
// folder joined with `name`).
std::string manifest_file(std::string_view manifest, std::string_view name);

}  // namespace benchkit::data
