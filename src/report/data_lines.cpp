#include "report/data_lines.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string manifest_written(const std::string& manifest, std::size_t files, bool generator) {
  return fmt::format("{}: {} file(s) with size and SHA-256{}\n", manifest, files,
                     generator ? ", and how to regenerate them" : "");
}

std::string file_verified(const InputFile& file, bool hashed) {
  return fmt::format("ok  {}  {} bytes  {}{}\n", file.sha256, file.bytes, file.path,
                     hashed ? "" : "  (digest cached)");
}

std::string manifest_verified(const std::string& manifest, std::size_t files, std::size_t hashed) {
  return fmt::format("{}: all {} file(s) match ({} hashed, {} unchanged since cached)\n", manifest,
                     files, hashed, files - hashed);
}

}  // namespace benchkit::report
