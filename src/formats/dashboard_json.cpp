#include "formats/dashboard_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "model/confidence.hpp"

namespace benchkit::formats {

using nlohmann::ordered_json;

namespace {

bool reportable(const BenchmarkResult& b) {
  return b.valid() && !b.samples.empty() && std::isfinite(b.estimates.median.value);
}

}  // namespace

std::string to_bmf_json(const RunResult& run) {
  ordered_json root = ordered_json::object();
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!reportable(b)) continue;
    const Estimate& median = b.estimates.median;
    ordered_json measures = ordered_json::object();
    measures["latency"] = {
        {"value", median.value}, {"lower_value", median.lower}, {"upper_value", median.upper}};
    if (b.items_per_iteration && median.value > 0) {
      // A rate falls as the time rises: the upper time bound gives the lower rate.
      const double items = static_cast<double>(*b.items_per_iteration) * 1e9;
      ordered_json throughput = {{"value", items / median.value}};
      if (median.upper > 0) throughput["lower_value"] = items / median.upper;
      if (median.lower > 0) throughput["upper_value"] = items / median.lower;
      measures["throughput"] = std::move(throughput);
    }
    root[b.name] = std::move(measures);
  }
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string to_github_action_json(const RunResult& run) {
  ordered_json entries = ordered_json::array();
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!reportable(b)) continue;
    const Estimate& median = b.estimates.median;
    const double half_width = std::max(median.upper - median.value, median.value - median.lower);
    entries.push_back({
        {"name", b.name},
        {"unit", "ns"},
        {"value", median.value},
        {"range", fmt::format("± {:.4g}", half_width)},
        // 95%, or the interval's own below it (75% for 3 samples), as the reports say.
        {"extra",
         fmt::format("median of {} samples, {:.3g}% CI [{:.4g}, {:.4g}] ns", b.samples.size(),
                     model::confidence_below_nominal(median).value_or(0.95) * 100.0, median.lower,
                     median.upper)},
    });
  }
  return entries.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace benchkit::formats
