#include "benchkit/data.hpp"

#include <gtest/gtest.h>
#include <zstd.h>

#include <vector>

#include <set>
#include <string>

namespace benchkit::data {
namespace {

TEST(Payload, IsDeterministicForASeedAndDiffersAcrossSeeds) {
  for (Kind kind : {Kind::text, Kind::json, Kind::random}) {
    EXPECT_EQ(payload(kind, 4096, 7), payload(kind, 4096, 7)) << to_string(kind);
    EXPECT_NE(payload(kind, 4096, 7), payload(kind, 4096, 8)) << to_string(kind);
  }
}

TEST(Payload, HasExactlyTheRequestedSize) {
  for (Kind kind : {Kind::uniform, Kind::text, Kind::json, Kind::random}) {
    for (std::size_t bytes : {0u, 1u, 63u, 4096u, 100'001u}) {
      EXPECT_EQ(payload(kind, bytes, 1).size(), bytes) << to_string(kind) << " " << bytes;
    }
  }
}

TEST(Payload, KindsAreKnownByName) {
  EXPECT_EQ(kind_from_string("json"), Kind::json);
  EXPECT_EQ(to_string(Kind::random), "random");
  EXPECT_THROW(kind_from_string("zeros"), std::invalid_argument);
}

TEST(Payload, TheFirstBytesOfRandomArePinned) {
  // Pinned so that a change to the generator, which would silently change every benchmark's
  // input, fails here first. splitmix64's first output for seed 0 is 0xE220A8397B1DCDAF (the
  // reference value of Vigna's splitmix64.c), emitted little-endian.
  const std::string bytes = payload(Kind::random, 8, 0);
  const unsigned char expected[8] = {0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<unsigned char>(bytes[i]), expected[i]) << i;
}

double compression_ratio(const std::string& input) {
  std::vector<char> output(ZSTD_compressBound(input.size()));
  const std::size_t size =
      ZSTD_compress(output.data(), output.size(), input.data(), input.size(), 3);
  return static_cast<double>(input.size()) / static_cast<double>(size);
}

TEST(Payload, KindsSpanTheRangeOfCompressibility) {
  constexpr std::size_t kBytes = 1 << 20;
  const double uniform = compression_ratio(payload(Kind::uniform, kBytes, 1));
  const double text = compression_ratio(payload(Kind::text, kBytes, 1));
  const double json = compression_ratio(payload(Kind::json, kBytes, 1));
  const double random = compression_ratio(payload(Kind::random, kBytes, 1));
  EXPECT_GT(uniform, 1000.0);
  EXPECT_GT(text, 2.0);
  EXPECT_LT(text, 10.0);
  EXPECT_GT(json, 2.0);
  EXPECT_LT(json, 10.0);
  EXPECT_LT(random, 1.01);
}

TEST(RandomInts, AreDeterministicAndVaried) {
  const auto a = random_ints(1000, 3);
  EXPECT_EQ(a, random_ints(1000, 3));
  EXPECT_NE(a, random_ints(1000, 4));
  EXPECT_GT(std::set<int>(a.begin(), a.end()).size(), 990u);
}

}  // namespace
}  // namespace benchkit::data
