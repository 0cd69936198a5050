#include "analysis/round_budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace benchkit::analysis {
namespace {

// A paired row's interval on the log scale.
struct LogInterval {
  double centre = 0.0;
  double half_width = 0.0;
};

// The interval of a paired row of 2 rounds or more whose bounds are positive; none otherwise.
std::optional<LogInterval> log_interval(const BenchmarkComparison& row) {
  if (row.design != Design::paired || row.pairs < 2 || !(row.ratio > 0.0) ||
      !(row.ratio_lower > 0.0) || !(row.ratio_upper > 0.0)) {
    return std::nullopt;
  }
  return LogInterval{std::log(row.ratio),
                     0.5 * (std::log(row.ratio_upper) - std::log(row.ratio_lower))};
}

// How far a change `x` (log scale) lies from the edge of the ±threshold band on its side.
double distance_to_edge(double x, double threshold) {
  const double edge = x >= 0.0 ? std::log1p(threshold) : -std::log1p(-threshold);
  return std::abs(edge - std::abs(x));
}

// Why an estimate is large when the centre, not the width, makes it so: a change near an edge of
// the band needs an interval narrower than its distance to that edge, and the estimate holds the
// centre where it is. With no change the width alone would settle it far sooner, which an A/A
// comparison's row shows (nlohmann/json's Dump/canada, -1.9% after 31 rounds, asked for 30766
// more, 91 min; about 44 would do with no change). Empty when the centre is not what makes it
// large.
std::string near_edge_clause(const BenchmarkComparison& row, const CompareSettings& settings,
                             std::size_t more_rounds) {
  const std::optional<LogInterval> interval = log_interval(row);
  if (!interval) return {};
  const double threshold = noise_threshold_for(row, settings);
  const double remoteness = interval->half_width / std::log1p(threshold);
  const auto rounds = static_cast<double>(row.pairs);
  const double more = std::max(std::ceil(rounds * remoteness * remoteness) - rounds, 1.0);
  if (!(4.0 * more < static_cast<double>(more_rounds))) return {};
  return fmt::format(
      ", as long as its change stays at {:+.1f}%, near the edge of the ±{:g}% noise threshold; "
      "were there no change, about {:.0f} more would",
      100.0 * (row.ratio - 1.0), 100.0 * threshold, more);
}

}  // namespace

SettleEstimate settle_estimate(const BenchmarkComparison& row, const CompareSettings& settings) {
  SettleEstimate estimate;
  estimate.name = row.name;
  estimate.remoteness = std::numeric_limits<double>::infinity();
  const std::optional<LogInterval> interval = log_interval(row);
  if (!interval) return estimate;
  const double distance = distance_to_edge(interval->centre, noise_threshold_for(row, settings));
  // On the edge, up to rounding (ln 1.02 and log1p(0.02) differ in the last bits).
  if (distance <= 1e-12) return estimate;
  estimate.remoteness = interval->half_width / distance;
  const auto rounds = static_cast<double>(row.pairs);
  const double needed = std::ceil(rounds * estimate.remoteness * estimate.remoteness);
  // A centre a hair's breadth from an edge asks for billions of rounds (an A/A comparison at
  // ±0.1% once said "about 2259031019 more rounds", 3,460 days): past kMostRoundsEstimated the
  // row is said to be on the edge, as one exactly on it is, and no number is converted that
  // a count cannot hold.
  if (!(needed - rounds <= static_cast<double>(kMostRoundsEstimated))) return estimate;
  // An unsettled row needs at least one more round, whatever its width says (the level or the
  // adjusted p-value may be what is missing).
  const double more = std::max(needed - rounds, row.verdict == Verdict::inconclusive ? 1.0 : 0.0);
  estimate.more_rounds = static_cast<std::size_t>(more);
  return estimate;
}

bool beyond_reach(const BenchmarkComparison& row, const CompareSettings& settings,
                  std::size_t max_rounds) {
  if (max_rounds == 0 || !wants_more_rounds(row) || 4 * row.pairs < max_rounds ||
      row.pairs >= max_rounds) {
    return false;
  }
  const std::optional<LogInterval> interval = log_interval(row);
  if (!interval) return false;
  const double threshold = noise_threshold_for(row, settings);
  // The most favourable change within half a half-width of the centre: the farthest from an
  // edge (an end of that span, or no change at all when the span holds it).
  const double low = interval->centre - 0.5 * interval->half_width;
  const double high = interval->centre + 0.5 * interval->half_width;
  double farthest = std::max(distance_to_edge(low, threshold), distance_to_edge(high, threshold));
  if (low <= 0.0 && high >= 0.0) farthest = std::max(farthest, distance_to_edge(0.0, threshold));
  if (!(farthest > 0.0)) return true;
  const double remoteness = interval->half_width / farthest;
  return static_cast<double>(row.pairs) * remoteness * remoteness > static_cast<double>(max_rounds);
}

std::size_t design_max_rounds(const CompareSettings& settings) {
  return settings.sequential_alpha.empty() ? 0 : settings.sequential_alpha.size() - 1;
}

std::vector<std::string> allocate_next_round(std::span<const BenchmarkComparison> rows,
                                             const CompareSettings& settings, std::size_t slots) {
  std::vector<SettleEstimate> open;
  for (const BenchmarkComparison& row : rows) {
    if (wants_more_rounds(row)) open.push_back(settle_estimate(row, settings));
  }
  std::sort(open.begin(), open.end(), [](const SettleEstimate& a, const SettleEstimate& b) {
    if (a.remoteness != b.remoteness) return a.remoteness > b.remoteness;
    return a.name < b.name;
  });
  std::vector<std::string> chosen;
  for (std::size_t i = 0; i < open.size() && i < slots; ++i) chosen.push_back(open[i].name);
  return chosen;
}

void note_settle_estimates(Comparison& comparison, std::optional<double> round_cost_ns,
                           bool interrupted) {
  for (BenchmarkComparison& row : comparison.benchmarks) {
    // A row with the rounds planned for --mde needs none: its note says the power was reached.
    if (!wants_more_rounds(row) || row.design != Design::paired || row.pairs < 2) continue;
    const SettleEstimate estimate = settle_estimate(row, comparison.settings);
    std::string sentence;
    if (!estimate.more_rounds) {
      sentence = fmt::format(
          "no practical number of rounds would settle it: its change lies on the edge of the "
          "±{:g}% noise threshold",
          100.0 * noise_threshold_for(row, comparison.settings));
    } else {
      row.more_rounds = estimate.more_rounds;
      sentence = fmt::format("about {} more round{} would settle it", *estimate.more_rounds,
                             *estimate.more_rounds == 1 ? "" : "s");
      if (round_cost_ns && *round_cost_ns > 0.0) {
        row.more_time_ns = static_cast<double>(*estimate.more_rounds) * *round_cost_ns;
        sentence +=
            fmt::format(" (about {} more, at {} a round)", describe_duration(*row.more_time_ns),
                        describe_duration(*round_cost_ns));
      }
      // More than --max-rounds accepts: not a --max-rounds to try. Near an edge, where the
      // change is what makes the estimate large, the clause after says so; else the width is,
      // and the threshold is out of this machine's reach.
      const bool beyond_allowed = row.pairs + *estimate.more_rounds > kMostRoundsAllowed;
      if (beyond_allowed) {
        sentence += fmt::format(", more than --max-rounds can be set to ({})", kMostRoundsAllowed);
      }
      const std::string near_edge =
          near_edge_clause(row, comparison.settings, *estimate.more_rounds);
      sentence += near_edge;
      if (beyond_allowed && near_edge.empty()) {
        sentence += fmt::format(
            ": on this machine ±{:g}% is out of its reach; a wider --noise-threshold, or a "
            "quieter machine, would settle it",
            100.0 * noise_threshold_for(row, comparison.settings));
      }
    }
    const std::size_t most = design_max_rounds(comparison.settings);
    if (!interrupted && beyond_reach(row, comparison.settings, most)) {
      sentence +=
          fmt::format("; it stopped at {} of up to {} rounds, since what it needs is beyond them",
                      row.pairs, most);
    }
    row.note = row.note.empty() ? sentence : row.note + "; " + sentence;
  }
}

std::string describe_duration(double ns) {
  const double seconds = ns / 1e9;
  if (seconds >= 2.0 * 86400.0) return fmt::format("{:.3g} days", seconds / 86400.0);
  if (seconds >= 2.0 * 3600.0) return fmt::format("{:.3g} h", seconds / 3600.0);
  if (seconds >= 120.0) return fmt::format("{:.3g} min", seconds / 60.0);
  if (seconds >= 1.0) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} µs", seconds * 1e6);
}

}  // namespace benchkit::analysis
