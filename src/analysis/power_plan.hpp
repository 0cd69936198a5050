// Planning the power of a paired side-by-side comparison (--mde, --power; issue 36 item 4): how
// many rounds a benchmark needs for a change that matters to be called a change.
//
// A paired comparison calls a slow-down of the true size δ = ln(1 + mde) "regressed" when the
// lower end of its interval on the round log-ratios lies beyond the noise band, ln(1 + t). With
// n rounds whose log-ratios scatter with standard deviation s, that lower end sits about
// t_(n-1, 1-level/2) · s/√n below the estimate; the estimate falls short of δ by more than
// t_(n-1, power) · s/√n with probability 1 - power. So n rounds give the power asked for when
//
//     √n ≥ (t_(n-1, 1-level/2) + t_(n-1, power)) · s / (δ - ln(1 + t)),
//
// solved for the smallest n by stepping n up (the quantiles shrink as n grows). The interval
// is the Hodges–Lehmann one of the signed-rank test, whose efficiency against the t-test is 3/π
// at the normal (Hodges & Lehmann 1956): n is divided by it. `level` is the two-sided level the
// look at n rounds is read at (a sequential design's, CompareSettings::sequential_alpha). The
// scatter comes from the rounds so far — the pilot — and the plan is made again at every look
// as the estimate of s settles. A speed-up of the same size is found with the same power.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "model/comparison.hpp"

namespace benchkit::analysis {

using model::RoundsForPower;  // the rounds, and whether they fit under the cap

// The rounds a paired comparison needs for power `power` at a change of `mde` (relative, e.g.
// 0.01) beyond the noise threshold `threshold`, given the standard deviation `log_spread` of its
// round log-ratios, the two-sided level `level_at(n)` of a look at n rounds, and a cap. Empty
// when no number of rounds can do it: mde not above the threshold. At least 2 rounds; a spread
// of 0 needs 2.
std::optional<RoundsForPower> rounds_for_power(double log_spread, double mde, double threshold,
                                               double power,
                                               const std::function<double(std::size_t)>& level_at,
                                               std::size_t cap);

// The log-ratios of paired rounds, less the order effect where the rounds were compared as an
// AB/BA crossover (baseline_first not empty, one flag per round): each round's log ratio minus
// ±π̂ (plus where the candidate ran first), π̂ the order effect of stats::crossover_ratio, so
// that their scatter is what the crossover's interval is made of. Plain log ratios otherwise.
std::vector<double> order_aligned_logs(std::span<const double> round_ratios,
                                       const std::vector<bool>& baseline_first);

// How much a typical round of a paired comparison scatters, as a relative change (0.03 = 3%):
// the robust spread (1.4826 x MAD) of order_aligned_logs, the "typical round" of width_driver.
// Empty below 6 rounds.
std::optional<double> typical_round_scatter(std::span<const double> round_ratios,
                                            const std::vector<bool>& baseline_first = {});

// What makes a paired comparison's interval as wide as it is, in words for its note: a few
// rounds far off the others (more than 3 robust spreads from the median; their processes ran in
// another state), which a longer turn would not fix but more rounds outvote, or the scatter of
// every round (the two processes of a round differ that much). For a crossover
// (baseline_first not empty) the scatter is that of order_aligned_logs, and the sentence first
// says how much faster or slower a round's second process ran, which the comparison cancels.
// Empty below 6 rounds.
std::string width_driver(std::span<const double> round_ratios,
                         const std::vector<bool>& baseline_first = {});

}  // namespace benchkit::analysis
