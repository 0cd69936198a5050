// benchkit::alloc: replaces the global operator new and delete to count allocations, so each
// benchmark reports allocations and bytes per iteration. Opt-in: link benchkit::alloc.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "measure/memory.hpp"

namespace {

// Relaxed atomics: totals only need to be exact once the measured code has stopped, which the
// engine's clock reads (sequenced after the timed region) guarantee on the measuring thread.
std::atomic<std::uint64_t> allocation_count{0};
std::atomic<std::uint64_t> allocated_bytes{0};

benchkit::measure::AllocationTotals read_totals() {
  return {allocation_count.load(std::memory_order_relaxed),
          allocated_bytes.load(std::memory_order_relaxed)};
}

void* counted_allocate(std::size_t size, std::size_t alignment) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  allocated_bytes.fetch_add(size, std::memory_order_relaxed);
  if (size == 0) size = 1;
  void* pointer = nullptr;
  if (alignment > alignof(std::max_align_t)) {
    const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
    pointer = std::aligned_alloc(alignment, rounded);
  } else {
    pointer = std::malloc(size);
  }
  return pointer;
}

struct Installer {
  Installer() { benchkit::measure::set_allocation_reader(&read_totals); }
} installer;

}  // namespace

void* operator new(std::size_t size) {
  if (void* p = counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  if (void* p = counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  if (void* p = counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate(size, 0);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate(size, 0);
}
void operator delete(void* pointer) noexcept {
  std::free(pointer);
}
void operator delete[](void* pointer) noexcept {
  std::free(pointer);
}
void operator delete(void* pointer, std::size_t) noexcept {
  std::free(pointer);
}
void operator delete[](void* pointer, std::size_t) noexcept {
  std::free(pointer);
}
void operator delete(void* pointer, std::align_val_t) noexcept {
  std::free(pointer);
}
void operator delete[](void* pointer, std::align_val_t) noexcept {
  std::free(pointer);
}
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept {
  std::free(pointer);
}
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept {
  std::free(pointer);
}
