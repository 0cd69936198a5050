// The process's memory as the kernel and the allocator report it, behind an interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace benchkit::measure {

class ProcessMemory {
 public:
  virtual ~ProcessMemory() = default;
  // Resident set size now (VmRSS), in bytes.
  virtual std::optional<std::int64_t> rss_bytes() = 0;
  // High-water mark of the resident set (VmHWM), in bytes.
  virtual std::optional<std::int64_t> peak_rss_bytes() = 0;
  // Resets the high-water mark to the current RSS; false when the kernel refuses.
  virtual bool reset_peak() = 0;
  // The process's own peak over its whole life, across resets (each reset keeps what it clears).
  virtual std::optional<std::int64_t> lifetime_peak_rss_bytes() = 0;
  // Bytes handed out by malloc and not yet freed, or -1 when unknown.
  virtual std::int64_t heap_bytes_in_use() = 0;
};

// /proc/self/status, /proc/self/clear_refs and mallinfo2 (glibc).
ProcessMemory& process_memory();

// Hands the pages of freed heap memory back to the kernel (glibc's malloc_trim): they stay
// resident otherwise, wherever they lie below the top of the heap, and count in the resident
// set as if they were in use.
void release_free_heap();

// How a peak read after reset_peak() was isolated, as results record it: `was_reset` is what
// reset_peak() returned.
const char* peak_rss_method(bool was_reset);

// Counts kept by the benchkit::alloc target's replacement of operator new and delete.
struct AllocationTotals {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
};
using AllocationReader = AllocationTotals (*)();
// Installed by benchkit::alloc when it is linked; null otherwise.
void set_allocation_reader(AllocationReader reader);
AllocationReader allocation_reader();

}  // namespace benchkit::measure
