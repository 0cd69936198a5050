#include "store/packed_series.hpp"
#include "store/schema.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zstd.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace benchkit::store {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// `plain` compressed as pack_series stores it: for values damaged inside the frame.
std::string frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 1));
  return out;
}

std::string u32(std::uint32_t value) {
  std::string out;
  for (int i = 0; i < 4; ++i) out += static_cast<char>((value >> (8 * i)) & 0xffu);
  return out;
}

model::Result<bool> unpack(const std::string& data, PackedSeries& into) {
  std::string scratch;
  return unpack_series(data, "0123abcd", into, scratch);
}

TEST(PackedSeries, GivesBackEveryRowInNameOrderWithItsNumbersExactly) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const std::vector<SummaryRow> rows = {
      {.benchmark = "sort/1024", .median = 1.5, .lower = 1.25, .upper = 1.75},
      {.benchmark = "", .median = 0.1, .lower = tiny, .upper = 1e300},
      {.benchmark = std::string("nul\0inside", 10), .median = 3, .lower = 2, .upper = 4},
      {.benchmark = "a, \"quoted\" {name} é", .median = -0.0, .lower = -1, .upper = 1}};
  const std::string packed = pack_series(rows);
  PackedSeries series;
  const auto unpacked = unpack(packed, series);
  ASSERT_TRUE(unpacked.ok()) << unpacked.error().message;
  ASSERT_EQ(series.size(), 4u);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < series.size(); ++i) names.emplace_back(series.name(i));
  EXPECT_THAT(names, ElementsAre("", "a, \"quoted\" {name} é", std::string("nul\0inside", 10),
                                 "sort/1024"));
  EXPECT_THAT(series.medians, ElementsAre(0.1, -0.0, 3, 1.5));
  EXPECT_TRUE(std::signbit(series.medians[1]));
  EXPECT_THAT(series.lowers, ElementsAre(tiny, -1, 2, 1.25));
  EXPECT_THAT(series.uppers, ElementsAre(1e300, 1, 4, 1.75));
}

// Two runs of the same benchmarks have the same names block (what the fold compares), and the
// series' buffers are reused: a smaller run after a larger one holds only its own.
TEST(PackedSeries, EqualNamesGiveEqualBlocksAndBuffersAreReused) {
  std::vector<SummaryRow> rows;
  for (int i = 0; i < 100; ++i) rows.push_back({.benchmark = "b" + std::to_string(i)});
  PackedSeries first;
  ASSERT_TRUE(unpack(pack_series(rows), first).ok());
  for (SummaryRow& row : rows) row.median = 7;
  PackedSeries second = first;
  ASSERT_TRUE(unpack(pack_series(rows), second).ok());
  EXPECT_EQ(first.names, second.names);
  EXPECT_EQ(second.medians[50], 7);
  rows.resize(3);
  ASSERT_TRUE(unpack(pack_series(rows), second).ok());
  EXPECT_EQ(second.size(), 3u);
  EXPECT_EQ(second.name_starts.size(), 3u);
  EXPECT_NE(first.names, second.names);
}

// The numbers are stored as zstd raw literals (their bytes hardly compress, and Huffman-coded
// they took four times as long to read back), and a run packed with coded literals, as before,
// reads back the same.
TEST(PackedSeries, StoresTheNumbersUncodedAndReadsCodedRunsAlike) {
  std::vector<SummaryRow> rows;
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> wobble(1.0, 1.02);  // about 1%, as timings have
  const auto draw = [&] { return wobble(random); };
  for (int i = 0; i < 2000; ++i) {
    const double median = (1000.0 + i) * draw();
    rows.push_back({.benchmark = "bench_" + std::to_string(i),
                    .median = median,
                    .lower = median * 0.99 * draw(),
                    .upper = median * 1.01 * draw()});
  }
  const std::string packed = pack_series(rows);
  std::string plain(ZSTD_getFrameContentSize(packed.data(), packed.size()), '\0');
  ASSERT_EQ(ZSTD_decompress(plain.data(), plain.size(), packed.data(), packed.size()),
            plain.size());
  const std::string coded = frame(plain);
  // Coded literals would shrink these numbers: stored uncoded, the frame holds them whole.
  EXPECT_LT(coded.size(), packed.size());
  EXPECT_GE(packed.size(), 24 * rows.size());
  PackedSeries from_raw;
  PackedSeries from_coded;
  ASSERT_TRUE(unpack(packed, from_raw).ok());
  ASSERT_TRUE(unpack(coded, from_coded).ok());
  ASSERT_EQ(from_raw.size(), rows.size());
  EXPECT_EQ(from_raw.names, from_coded.names);
  EXPECT_EQ(from_raw.medians, from_coded.medians);
  EXPECT_EQ(from_raw.lowers, from_coded.lowers);
  EXPECT_EQ(from_raw.uppers, from_coded.uppers);
  // Names in order: bench_0, bench_1, bench_10, ...
  EXPECT_EQ(from_raw.name(2), "bench_10");
  EXPECT_EQ(from_raw.medians[2], rows[10].median);
}

TEST(PackedSeries, PacksARunOfNoBenchmark) {
  PackedSeries series;
  series.medians = {1, 2};
  ASSERT_TRUE(unpack(pack_series({}), series).ok());
  EXPECT_EQ(series.size(), 0u);
  EXPECT_TRUE(series.names.empty());
}

// Each kind of damage is refused with the run named and the repair said, and nothing is read
// past the value.
TEST(PackedSeries, RefusesDamagedValuesNamingTheRun) {
  const std::string good = "BKS1" + u32(1) + u32(5) + u32(1) + "a" + std::string(24, '\0');
  PackedSeries series;
  ASSERT_TRUE(unpack(frame(good), series).ok());
  const auto refused = [&](const std::string& data, const std::string& why) {
    const auto result = unpack(data, series);
    ASSERT_FALSE(result.ok()) << why;
    EXPECT_THAT(result.error().message, HasSubstr("packed series of run 0123abcd is damaged"));
    EXPECT_THAT(result.error().message, HasSubstr(why));
    EXPECT_THAT(result.error().message, HasSubstr("benchkit history prune"));
  };
  refused("not zstd at all", "not a zstd frame");
  refused("", "not a zstd frame");
  refused(frame("BKS2" + good.substr(4)), "no BKS1 header");
  refused(frame("BKS1"), "no BKS1 header");
  refused(frame(good + "x"), "42 bytes unpacked, 41 expected from its header");
  refused(frame("BKS1" + u32(2) + u32(5) + u32(1) + "a" + std::string(48, '\0')),
          "the names end early");
  refused(frame("BKS1" + u32(1) + u32(5) + u32(2) + "a" + std::string(24, '\0')),
          "a name runs past the names");
  refused(frame("BKS1" + u32(1) + u32(6) + u32(1) + "ab" + std::string(24, '\0')),
          "bytes left after the names");
  refused(frame("BKS1" + u32(0xffffffffu) + u32(0) + std::string(24, '\0')),
          "36 bytes unpacked, 103079215092 expected");
  std::string cut = frame(good);
  cut.pop_back();
  refused(cut, "damaged");
  // A frame whose header claims far more than any packed run grows to: refused unread.
  std::string huge(std::size_t{64} << 20, 'x');
  const std::string claims = frame(huge);
  refused(claims.substr(0, 32), "claims 67108864 bytes unpacked");
}

// The migration that packs every run says so first when it will take a while, naming the
// history and the number of runs; a small history migrates without a word.
TEST(PackedSeries, APackingMigrationOfManyRunsSaysSoFirst) {
  EXPECT_EQ(packing_note("h.db", 0), "");
  EXPECT_EQ(packing_note("h.db", 99), "");
  const std::string note = packing_note("postgresql://ci:***@db/bench", 1001);
  EXPECT_THAT(note, HasSubstr("history postgresql://ci:***@db/bench moves to schema"));
  EXPECT_THAT(note, HasSubstr("packing the series of its 1001 runs, once"));
  EXPECT_EQ(note.back(), '\n');
}

}  // namespace
}  // namespace benchkit::store
