// Reads where a run happens: host, OS, CPU, executable. Used by every result writer, which adds
// the git state from vcs/git.hpp (system/ reads the machine, not repositories).
#pragma once

#include <string>
#include <string_view>

#include "benchkit/result.hpp"

namespace benchkit::system {

// Fills date, hostname, OS, kernel, CPU model and count and, when `identify_executable`, the
// running executable's path and SHA-256 (not wanted when it is only the harness, as for
// `benchkit run`). The git fields stay empty (vcs::record fills them). Missing information
// stays empty; nothing here throws.
Context collect_context(bool identify_executable = true);

// ISO 8601 UTC time of now, e.g. "2026-11-29T23:09:43Z".
std::string utc_now_iso8601();

// Hex SHA-256 of a file's contents; empty when the file cannot be read.
std::string sha256_of_file(const std::string& path);

// Hex SHA-256 of `text`.
std::string sha256_of_text(std::string_view text);

}  // namespace benchkit::system
