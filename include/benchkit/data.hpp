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

}  // namespace benchkit::data
