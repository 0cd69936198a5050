#include "store/packed_series.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "store/compression.hpp"

namespace benchkit::store {
namespace {

constexpr std::string_view kPackMagic = "BKS1";
constexpr std::size_t kPackHeader = 12;  // magic, count, names_size
// zstd level 1: a run of 10,000 benchmarks packs in about a millisecond; the numbers hardly
// compress at any level, and the names compress well at every level. The literals (the bytes no
// match covers: the numbers, mostly) are stored raw: Huffman-coded they took 7% less room and
// four times as long to read back (docs/history.md, "Fleet scale", ninth round).
constexpr int kPackLevel = 1;
// The most a packed value may grow to when decompressed, per byte stored (plus a floor): a
// damaged value that claims gigabytes is refused before anything is allocated. Real values grow
// by a few times (the names); a run of identical numbers by a few hundred.
constexpr std::size_t kMostGrowth = 1024;
constexpr std::size_t kGrowthFloor = std::size_t{1} << 20;

void put_u32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((value >> (8 * i)) & 0xffu);
}

std::uint32_t get_u32(const char* at) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(at[i]);
  }
  return value;
}

void put_doubles(std::string& out, const std::vector<const SummaryRow*>& rows,
                 double SummaryRow::*field) {
  for (const SummaryRow* row : rows) {
    auto bits = std::bit_cast<std::uint64_t>(row->*field);
    for (int i = 0; i < 8; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xffu);
  }
}

// `count` doubles from `at` into `into` (little-endian in the value).
void get_doubles(const char* at, std::size_t count, std::vector<double>& into) {
  into.resize(count);
  if constexpr (std::endian::native == std::endian::little) {
    if (count > 0) std::memcpy(into.data(), at, count * sizeof(double));
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t bits = 0;
      for (int b = 7; b >= 0; --b) bits = (bits << 8) | static_cast<unsigned char>(at[8 * i + b]);
      into[i] = std::bit_cast<double>(bits);
    }
  }
}

model::Error damaged(std::string_view what, std::string_view why) {
  return model::Error{fmt::format(
      "the packed series of run {} is damaged ({}); remove the run with benchkit history prune, "
      "or restore the database from a backup",
      what, why)};
}

}  // namespace

std::string pack_series(const std::vector<SummaryRow>& rows) {
  std::vector<const SummaryRow*> sorted;
  sorted.reserve(rows.size());
  for (const SummaryRow& row : rows) sorted.push_back(&row);
  std::sort(sorted.begin(), sorted.end(),
            [](const SummaryRow* a, const SummaryRow* b) { return a->benchmark < b->benchmark; });
  std::size_t names_size = 0;
  for (const SummaryRow* row : sorted) names_size += 4 + row->benchmark.size();
  if (sorted.size() > UINT32_MAX || names_size > UINT32_MAX) {
    throw std::length_error("a run too large to pack (over 4 GB of benchmark names)");
  }
  std::string plain;
  plain.reserve(kPackHeader + names_size + 24 * sorted.size());
  plain += kPackMagic;
  put_u32(plain, static_cast<std::uint32_t>(sorted.size()));
  put_u32(plain, static_cast<std::uint32_t>(names_size));
  for (const SummaryRow* row : sorted) {
    put_u32(plain, static_cast<std::uint32_t>(row->benchmark.size()));
    plain += row->benchmark;
  }
  put_doubles(plain, sorted, &SummaryRow::median);
  put_doubles(plain, sorted, &SummaryRow::lower);
  put_doubles(plain, sorted, &SummaryRow::upper);
  return compress(plain, kPackLevel, Literals::raw);
}

model::Result<bool> unpack_series(std::string_view data, std::string_view what, PackedSeries& into,
                                  std::string& scratch) {
  if (const auto why = decompress_into(data, scratch, kGrowthFloor + kMostGrowth * data.size())) {
    return damaged(what, *why);
  }
  const std::size_t size = scratch.size();
  const char* at = scratch.data();
  if (size < kPackHeader || std::string_view(at, 4) != kPackMagic) {
    return damaged(what, "no BKS1 header");
  }
  const std::uint32_t count = get_u32(at + 4);
  const std::uint32_t names_size = get_u32(at + 8);
  // Both as 64-bit sums: 32-bit fields cannot overflow them.
  if (std::uint64_t{kPackHeader} + names_size + 24 * std::uint64_t{count} != size) {
    return damaged(
        what, fmt::format("{} bytes unpacked, {} expected from its header", size,
                          std::uint64_t{kPackHeader} + names_size + 24 * std::uint64_t{count}));
  }
  into.names.assign(at + kPackHeader, names_size);
  into.name_starts.clear();
  into.name_sizes.clear();
  std::size_t offset = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (names_size - offset < 4) return damaged(what, "the names end early");
    const std::uint32_t length = get_u32(into.names.data() + offset);
    offset += 4;
    if (names_size - offset < length) return damaged(what, "a name runs past the names");
    into.name_starts.push_back(static_cast<std::uint32_t>(offset));
    into.name_sizes.push_back(length);
    offset += length;
  }
  if (offset != names_size) return damaged(what, "bytes left after the names");
  const char* numbers = at + kPackHeader + names_size;
  get_doubles(numbers, count, into.medians);
  get_doubles(numbers + 8 * std::size_t{count}, count, into.lowers);
  get_doubles(numbers + 16 * std::size_t{count}, count, into.uppers);
  return true;
}

}  // namespace benchkit::store
