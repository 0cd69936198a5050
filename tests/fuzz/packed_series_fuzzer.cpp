// libFuzzer entry for the reader of a run's packed series (store/packed_series.hpp: schema 5's
// series_runs, what `history trend` and `check` read). An even first byte hands the rest over
// as the stored value (a zstd frame); an odd one compresses the rest first, so that the layout
// inside the frame is what the fuzzer varies. Any bytes give a series or a refusal, never a
// crash, a hang, an allocation out of proportion or undefined behaviour; a series read is packed
// again to the same names and numbers.
#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "store/packed_series.hpp"

namespace {

using benchkit::store::PackedSeries;
using benchkit::store::SummaryRow;

std::string frame(const char* bytes, std::size_t size) {
  std::string out(ZSTD_compressBound(size), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), bytes, size, 1));
  return out;
}

// The rows of `series`, by name then numbers bit for bit, as pack_series orders them.
std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t, std::uint64_t>> rows_of(
    const PackedSeries& series) {
  std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t, std::uint64_t>> rows;
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::uint64_t bits[3];
    std::memcpy(&bits[0], &series.medians[i], 8);
    std::memcpy(&bits[1], &series.lowers[i], 8);
    std::memcpy(&bits[2], &series.uppers[i], 8);
    rows.emplace_back(std::string(series.name(i)), bits[0], bits[1], bits[2]);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char* bytes = reinterpret_cast<const char*>(data + 1);
  const std::string value =
      data[0] % 2 == 0 ? std::string(bytes, size - 1) : frame(bytes, size - 1);
  PackedSeries series;
  std::string scratch;
  if (!benchkit::store::unpack_series(value, "fuzz", series, scratch).ok()) return 0;
  if (series.name_starts.size() != series.size() || series.lowers.size() != series.size() ||
      series.uppers.size() != series.size()) {
    std::abort();
  }
  // Names repeated in a damaged value are packed as they are: the same rows come back.
  std::vector<SummaryRow> rows;
  for (std::size_t i = 0; i < series.size(); ++i) {
    rows.push_back({.benchmark = std::string(series.name(i)),
                    .median = series.medians[i],
                    .lower = series.lowers[i],
                    .upper = series.uppers[i]});
  }
  PackedSeries again;
  if (!benchkit::store::unpack_series(benchkit::store::pack_series(rows), "again", again, scratch)
           .ok() ||
      rows_of(again) != rows_of(series)) {
    std::abort();
  }
  return 0;
}
