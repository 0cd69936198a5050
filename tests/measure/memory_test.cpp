#include "measure/memory.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "support/sanitizers.hpp"

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
#if !BENCHKIT_TEST_ASAN  // ASan keeps freed blocks resident (its quarantine)
  EXPECT_LT(*current_peak, *lifetime) << "while the kernel's mark was reset";
#endif
}

TEST(ProcessMemory, ReleasingTheFreeHeapHandsBackFreedPagesBelowALiveBlock) {
#if BENCHKIT_TEST_ASAN
  GTEST_SKIP() << "ASan's allocator keeps freed blocks in its quarantine";
#endif
  ProcessMemory& memory = process_memory();
  // 16 MiB in blocks small enough for the heap (not mmap), touched, then one block above them
  // that stays: freeing the others leaves a free stretch that the top of the heap cannot trim.
  constexpr std::size_t kBlock = 4096;
  constexpr std::size_t kBlocks = 4096;
  std::vector<char*> blocks;
  blocks.reserve(kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) {
    blocks.push_back(static_cast<char*>(std::malloc(kBlock)));
    std::memset(blocks.back(), 1, kBlock);
  }
  char* const above = static_cast<char*>(std::malloc(kBlock));
  std::memset(above, 1, kBlock);
  for (char* block : blocks) std::free(block);
  const auto freed = memory.rss_bytes();
  release_free_heap();
  const auto released = memory.rss_bytes();
  std::free(above);
  ASSERT_TRUE(freed && released);
  EXPECT_LE(*released, *freed - (12 << 20)) << "16 MiB were freed below a live block";
}

}  // namespace
}  // namespace benchkit::measure
