#include "store/binary_copy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

namespace benchkit::store {
namespace {

// The bytes PostgreSQL writes for `COPY (...) TO STDOUT (FORMAT binary)`, built by hand from
// its documented layout (docs of COPY, "Binary Format").
class CopyBytes {
 public:
  CopyBytes() {
    bytes_.append("PGCOPY\n\377\r\n", 10);
    bytes_.push_back('\0');
    integer<std::uint32_t>(0);  // flags
    integer<std::uint32_t>(0);  // no header extension
  }
  CopyBytes& row(std::int64_t run, const std::string& benchmark, double median,
                 std::int64_t samples = 5, const std::string& verdict = "") {
    integer<std::int16_t>(8);
    field(8), integer<std::int64_t>(run);
    field(benchmark.size()), bytes_ += benchmark;
    for (const double value : {median, median * 0.99, median * 1.01}) {
      field(8), integer<std::uint64_t>(std::bit_cast<std::uint64_t>(value));
    }
    field(8), integer<std::int64_t>(samples);
    field(verdict.size()), bytes_ += verdict;
    field(0);  // diagnostics: ""
    return *this;
  }
  // A row whose median is a 4-byte float (a column of another type than the reader's).
  CopyBytes& row_with_a_short_number() {
    integer<std::int16_t>(8);
    field(8), integer<std::int64_t>(1);
    field(1), bytes_ += "a";
    field(4), integer<std::uint32_t>(std::bit_cast<std::uint32_t>(1.0f));
    for (int i = 0; i < 3; ++i) field(8), integer<std::int64_t>(0);
    field(0), field(0);
    return *this;
  }
  std::string end() {
    integer<std::int16_t>(-1);
    return bytes_;
  }
  std::string& bytes() { return bytes_; }

 private:
  template <class Integer>
  void integer(Integer value) {
    for (int shift = 8 * (static_cast<int>(sizeof(Integer)) - 1); shift >= 0; shift -= 8) {
      bytes_.push_back(static_cast<char>((static_cast<std::uint64_t>(value) >> shift) & 0xff));
    }
  }
  CopyBytes& field(std::size_t length) {
    integer<std::int32_t>(static_cast<std::int32_t>(length));
    return *this;
  }

  std::string bytes_;
};

struct Seen {
  std::int64_t run;
  std::string benchmark;
  double median;
  double upper;
  std::int64_t samples;
  std::string verdict;
};

// Every row of `bytes` fed in pieces of `piece` bytes; `ended` says whether the trailer came.
std::vector<Seen> read_in_pieces(const std::string& bytes, std::size_t piece, bool& ended) {
  BinaryCopyReader reader;
  std::vector<Seen> seen;
  bool more = true;
  for (std::size_t at = 0; at < bytes.size() && more; at += piece) {
    more = reader.feed(bytes.data() + at, std::min(piece, bytes.size() - at),
                       [&](const BinaryCopyReader::Row& row) {
                         seen.push_back({row.run, std::string(row.benchmark), row.median, row.upper,
                                         row.samples, std::string(row.verdict)});
                       });
  }
  ended = !more && reader.complete();
  return seen;
}

// libpq hands the COPY over in the server's messages; nothing in the protocol keeps a row inside
// one, so every split of the bytes must give the same rows.
TEST(BinaryCopyReader, ReadsTheSameRowsWhereverTheBytesAreSplit) {
  const std::string bytes = CopyBytes()
                                .row(1, "bench_0000", 12.5)
                                .row(1, "name with a space, and ünïcode", 1e9, 30, "regressed")
                                .row(2, "", -0.0, 0)
                                .end();
  for (std::size_t piece = 1; piece <= bytes.size(); ++piece) {
    bool ended = false;
    const std::vector<Seen> seen = read_in_pieces(bytes, piece, ended);
    ASSERT_EQ(seen.size(), 3u) << "pieces of " << piece;
    EXPECT_TRUE(ended) << piece;
    EXPECT_EQ(seen[0].run, 1);
    EXPECT_EQ(seen[0].benchmark, "bench_0000");
    EXPECT_EQ(seen[0].median, 12.5);
    EXPECT_EQ(seen[0].upper, 12.5 * 1.01);
    EXPECT_EQ(seen[0].samples, 5);
    EXPECT_EQ(seen[1].benchmark, "name with a space, and ünïcode");
    EXPECT_EQ(seen[1].median, 1e9);
    EXPECT_EQ(seen[1].samples, 30);
    EXPECT_EQ(seen[1].verdict, "regressed");
    EXPECT_EQ(seen[2].run, 2);
    EXPECT_EQ(seen[2].benchmark, "");
    EXPECT_TRUE(std::signbit(seen[2].median));
  }
}

TEST(BinaryCopyReader, AStreamCutMidRowIsNotComplete) {
  std::string bytes = CopyBytes().row(1, "a", 1).row(1, "b", 2).end();
  bytes.resize(bytes.size() - 7);  // the trailer and the end of the last row lost
  bool ended = true;
  const std::vector<Seen> seen = read_in_pieces(bytes, 64, ended);
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_FALSE(ended);
}

TEST(BinaryCopyReader, RefusesBytesThatAreNotTheSeriesRows) {
  const auto feed = [](const std::string& bytes) {
    BinaryCopyReader reader;
    reader.feed(bytes.data(), bytes.size(), [](const BinaryCopyReader::Row&) {});
  };
  std::string unsigned_bytes = CopyBytes().row(1, "a", 1).end();
  unsigned_bytes[0] = 'X';
  EXPECT_THROW(feed(unsigned_bytes), std::runtime_error);

  CopyBytes three_columns;
  std::string& bytes = three_columns.bytes();
  bytes += std::string("\0\3", 2);  // a row of 3 columns
  EXPECT_THROW(feed(three_columns.end()), std::runtime_error);

  std::string null_column = CopyBytes().row(1, "a", 1).end();
  // The benchmark's length (after the signature, the count and the 8-byte run) made -1: null.
  const std::size_t length_at = 19 + 2 + 4 + 8;
  null_column.replace(length_at, 4, std::string("\xff\xff\xff\xff", 4));
  EXPECT_THROW(feed(null_column), std::runtime_error);

  EXPECT_THROW(feed(CopyBytes().row_with_a_short_number().end()), std::runtime_error);
}

}  // namespace
}  // namespace benchkit::store
