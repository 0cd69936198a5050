// A process whose memory and CPU time move only when told: scenario phases tested without
// depending on what this machine's allocator or scheduler do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "measure/memory.hpp"
#include "measure/usage.hpp"

namespace benchkit::testing {

class FakeProcessMemory final : public measure::ProcessMemory {
 public:
  std::optional<std::int64_t> rss_bytes() override { return rss_; }
  std::optional<std::int64_t> peak_rss_bytes() override { return peak_; }
  bool reset_peak() override {
    ++resets;
    if (!reset_allowed) return false;
    peak_ = rss_;
    return true;
  }
  std::optional<std::int64_t> lifetime_peak_rss_bytes() override { return lifetime_peak_; }
  std::int64_t heap_bytes_in_use() override { return -1; }

  // The resident set becomes `bytes` (the high-water marks follow when it rises).
  void set_rss(std::int64_t bytes) {
    rss_ = bytes;
    peak_ = std::max(peak_, bytes);
    lifetime_peak_ = std::max(lifetime_peak_, bytes);
  }

  bool reset_allowed = true;
  int resets = 0;

 private:
  std::int64_t rss_ = 0;
  std::int64_t peak_ = 0;
  std::int64_t lifetime_peak_ = 0;
};

class FakeProcessUsage final : public measure::ProcessUsage {
 public:
  std::optional<measure::UsageTotals> read() override { return totals; }
  measure::UsageTotals totals;
};

}  // namespace benchkit::testing
