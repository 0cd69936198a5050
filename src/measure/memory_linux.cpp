#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>

#include "measure/memory.hpp"

namespace benchkit::measure {
namespace {

std::optional<std::int64_t> status_field(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) == 0) {
      try {
        return std::stoll(line.substr(prefix.size())) * 1024;  // reported in kB
      } catch (...) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

class LinuxProcessMemory final : public ProcessMemory {
 public:
  std::optional<std::int64_t> rss_bytes() override { return status_field("VmRSS"); }
  std::optional<std::int64_t> peak_rss_bytes() override { return status_field("VmHWM"); }
  bool reset_peak() override {
    remember_peak();
    // Writing 5 to clear_refs resets the peak RSS (Linux >= 4.0, Documentation/filesystems/proc).
    std::ofstream out("/proc/self/clear_refs");
    if (!out) return false;
    out << "5";
    out.flush();
    return static_cast<bool>(out);
  }
  std::optional<std::int64_t> lifetime_peak_rss_bytes() override {
    remember_peak();
    return lifetime_peak_ > 0 ? std::optional<std::int64_t>(lifetime_peak_) : std::nullopt;
  }
  std::int64_t heap_bytes_in_use() override {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 info = mallinfo2();
    return static_cast<std::int64_t>(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
  }

 private:
  void remember_peak() {
    if (const auto peak = peak_rss_bytes()) lifetime_peak_ = std::max(lifetime_peak_, *peak);
  }
  std::int64_t lifetime_peak_ = 0;
};

std::atomic<AllocationReader> installed_reader{nullptr};

}  // namespace

ProcessMemory& process_memory() {
  static LinuxProcessMemory instance;
  return instance;
}

void release_free_heap() {
  ::malloc_trim(0);
}

const char* peak_rss_method(bool was_reset) {
  return was_reset ? "VmHWM after reset by /proc/self/clear_refs"
                   : "VmHWM since process start (the kernel refused a reset)";
}

void set_allocation_reader(AllocationReader reader) {
  installed_reader.store(reader);
}
AllocationReader allocation_reader() {
  return installed_reader.load();
}

}  // namespace benchkit::measure
