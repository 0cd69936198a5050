#include "store/compression.hpp"

#include <fmt/format.h>
// ZSTD_c_literalCompressionMode is among zstd's experimental parameters (1.4.5 and later; Debian
// 12 has 1.5.4), declared only with this macro.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <memory>
#include <stdexcept>

namespace benchkit::store {
namespace {

struct FreeCompression {
  void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};

// A failed call of zstd's that only a mistake here can cause (an output buffer below the bound,
// a parameter out of range).
void check(std::size_t code) {
  if (ZSTD_isError(code)) throw std::logic_error(ZSTD_getErrorName(code));
}

}  // namespace

std::string compress(std::string_view text, int level, Literals literals) {
  const std::unique_ptr<ZSTD_CCtx, FreeCompression> context(ZSTD_createCCtx());
  if (!context) throw std::bad_alloc();
  check(ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, level));
  if (literals == Literals::raw) {
    check(ZSTD_CCtx_setParameter(context.get(), ZSTD_c_literalCompressionMode, ZSTD_ps_disable));
  }
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t size =
      ZSTD_compress2(context.get(), out.data(), out.size(), text.data(), text.size());
  check(size);
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
  // A context made once per thread rather than once per call (as ZSTD_decompress does): a
  // history's packed runs, a thousand or more, are read one after another.
  thread_local const std::unique_ptr<ZSTD_DCtx, FreeCompression> context(ZSTD_createDCtx());
  if (!context) throw std::bad_alloc();
  const std::size_t written =
      ZSTD_decompressDCtx(context.get(), out.data(), out.size(), data.data(), data.size());
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
