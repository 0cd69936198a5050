// What `benchkit data` says: the manifest written, and each file of a manifest checked, then all
// of them (docs/data.md).
#pragma once

#include <cstddef>
#include <string>

#include "benchkit/result.hpp"

namespace benchkit::report {

// "MANIFEST: N file(s) with size and SHA-256[, and how to regenerate them]".
std::string manifest_written(const std::string& manifest, std::size_t files, bool generator);
// "ok  SHA256  N bytes  PATH", "  (digest cached)" after it when the file was not hashed again.
std::string file_verified(const InputFile& file, bool hashed);
// "MANIFEST: all N file(s) match (H hashed, N-H unchanged since cached)".
std::string manifest_verified(const std::string& manifest, std::size_t files, std::size_t hashed);

}  // namespace benchkit::report
