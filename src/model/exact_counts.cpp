#include "model/exact_counts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace benchkit::model {
namespace {

const ExactCount* find_count(const std::vector<ExactCount>& counts, const std::string& name) {
  const auto found = std::find_if(counts.begin(), counts.end(),
                                  [&](const ExactCount& count) { return count.name == name; });
  return found == counts.end() ? nullptr : &*found;
}

std::string shown(const ExactCount* count) {
  if (count == nullptr) return "not set";
  return count->input.empty() ? std::to_string(count->value)
                              : fmt::format("{} for {}", count->value, count->input);
}

// The scenario a result belongs to: its name without the phase (after the last '/'); a micro
// benchmark is its own.
std::string voter_of(const BenchmarkResult& benchmark) {
  if (benchmark.kind != "scenario") return benchmark.name;
  const auto slash = benchmark.name.rfind('/');
  return slash == std::string::npos ? benchmark.name : benchmark.name.substr(0, slash);
}

// "3 in a/b, c/d and 1 more": where a value was seen, at most kNamed scenarios by name.
std::string seen_in(std::uint64_t value, const std::set<std::string>& voters) {
  constexpr std::size_t kNamed = 3;  // enough to find them; the rest are counted
  std::string where;
  std::size_t named = 0;
  for (const std::string& voter : voters) {
    if (named == kNamed) break;
    where += (named++ == 0 ? "" : ", ") + voter;
  }
  if (voters.size() > kNamed) where += fmt::format(" and {} more", voters.size() - kNamed);
  return fmt::format("{} in {}", value, where);
}

}  // namespace

void add_failure(BenchmarkResult& benchmark, std::string failure) {
  if (std::find(benchmark.failures.begin(), benchmark.failures.end(), failure) ==
      benchmark.failures.end()) {
    benchmark.failures.push_back(std::move(failure));
  }
}

std::optional<std::string> count_disagreement(std::string_view unit,
                                              const std::vector<ExactCount>& first,
                                              std::size_t first_run,
                                              const std::vector<ExactCount>& now, std::size_t run) {
  std::vector<std::string> names;
  for (const auto* counts : {&first, &now}) {
    for (const ExactCount& count : *counts) {
      if (std::find(names.begin(), names.end(), count.name) == names.end())
        names.push_back(count.name);
    }
  }
  for (const std::string& name : names) {
    const ExactCount* before = find_count(first, name);
    const ExactCount* after = find_count(now, name);
    if (before && after && before->value == after->value && before->input == after->input) {
      continue;
    }
    return fmt::format("exact count {} is not the same in every {}: {} in {} {}, {} in {} {}", name,
                       unit, shown(before), unit, first_run + 1, shown(after), unit, run + 1);
  }
  return std::nullopt;
}

void check_exact_counts(std::vector<BenchmarkResult>& benchmarks) {
  // (name, input) -> value -> the scenarios that counted it.
  std::map<std::pair<std::string, std::string>, std::map<std::uint64_t, std::set<std::string>>>
      groups;
  for (const BenchmarkResult& benchmark : benchmarks) {
    for (const ExactCount& count : benchmark.exact_counts) {
      if (!count.input.empty()) {
        groups[{count.name, count.input}][count.value].insert(voter_of(benchmark));
      }
    }
  }
  for (BenchmarkResult& benchmark : benchmarks) {
    for (const ExactCount& count : benchmark.exact_counts) {
      if (count.input.empty()) continue;
      const auto& values = groups.at({count.name, count.input});
      if (values.size() < 2) continue;
      std::size_t most = 0;
      std::size_t ties = 0;
      std::uint64_t common = 0;
      for (const auto& [value, voters] : values) {
        if (voters.size() > most) {
          most = voters.size();
          common = value;
          ties = 1;
        } else if (voters.size() == most) {
          ++ties;
        }
      }
      if (ties == 1 && count.value == common) continue;
      std::string others;
      for (const auto& [value, voters] : values) {
        if (value == count.value) continue;
        others += (others.empty() ? "" : "; ") + seen_in(value, voters);
      }
      add_failure(benchmark,
                  fmt::format("exact count {} for {} is not the same in every run: {} here, {}",
                              count.name, count.input, count.value, others));
    }
  }
}

}  // namespace benchkit::model
