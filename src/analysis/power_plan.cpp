#include "analysis/power_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "stats/distributions.hpp"
#include "stats/paired.hpp"
#include "stats/summary.hpp"

namespace benchkit::analysis {

namespace {

// Whether n rounds reach the power (the condition of power_plan.hpp), the signed-rank test's
// efficiency counted as fewer effective rounds.
bool enough(std::size_t n, double log_spread, double distance, double power, double level) {
  const double effective = static_cast<double>(n) * 3.0 / std::numbers::pi;
  const double df = static_cast<double>(n - 1);
  const double t_level = stats::student_t_quantile(1.0 - level / 2.0, df);
  const double t_power = stats::student_t_quantile(power, df);
  return std::sqrt(effective) * distance >= (t_level + t_power) * log_spread;
}

}  // namespace

std::optional<RoundsForPower> rounds_for_power(double log_spread, double mde, double threshold,
                                               double power,
                                               const std::function<double(std::size_t)>& level_at,
                                               std::size_t cap) {
  const double distance = std::log1p(mde) - std::log1p(threshold);
  if (!(distance > 0.0)) return std::nullopt;
  const std::size_t last = std::max<std::size_t>(cap, 2);
  for (std::size_t n = 2; n <= last; ++n) {
    if (enough(n, log_spread, distance, power, level_at(n))) return RoundsForPower{n, true};
  }
  // Beyond the cap: how far, with the cap's level (a longer design's levels are not known here).
  const double level = level_at(last);
  std::size_t n = last;
  while (!enough(n, log_spread, distance, power, level) && n < 1'000'000) n = n + n / 2 + 1;
  // n now suffices, n / 1.5 did not: step back to the smallest within that range.
  std::size_t low = n * 2 / 3;
  while (low + 1 < n) {
    const std::size_t mid = low + (n - low) / 2;
    if (enough(mid, log_spread, distance, power, level)) {
      n = mid;
    } else {
      low = mid;
    }
  }
  return RoundsForPower{n, false};
}

namespace {

std::vector<double> round_logs(std::span<const double> round_ratios) {
  std::vector<double> logs;
  logs.reserve(round_ratios.size());
  for (const double ratio : round_ratios) logs.push_back(std::log(ratio));
  return logs;
}

// The order effect π̂ of a crossover's log ratios (stats::crossover_order_effect); empty when the
// rounds were not compared by order (no flag per round) or a ratio has no finite logarithm.
std::optional<double> order_effect_of(const std::vector<double>& logs,
                                      const std::vector<bool>& baseline_first) {
  if (baseline_first.size() != logs.size() ||
      !std::all_of(logs.begin(), logs.end(), [](double x) { return std::isfinite(x); })) {
    return std::nullopt;
  }
  return stats::crossover_order_effect(logs, baseline_first);
}

// `logs` less the order effect: minus π̂ where the baseline ran first, plus it elsewhere.
void align(std::vector<double>& logs, const std::vector<bool>& baseline_first, double order) {
  for (std::size_t i = 0; i < logs.size(); ++i) logs[i] += baseline_first[i] ? -order : order;
}

}  // namespace

std::vector<double> order_aligned_logs(std::span<const double> round_ratios,
                                       const std::vector<bool>& baseline_first) {
  std::vector<double> logs = round_logs(round_ratios);
  if (const auto order = order_effect_of(logs, baseline_first)) align(logs, baseline_first, *order);
  return logs;
}

std::optional<double> typical_round_scatter(std::span<const double> round_ratios,
                                            const std::vector<bool>& baseline_first) {
  if (round_ratios.size() < 6) return std::nullopt;
  const std::vector<double> logs = order_aligned_logs(round_ratios, baseline_first);
  return std::exp(stats::mad(logs)) - 1.0;
}

std::string width_driver(std::span<const double> round_ratios,
                         const std::vector<bool>& baseline_first) {
  if (round_ratios.size() < 6) return {};
  std::vector<double> logs = round_logs(round_ratios);
  // A crossover's order effect, when it is 0.5% or more, and that the comparison cancels it.
  std::string order;
  if (const auto effect = order_effect_of(logs, baseline_first)) {
    align(logs, baseline_first, *effect);
    const double ratio = std::exp(*effect);
    if (std::abs(ratio - 1.0) >= 0.005) {
      order = fmt::format(
          "the second process of a round ran {:.1f}% {} than the first, which comparing the "
          "rounds of each order with the other's cancels; ",
          std::abs(ratio - 1.0) * 100.0, ratio < 1.0 ? "faster" : "slower");
    }
  }
  const double spread = stats::stddev(logs);
  const double typical = stats::mad(logs);
  const double centre = stats::median(logs);
  const double reach = 3.0 * std::max(typical, 1e-4);
  std::size_t far = 0;
  for (const double value : logs) far += std::abs(value - centre) > reach ? 1 : 0;
  auto percent = [](double log_spread) { return (std::exp(log_spread) - 1.0) * 100.0; };
  if (far > 0 && typical < 0.6 * spread) {
    return order + fmt::format(
                       "the interval is wide because {} of {} rounds {} far off the others (a "
                       "typical round scatters {:.1f}%, all of them {:.1f}%): in {} a process ran "
                       "in another state (where its code and memory landed, or work beside it); "
                       "more rounds outvote {}",
                       far, logs.size(), far == 1 ? "lies" : "lie", percent(typical),
                       percent(spread), far == 1 ? "that round" : "those rounds",
                       far == 1 ? "it" : "them");
  }
  return order + fmt::format(
                     "the interval is wide because every round scatters (about {:.1f}%): the two "
                     "processes of a round differ that much, which only more rounds average away",
                     percent(spread));
}

}  // namespace benchkit::analysis
