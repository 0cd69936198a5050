#include "session/skips.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchkit::session {

std::vector<BenchmarkResult> take_skipped(std::vector<measure::Instance>& chosen,
                                          const std::vector<std::string>& skip_tags) {
  std::vector<BenchmarkResult> skipped;
  if (skip_tags.empty()) return skipped;
  std::vector<measure::Instance> kept;
  for (measure::Instance& instance : chosen) {
    const std::vector<SkipRule>& rules = instance.registration->skip_rules();
    const auto rule = std::find_if(rules.begin(), rules.end(), [&](const SkipRule& candidate) {
      return std::find(skip_tags.begin(), skip_tags.end(), candidate.tag) != skip_tags.end();
    });
    if (rule == rules.end()) {
      kept.push_back(std::move(instance));
      continue;
    }
    BenchmarkResult result;
    result.name = instance.name;
    result.kind = instance.is_scenario() ? "scenario" : "micro";
    result.params = instance.params;
    result.skipped = Skipped{rule->tag, rule->reason};
    skipped.push_back(std::move(result));
  }
  chosen = std::move(kept);
  return skipped;
}

std::string describe_skip(const BenchmarkResult& skipped) {
  if (!skipped.skipped) return skipped.name + " was not skipped";
  return fmt::format("{} skipped (--skip-tag {}): {}", skipped.name, skipped.skipped->tag,
                     skipped.skipped->reason);
}

}  // namespace benchkit::session
