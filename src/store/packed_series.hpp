// A run's series points packed into one value (schema 5's series_runs table): its benchmarks'
// names in name order, then their medians, lower and upper bounds column by column, compressed
// with zstd. What `history trend` and `history check` fold is then one row per run, not one per
// benchmark: a history of 10,000 benchmarks x 1,000 commits is 1,000 rows to read, where the
// summary rows are ten million (docs/history.md, "Fleet scale").
//
// The layout before compression (integers and doubles little-endian):
//   "BKS1", count (u32), names_size (u32),
//   names: count x (length (u32), bytes), names_size bytes in all, in byte order, no repeats,
//   medians: count x f64, lower bounds: count x f64, upper bounds: count x f64.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::store {

// One run's points, unpacked. Reused from run to run by unpack_series (its buffers kept).
struct PackedSeries {
  // The names block as stored: two runs of the same benchmarks have equal blocks, which the
  // fold compares once instead of comparing every name.
  std::string names = {};
  std::vector<std::uint32_t> name_starts = {};  // where each name's bytes start in `names`
  std::vector<std::uint32_t> name_sizes = {};
  std::vector<double> medians = {};
  std::vector<double> lowers = {};
  std::vector<double> uppers = {};

  std::size_t size() const { return medians.size(); }
  std::string_view name(std::size_t i) const {
    return std::string_view(names).substr(name_starts[i], name_sizes[i]);
  }
};

// The packed form of `rows` (a run's summary rows, in any order; names must differ), compressed.
std::string pack_series(const std::vector<SummaryRow>& rows);

// `data` (as pack_series made it) into `into`, whose buffers are reused; `scratch` holds the
// decompressed bytes between calls. The error names `what` (a run's identity) and says how to
// repair the history.
model::Result<bool> unpack_series(std::string_view data, std::string_view what, PackedSeries& into,
                                  std::string& scratch);

// One run of a series with its packed points (Store::each_packed_run).
struct PackedRun {
  std::string run_id = {};
  std::string date = {};
  std::string commit = {};
  std::string group = {};
  PackedSeries points = {};
};

}  // namespace benchkit::store
