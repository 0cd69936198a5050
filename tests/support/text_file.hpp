// Writes a small text file for a test (a fixture a fake tool would have written).
#pragma once

#include <fstream>
#include <string>

namespace benchkit::testing {

// Writes `text` to `path`, replacing what was there.
inline void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace benchkit::testing
