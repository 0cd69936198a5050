#include "store/compression.hpp"

#include <fmt/format.h>
#include <zstd.h>

namespace benchkit::store {

std::string compress(std::string_view text, int level) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), level);
  // Only a too-small output buffer makes ZSTD_compress fail, and the bound rules that out.
  if (ZSTD_isError(size)) throw std::logic_error(ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

std::optional<std::string> decompress_into(std::string_view data, std::string& out,
                                           std::size_t most) {
  const unsigned long long size = ZSTD_getFrameContentSize(data.data(), data.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    return "not a zstd frame";
  }
  if (size > most) return fmt::format("it claims {} bytes unpacked, from {}", size, data.size());
  out.resize(size);
  const std::size_t written = ZSTD_decompress(out.data(), out.size(), data.data(), data.size());
  if (ZSTD_isError(written)) return ZSTD_getErrorName(written);
  if (written != size) return "short frame";
  return std::nullopt;
}

model::Result<std::string> decompress(std::string_view data, std::string_view what) {
  std::string out;
  if (const auto why = decompress_into(data, out)) {
    return model::Error{fmt::format(
        "the stored result of run {} is damaged ({}); remove the run with benchkit history "
        "prune, or restore the database from a backup",
        what, *why)};
  }
  return out;
}

}  // namespace benchkit::store
