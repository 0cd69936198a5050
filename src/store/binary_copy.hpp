// Inside store/: the reader of PostgreSQL's binary COPY format for the series' bulk read
// (postgres_store.cpp), in a header of its own so that its parsing is tested without a server.
#pragma once

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace benchkit::store {

// A big-endian integer of sizeof(Integer) bytes at `at`, as PostgreSQL's binary format writes it.
template <class Integer>
Integer big_endian(const char* at) {
  using Unsigned = std::make_unsigned_t<Integer>;
  Unsigned value = 0;
  for (std::size_t i = 0; i < sizeof(Integer); ++i) {
    value = static_cast<Unsigned>((value << 8) | static_cast<unsigned char>(at[i]));
  }
  return static_cast<Integer>(value);
}

// The rows of sql::series_rows_copy in PostgreSQL's binary COPY format (a signature, then each
// row as a field count and each field as a length and its bytes), fed in the pieces libpq
// returns: a row split between two pieces waits for the next.
class BinaryCopyReader {
 public:
  struct Row {
    std::int64_t run = 0;  // 1-based, in the order of the runs named
    std::string_view benchmark = {};
    double median = 0;
    double lower = 0;
    double upper = 0;
    std::int64_t samples = 0;
    std::string_view verdict = {};
    std::string_view diagnostics = {};
  };

  // Every whole row of `piece` (and of what an earlier piece left) to `row`; false at the end
  // of the data (the trailer). Throws on bytes that are not the expected rows.
  template <class Each>
  bool feed(const char* piece, std::size_t size, Each&& row) {
    const char* at = piece;
    const char* end = piece + size;
    if (!pending_.empty()) {
      pending_.append(piece, size);
      at = pending_.data();
      end = at + pending_.size();
    }
    const char* parsed = at;
    bool more = true;
    while (more) {
      const char* next = parse(parsed, end, row, more);
      if (next == nullptr) break;
      parsed = next;
    }
    std::string rest(parsed, end);
    pending_.swap(rest);
    return more;
  }

  bool complete() const { return pending_.empty(); }

 private:
  // Those of sql::series_rows_copy: the run's number, the benchmark, median, lower and upper
  // bounds, samples, verdict and diagnostics.
  static constexpr std::int16_t kFields = 8;
  static constexpr std::size_t kSignatureSize =
      11 + 4 + 4;  // "PGCOPY\n\377\r\n\0", flags, extension

  // One row (or the signature, or the trailer) from `at`: the byte after it, or null when it is
  // not whole before `end`.
  template <class Each>
  const char* parse(const char* at, const char* end, Each& row, bool& more) {
    if (!signed_) {
      if (static_cast<std::size_t>(end - at) < kSignatureSize) return nullptr;
      if (std::memcmp(at, "PGCOPY\n\377\r\n", 11) != 0) {
        throw std::runtime_error("the server's binary COPY has no PGCOPY signature");
      }
      const auto extension = big_endian<std::uint32_t>(at + 15);
      if (static_cast<std::size_t>(end - at) < kSignatureSize + extension) return nullptr;
      signed_ = true;
      return at + kSignatureSize + extension;
    }
    if (end - at < 2) return nullptr;
    const auto fields = big_endian<std::int16_t>(at);
    if (fields == -1) {
      more = false;
      return at + 2;
    }
    if (fields != kFields) {
      throw std::runtime_error(fmt::format("a series row of {} columns, not {}", fields, kFields));
    }
    const char* field = at + 2;
    std::array<std::string_view, kFields> values;
    for (std::string_view& value : values) {
      if (end - field < 4) return nullptr;
      const auto length = big_endian<std::int32_t>(field);
      if (length < 0) throw std::runtime_error("a series row with a null column");
      if (end - field - 4 < length) return nullptr;
      value = std::string_view(field + 4, static_cast<std::size_t>(length));
      field += 4 + length;
    }
    for (const std::size_t number : {0, 2, 3, 4, 5}) {
      if (values[number].size() != 8) {
        throw std::runtime_error("a series row whose numbers are not 8 bytes");
      }
    }
    row(Row{.run = big_endian<std::int64_t>(values[0].data()),
            .benchmark = values[1],
            .median = std::bit_cast<double>(big_endian<std::uint64_t>(values[2].data())),
            .lower = std::bit_cast<double>(big_endian<std::uint64_t>(values[3].data())),
            .upper = std::bit_cast<double>(big_endian<std::uint64_t>(values[4].data())),
            .samples = big_endian<std::int64_t>(values[5].data()),
            .verdict = values[6],
            .diagnostics = values[7]});
    return field;
  }

  bool signed_ = false;
  std::string pending_;
};

}  // namespace benchkit::store
