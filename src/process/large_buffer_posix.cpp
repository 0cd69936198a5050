#include "process/large_buffer.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace benchkit::process {
namespace {

// The size of a transparent huge page on x86-64 and arm64 (with 4 KiB pages).
constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

LargeBuffer::LargeBuffer(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  // A huge page needs an aligned range: a buffer of one or more gets one more page to align in.
  const bool huge = bytes >= kHugePage;
  mapped_ = huge ? bytes + kHugePage : bytes;
  mapping_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  auto address = reinterpret_cast<std::uintptr_t>(mapping_);
  if (huge) {
    address = (address + kHugePage - 1) / kHugePage * kHugePage;
    // Refused (no transparent huge pages in this kernel): ordinary pages, the same bytes.
    (void)madvise(reinterpret_cast<void*>(address), bytes, MADV_HUGEPAGE);
  }
  start_ = reinterpret_cast<void*>(address);
}

LargeBuffer::~LargeBuffer() {
  if (mapping_ != nullptr) munmap(mapping_, mapped_);
}

LargeBuffer::LargeBuffer(LargeBuffer&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mapped_(std::exchange(other.mapped_, 0)),
      start_(std::exchange(other.start_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

LargeBuffer& LargeBuffer::operator=(LargeBuffer&& other) noexcept {
  if (this != &other) {
    if (mapping_ != nullptr) munmap(mapping_, mapped_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapped_ = std::exchange(other.mapped_, 0);
    start_ = std::exchange(other.start_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

}  // namespace benchkit::process
