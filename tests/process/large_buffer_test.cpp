#include "process/large_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>

namespace benchkit::process {
namespace {

// Every byte is there, zeroed, and writable; a buffer of a huge page or more starts on one (what
// madvise needs to back it with huge pages); a moved buffer hands its bytes over.
TEST(LargeBuffer, GivesZeroedWritableBytesAlignedForHugePages) {
  EXPECT_EQ(LargeBuffer().data(), nullptr);
  EXPECT_EQ(LargeBuffer(0).data(), nullptr);
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{5000}, std::size_t{3} << 20}) {
    LargeBuffer buffer(bytes);
    ASSERT_NE(buffer.data(), nullptr);
    EXPECT_EQ(buffer.size(), bytes);
    auto* bytes_of = static_cast<unsigned char*>(buffer.data());
    EXPECT_EQ(bytes_of[0], 0);
    EXPECT_EQ(bytes_of[bytes - 1], 0);
    std::memset(bytes_of, 0xab, bytes);
    EXPECT_EQ(bytes_of[bytes / 2], 0xab);
    if (bytes >= (std::size_t{2} << 20)) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % (std::size_t{2} << 20), 0u);
    }
    LargeBuffer moved(std::move(buffer));
    EXPECT_EQ(moved.data(), bytes_of);
    EXPECT_EQ(buffer.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state
    LargeBuffer assigned;
    assigned = std::move(moved);
    EXPECT_EQ(static_cast<unsigned char*>(assigned.data())[bytes - 1], 0xab);
  }
}

}  // namespace
}  // namespace benchkit::process
