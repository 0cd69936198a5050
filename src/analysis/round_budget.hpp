// A suite budget for side-by-side rounds (issue 36, item 3; --budget, session/suite_budget.hpp):
// which unsettled benchmarks get the next round when the budget cannot give one to each, and how
// many more rounds each would need to settle.
//
// A paired comparison settles when its interval lies inside the noise band [1 - t, 1 + t]
// (unchanged) or wholly beyond it (regressed, improved). On the log scale, with centre c and
// half-width h, that needs h <= | t' - |c| |, the distance from the centre to the nearest edge of
// the band (t' = ln(1 + t) above, -ln(1 - t) below). Its remoteness is h / that distance: 1 or
// less is settled as far as the width goes; 2 needs an interval half as wide. Rounds narrow the
// interval as 1/√n, so n rounds of remoteness r would need about n r² in all: the estimate of
// more rounds, which ignores that the look's level changes a little with n and that the
// centre moves.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/compare.hpp"

namespace benchkit::analysis {

struct SettleEstimate {
  std::string name;
  // Half-width over the distance to the nearest edge of the noise band (above). Infinite when
  // the centre lies on an edge: no finite number of rounds settles it.
  double remoteness = 0.0;
  // More rounds that would settle it, from its current spread; empty when none would (centre on
  // an edge), when more than kMostRoundsEstimated would (centre all but on an edge), or when the
  // row is not a paired comparison with at least 2 rounds.
  std::optional<std::size_t> more_rounds;
};

// The most more rounds an estimate says: beyond this many (days of one benchmark at tens of
// milliseconds a round), the row is said to lie on the edge of the band.
inline constexpr std::size_t kMostRoundsEstimated = 100'000;

// The most rounds --max-rounds accepts. A row whose estimate goes past it is out of reach at its
// noise threshold on this machine: the notes say so rather than suggest a --max-rounds the
// command would refuse.
inline constexpr std::size_t kMostRoundsAllowed = 3000;

// The estimate of one row, judged against `settings`' noise threshold for it. A row that is not
// paired, or has fewer than 2 rounds: remoteness infinite, no estimate.
SettleEstimate settle_estimate(const BenchmarkComparison& row, const CompareSettings& settings);

// A look stops an undecided benchmark early when even a favourable reading of its interval puts
// a verdict beyond the most rounds it may have, `max_rounds` (futility, non-binding): the rounds
// an inconclusive paired row would need, estimated as for settle_estimate (n r² in all) but from
// the change within half a half-width of its centre that lies farthest from an edge of the noise
// band, exceed max_rounds. The centre of a few rounds moves from look to look, and an unchanged
// benchmark whose first rounds put it on an edge by chance would otherwise stop; a change that
// really lies on an edge (r = 2 at that distance) stops once 4 n > max_rounds, after a quarter of
// them. No row stops before a quarter of max_rounds: the
// width of a few rounds is itself uncertain. Stopping gives no verdict, so no false alarm, and
// every look's interval holds at its level whatever stopped the looks (docs/verdicts.md,
// "Stopping what more rounds would not settle"). max_rounds 0 (no sequential design): no rule.
bool beyond_reach(const BenchmarkComparison& row, const CompareSettings& settings,
                  std::size_t max_rounds);

// The most rounds of the sequential design in `settings` (sequential_alpha holds one level per
// look, from round 0): 0 when it has none.
std::size_t design_max_rounds(const CompareSettings& settings);

// The inconclusive rows of `rows` that get the next round when the budget affords `slots`
// benchmark-rounds: the furthest from settled first (largest remoteness; ties by name), at most
// `slots` of them. Settled rows (any verdict but inconclusive) get none.
std::vector<std::string> allocate_next_round(std::span<const BenchmarkComparison> rows,
                                             const CompareSettings& settings, std::size_t slots);

// Every inconclusive paired row of `comparison` (judged with comparison.settings) gets its
// estimate: more_rounds, more_time_ns (more_rounds times `round_cost_ns`, one benchmark's round,
// when given) and a sentence at the end of its note saying both, or that no practical number of
// rounds would settle it (its centre on an edge of the noise band), and, for a row that stopped
// before the design's last round because of beyond_reach, that it stopped there (unless
// `interrupted`: Ctrl-C stopped the rounds, whatever the rows needed). Other rows are left alone.
void note_settle_estimates(Comparison& comparison, std::optional<double> round_cost_ns,
                           bool interrupted = false);

// "30 s", "2.5 min", "3 h", "27 days", "250 ms", "40 µs": a duration as the notes say it.
std::string describe_duration(double ns);

}  // namespace benchkit::analysis
