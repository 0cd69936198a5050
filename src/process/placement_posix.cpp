#include "process/placement.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace benchkit::process {

PlacementShuffle::PlacementShuffle(std::uint64_t seed) : random_(seed) {}

PlacementShuffle::~PlacementShuffle() {
  release();
}

void PlacementShuffle::hold(std::size_t max_bytes) {
  release();
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t pages = max_bytes / page;
  if (pages == 0) return;
  const std::size_t bytes = std::uniform_int_distribution<std::size_t>(0, pages)(random_) * page;
  if (bytes == 0) return;
  // MAP_POPULATE faults every page in now: the pages are taken from the free lists here.
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (memory == MAP_FAILED) return;
  memory_ = memory;
  bytes_ = bytes;
}

void PlacementShuffle::release() {
  if (memory_) munmap(memory_, bytes_);
  memory_ = nullptr;
  bytes_ = 0;
}

}  // namespace benchkit::process
