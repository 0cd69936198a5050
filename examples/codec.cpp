// Compression throughput depends on what is compressed: the same zstd level runs an order of
// magnitude faster on a uniform payload than on text, and random bytes do not compress at all.
// Benchmarking a codec on `uniform` data overstates its throughput.
#include <zstd.h>
#include <benchkit/benchkit.hpp>

#include <stdexcept>
#include <string>
#include <vector>

static void zstd_compress(benchkit::Bencher& b, std::string kind, int level) {
  constexpr std::size_t kBytes = 1 << 20;  // 1 MiB: larger than L2, typical of a block store
  const std::string input =
      benchkit::data::payload(benchkit::data::kind_from_string(kind), kBytes, /*seed=*/42);
  std::vector<char> output(ZSTD_compressBound(input.size()));
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
  std::size_t compressed = 0;
  b.throughput_bytes(input.size());
  b.iter([&] {
    compressed = ZSTD_compress2(context, output.data(), output.size(), input.data(), input.size());
    return compressed;
  });
  if (ZSTD_isError(compressed)) throw std::runtime_error(ZSTD_getErrorName(compressed));
  b.counter("ratio", static_cast<double>(input.size()) / static_cast<double>(compressed));
  ZSTD_freeCCtx(context);
}
BENCHKIT(zstd_compress)
    .param("payload", {"uniform", "text", "json", "random"})
    .param("level", {1, 3, 9});
