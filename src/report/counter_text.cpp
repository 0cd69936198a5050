#include "report/counter_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "model/counters.hpp"

namespace benchkit::report {
namespace {

// 3 significant digits, as every other figure of the reports; a value that rounds to 1000
// (999.7) or, in base 1024, lies in 1000..1023 keeps its integer digits rather than "1e+03".
std::string significant(double value) {
  return std::fabs(value) >= 999.5 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

}  // namespace

std::string format_counter(double value, counter::Kind kind) {
  const std::string per = counter::has(kind, counter::rate) ? "/s" : "";
  if (std::isnan(value)) return "nan" + (per.empty() ? "" : " " + per);
  if (std::isinf(value)) return (value < 0 ? "-inf" : "inf") + (per.empty() ? "" : " " + per);
  const bool binary = counter::has(kind, counter::base_1024);
  const double base = binary ? 1024.0 : 1000.0;
  static constexpr std::array<const char*, 7> kUp = {"", "k", "M", "G", "T", "P", "E"};
  static constexpr std::array<const char*, 7> kUpBinary = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  static constexpr std::array<const char*, 5> kDown = {"", "m", "µ", "n", "p"};
  double magnitude = std::fabs(value);
  std::string prefix;
  std::size_t step = 0;
  // In base 1000, 999.7 is "1 k" rather than "1000"; in base 1024, 1000 to 1023 stay whole.
  const double next_prefix_at = binary ? base : base - 0.5;
  while (magnitude >= next_prefix_at && step + 1 < kUp.size()) {
    magnitude /= base;
    ++step;
  }
  if (step > 0) {
    prefix = binary ? kUpBinary[step] : kUp[step];
  } else if (!binary && magnitude > 0.0 && magnitude < 0.9995) {
    // 0.0125 is "12.5 m": a ratio or an inverted rate (seconds per item) reads better so; a
    // value that rounds to 1 at 3 digits (0.99997) stays "1", not "1000 m".
    while (magnitude < 0.9995 && step + 1 < kDown.size()) {
      magnitude *= 1000.0;
      ++step;
    }
    prefix = kDown[step];
  }
  const std::string unit = prefix + per;
  const std::string number = significant(value < 0 ? -magnitude : magnitude);
  return unit.empty() ? number : number + " " + unit;
}

std::string counter_cell(const BenchmarkResult& b, const std::string& name) {
  if (b.counters.count(name) == 0) return "";
  const auto value = model::counter_value(b, name);
  return value ? format_counter(*value, model::counter_kind(b, name)) : "n/a";
}

std::vector<const BenchmarkResult*> with_counters(const RunResult& run) {
  std::vector<const BenchmarkResult*> out;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.kind == "scenario" || b.kind == "command" || b.skipped) continue;
    if (!b.counters.empty() || !b.label.empty()) out.push_back(&b);
  }
  return out;
}

std::vector<std::string> counter_names(const std::vector<const BenchmarkResult*>& results) {
  std::set<std::string> names;
  for (const BenchmarkResult* b : results) {
    for (const auto& [name, value] : b->counters) names.insert(name);
  }
  return {names.begin(), names.end()};
}

bool any_label(const std::vector<const BenchmarkResult*>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const BenchmarkResult* b) { return !b->label.empty(); });
}

std::vector<std::string> counter_row(const BenchmarkResult& b,
                                     const std::vector<std::string>& names, bool with_label) {
  std::vector<std::string> row = {b.name};
  for (const std::string& name : names) row.push_back(counter_cell(b, name));
  if (with_label) row.push_back(b.label);
  return row;
}

}  // namespace benchkit::report
