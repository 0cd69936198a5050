#include "model/comparison.hpp"

#include <algorithm>

namespace benchkit::model {

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed:
      return "regressed";
    case Verdict::improved:
      return "improved";
    case Verdict::unchanged:
      return "unchanged";
    case Verdict::inconclusive:
      return "inconclusive";
    case Verdict::added:
      return "added";
    case Verdict::removed:
      return "removed";
    case Verdict::invalid:
      return "invalid";
    case Verdict::skipped:
      return "skipped";
  }
  return "inconclusive";
}

const char* to_string(Design design) {
  switch (design) {
    case Design::independent:
      return "independent samples";
    case Design::processes:
      return "processes";
    case Design::paired:
      return "paired rounds";
    case Design::exact:
      return "exact counts";
  }
  return "independent samples";
}

std::size_t Comparison::count(Verdict verdict) const {
  return static_cast<std::size_t>(
      std::count_if(benchmarks.begin(), benchmarks.end(),
                    [&](const BenchmarkComparison& b) { return b.verdict == verdict; }));
}

bool planned_power_reached(const BenchmarkComparison& c) {
  // A plan beyond the design's last look (within_cap false) is never held: pairs stop there.
  return c.planned_rounds && c.pairs >= c.planned_rounds->rounds;
}

}  // namespace benchkit::model
