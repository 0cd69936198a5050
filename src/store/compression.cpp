#include "store/compression.hpp"

#include <fmt/format.h>
#include <zstd.h>

namespace benchkit::store {

namespace {
constexpr int kLevel = 3;  // see compression.hpp
}

std::string compress(std::string_view text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), kLevel);
  // Only a too-small output buffer makes ZSTD_compress fail, and the bound rules that out.
  if (ZSTD_isError(size)) throw std::logic_error(ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

model::Result<std::string> decompress(std::string_view data, std::string_view what) {
  const unsigned long long size = ZSTD_getFrameContentSize(data.data(), data.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    return model::Error{fmt::format(
        "the stored result of run {} is damaged (not a zstd frame); remove the run with "
        "benchkit history prune, or restore the database from a backup",
        what)};
  }
  std::string out(size, '\0');
  const std::size_t written = ZSTD_decompress(out.data(), out.size(), data.data(), data.size());
  if (ZSTD_isError(written) || written != size) {
    return model::Error{fmt::format(
        "the stored result of run {} is damaged ({}); remove the run with benchkit history "
        "prune, or restore the database from a backup",
        what, ZSTD_isError(written) ? ZSTD_getErrorName(written) : "short frame")};
  }
  return out;
}

}  // namespace benchkit::store
