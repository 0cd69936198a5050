// Memory for a large array written once and read later: the points `history trend` folds from a
// fleet's history (hundreds of megabytes, session/history.cpp). It is mapped anonymous and asked
// for in huge pages (madvise MADV_HUGEPAGE: Debian's kernels, and this project's VMs, give
// transparent huge pages only when asked), so that a block of tens of megabytes costs tens of
// page faults, not thousands; on a virtual machine each fault is a trip through the hypervisor.
// Where huge pages are refused it is ordinary memory. The bytes are not zeroed by the caller's
// first write: the kernel hands them over zeroed.
#pragma once

#include <cstddef>

namespace benchkit::process {

class LargeBuffer {
 public:
  LargeBuffer() = default;
  // At least `bytes` bytes (none for 0); throws std::bad_alloc when the memory is refused.
  explicit LargeBuffer(std::size_t bytes);
  ~LargeBuffer();
  LargeBuffer(LargeBuffer&& other) noexcept;
  LargeBuffer& operator=(LargeBuffer&& other) noexcept;
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;

  // The start of the bytes, aligned to a huge page when the buffer is at least one.
  void* data() const { return start_; }
  std::size_t size() const { return size_; }

 private:
  void* mapping_ = nullptr;  // what was mapped (start_ lies inside it)
  std::size_t mapped_ = 0;
  void* start_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace benchkit::process
