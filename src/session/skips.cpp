#include "session/skips.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchkit::session {

std::optional<BenchmarkResult> skipped_by(const std::string& name, const std::string& kind,
                                          const std::map<std::string, std::string>& params,
                                          const std::vector<SkipRule>& rules,
                                          const std::vector<std::string>& skip_tags) {
  const auto rule = std::find_if(rules.begin(), rules.end(), [&](const SkipRule& candidate) {
    return std::find(skip_tags.begin(), skip_tags.end(), candidate.tag) != skip_tags.end();
  });
  if (rule == rules.end()) return std::nullopt;
  BenchmarkResult result;
  result.name = name;
  result.kind = kind;
  result.params = params;
  result.skipped = Skipped{rule->tag, rule->reason};
  return result;
}

std::vector<BenchmarkResult> take_skipped(std::vector<measure::Instance>& chosen,
                                          const std::vector<std::string>& skip_tags) {
  std::vector<BenchmarkResult> skipped;
  if (skip_tags.empty()) return skipped;
  std::vector<measure::Instance> kept;
  for (measure::Instance& instance : chosen) {
    auto result = skipped_by(instance.name, instance.is_scenario() ? "scenario" : "micro",
                             instance.params, instance.registration->skip_rules(), skip_tags);
    if (result) {
      skipped.push_back(std::move(*result));
    } else {
      kept.push_back(std::move(instance));
    }
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
