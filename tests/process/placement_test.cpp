// The placement shuffle really takes pages from the kernel while it holds them, and gives them
// back.
#include "process/placement.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <string>

namespace benchkit::process {
namespace {

// VmRSS of this process, in bytes.
long resident_bytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) * 1024;
  }
  return -1;
}

TEST(PlacementShuffle, HoldsARandomNumberOfResidentPagesUntilReleased) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t most = std::size_t{32} << 20;
  PlacementShuffle shuffle(7);
  std::set<std::size_t> amounts;
  for (int i = 0; i < 8; ++i) {
    const long before = resident_bytes();
    shuffle.hold(most);
    const std::size_t held = shuffle.held();
    EXPECT_LE(held, most);
    EXPECT_EQ(held % page, 0u);
    amounts.insert(held);
    // The pages are resident now, not merely reserved (allow 1 MiB for the rest of the process).
    EXPECT_GE(resident_bytes() - before, static_cast<long>(held) - (1L << 20)) << "hold " << i;
    shuffle.release();
    EXPECT_EQ(shuffle.held(), 0u);
    EXPECT_LE(resident_bytes(), before + (1L << 20)) << "released " << i;
  }
  EXPECT_GE(amounts.size(), 7u) << "the amount is drawn anew each time";
}

TEST(PlacementShuffle, HoldingAgainReleasesFirstAndZeroHoldsNothing) {
  PlacementShuffle shuffle(3);
  shuffle.hold(0);
  EXPECT_EQ(shuffle.held(), 0u);
  const std::size_t most = std::size_t{8} << 20;
  shuffle.hold(most);
  const long once = resident_bytes();
  shuffle.hold(most);
  shuffle.hold(most);
  // Three holds never stack up: at most one amount (8 MiB) is resident at a time.
  EXPECT_LE(resident_bytes(), once + (9L << 20));
}

}  // namespace
}  // namespace benchkit::process
