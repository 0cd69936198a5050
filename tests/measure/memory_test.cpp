#include "measure/memory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace benchkit::measure {
namespace {

TEST(ProcessMemory, ThePeakOverTheWholeRunSurvivesResets) {
  ProcessMemory& memory = process_memory();
  if (!memory.reset_peak()) GTEST_SKIP() << "this kernel refuses to reset the peak RSS";
  const auto before = memory.rss_bytes();
  ASSERT_TRUE(before.has_value());
  {
    constexpr std::size_t kBytes = 64u << 20;  // 64 MiB, touched so it becomes resident
    std::unique_ptr<char[]> block(new char[kBytes]);
    std::memset(block.get(), 1, kBytes);
    volatile char sink = block[kBytes - 1];
    (void)sink;
  }
  ASSERT_TRUE(memory.reset_peak());  // the block is freed: the new high-water mark is lower
  const auto lifetime = memory.lifetime_peak_rss_bytes();
  const auto current_peak = memory.peak_rss_bytes();
  ASSERT_TRUE(lifetime && current_peak);
  EXPECT_GE(*lifetime, *before + (48 << 20)) << "the 64 MiB block was remembered";
#ifndef __SANITIZE_ADDRESS__  // ASan keeps freed blocks resident (its quarantine)
  EXPECT_LT(*current_peak, *lifetime) << "while the kernel's mark was reset";
#endif
}

}  // namespace
}  // namespace benchkit::measure
