// Memory: the address-space layout (ASLR), swap, available memory, transparent huge pages.
#include "system/rules.hpp"

#include <cstdint>
#include <optional>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

Check check_aslr(const MachineFiles& files) {
  const std::string title = "ASLR";
  const auto text = read_trimmed(files, "/proc/sys/kernel/randomize_va_space");
  const auto level = text ? parse_integer(*text) : std::nullopt;
  if (!level) {
    return make_check("aslr", title, Status::unknown,
                      "/proc/sys/kernel/randomize_va_space not readable");
  }
  // Randomised layouts differ from process to process; benchkit runs several processes, so
  // its results average over layouts instead of reporting the luck of one (Mytkowicz et al.,
  // "Producing wrong data without doing anything obviously wrong", ASPLOS 2009).
  if (*level == 2) return make_check("aslr", title, Status::ok, "2 (full randomisation)");
  if (*level == 1) {
    return make_check("aslr", title, Status::ok, "1 (stack, mmap and vDSO; not the heap)");
  }
  if (*level == 0) {
    return make_check(
        "aslr", title, Status::warning, "0 (off for every process)",
        "Every process gets the same memory layout, so results carry one layout's luck, and "
        "the machine is less safe. Turn it back on: sudo sysctl kernel.randomize_va_space=2; to "
        "fix the layout of one process while investigating, run it under setarch -R instead.");
  }
  return make_check("aslr", title, Status::unknown, *text + " (not a documented value)");
}

Check check_swap(const MachineFiles& files) {
  const std::string title = "Swap";
  // An unreadable file reads as empty, where no key is found.
  const std::string text = files.read("/proc/meminfo").value_or(std::string());
  const auto total = meminfo_bytes(text, "SwapTotal");
  const auto free = meminfo_bytes(text, "SwapFree");
  if (!total || !free)
    return make_check("swap", title, Status::unknown, "/proc/meminfo not readable");
  if (*total == 0) return make_check("swap", title, Status::ok, "off");
  const std::uint64_t used = *total > *free ? *total - *free : 0;
  const std::string value = format_bytes(*total) + ", " + format_bytes(used) + " in use";
  // A few pages swapped out long ago are harmless; more than 1% of the memory in swap means
  // the machine ran short recently, and a benchmark that touches those pages waits for disk.
  constexpr double kSwappedShare = 0.01;
  const auto memory = meminfo_bytes(text, "MemTotal");
  const double limit = memory ? kSwappedShare * static_cast<double>(*memory) : 0.0;
  if (static_cast<double>(used) > limit) {
    return make_check("swap", title, Status::warning, value,
                      "The machine ran short of memory recently; pages swapped out come back "
                      "as slow major page faults. Free memory, then bring the pages back: sudo "
                      "swapoff -a && sudo swapon -a");
  }
  return make_check("swap", title, Status::ok, value);
}

Check check_memory(const MachineFiles& files) {
  const std::string title = "Memory";
  const std::string text = files.read("/proc/meminfo").value_or(std::string());
  const auto total = meminfo_bytes(text, "MemTotal");
  const auto available = meminfo_bytes(text, "MemAvailable");
  if (!total || !available || *total == 0) {
    return make_check("memory", title, Status::unknown,
                      "MemTotal / MemAvailable not in /proc/meminfo");
  }
  const std::string value = format_bytes(*available) + " available of " + format_bytes(*total);
  // With less than a tenth of the memory available, the page cache is being reclaimed: file
  // reads and new allocations of a benchmark meet reclaim and page faults.
  constexpr double kLowAvailableShare = 0.10;
  if (static_cast<double>(*available) < kLowAvailableShare * static_cast<double>(*total)) {
    return make_check("memory", title, Status::warning, value,
                      "Little memory is available, so the kernel is reclaiming caches while "
                      "benchmarks run. Close what uses memory (ps aux --sort=-rss | head).");
  }
  return make_check("memory", title, Status::ok, value);
}

Check check_transparent_hugepages(const MachineFiles& files) {
  const std::string title = "Transparent huge pages";
  const auto text = files.read("/sys/kernel/mm/transparent_hugepage/enabled");
  const auto mode = text ? bracketed_choice(*text) : std::nullopt;
  if (!mode) {
    return make_check("transparent_hugepages", title, Status::unknown,
                      "/sys/kernel/mm/transparent_hugepage/enabled not readable");
  }
  // With "always", whether a buffer gets huge pages depends on memory fragmentation and on the
  // khugepaged thread, so one benchmark can run in two speeds from process to process.
  if (*mode == "always") {
    return make_check(
        "transparent_hugepages", title, Status::warning, "always",
        "Whether a buffer gets huge pages depends on fragmentation and on khugepaged, so memory-"
        "bound benchmarks can switch between two speeds. Let programs ask for them instead: "
        "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled");
  }
  return make_check("transparent_hugepages", title, Status::ok, *mode);
}

}  // namespace benchkit::system::detail
