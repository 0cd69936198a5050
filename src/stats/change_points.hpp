// Change points in a history: one point per run (per commit), each the run's estimate with its
// confidence interval. Where did the level of a benchmark move, from what to what?
//
// The method (docs/change-points.md has the reasons and the measured precision and recall):
//  1. Work on log values (a slow-down is a ratio); each point's standard error is read from its
//     interval, and the spread between runs that the intervals do not see (memory layout, the
//     machine's state) is estimated from successive differences (their trimmed root mean
//     square). Each point's variance
//     is the sum of the two, as in a random-effects meta-analysis: a run with a narrow interval
//     still varies from run to run.
//  2. Points far from a running median (beyond `clip` standard deviations) are pulled in to that
//     distance, so that a few disturbed runs in a row cannot make a level of their own.
//  3. Candidate change points: the optimal partition into constant levels (weighted least
//     squares, exact dynamic programming) with a penalty per change that a split of step-free
//     noise beats only with probability `candidate_p_value`.
//  4. Each candidate is tested against its neighbouring levels (a weighted two-sample test whose
//     variance is never taken below what the points scatter, adjusted for the choice of its
//     place); the weakest candidate above `max_p_value` is dropped and its neighbours are tested
//     again, until every remaining change passes (Hunter's and Otava's merge step).
// Pure math: no I/O.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchkit::stats {

// One run's estimate of one benchmark: its median (ns per iteration, or any metric) and 95% CI.
struct IntervalPoint {
  double value = 0;
  double lower = 0;
  double upper = 0;
};

struct ChangePoint {
  std::size_t index = 0;  // first point of the new level
  double before = 0;      // level (median of the points) before, and after
  double after = 0;
  double p_value = 1;  // of the test that accepted it
};

struct ChangePointSettings {
  // A change is kept when its test's p-value, adjusted for the choice of its place, is at most
  // this. 0.001 is Apache Otava's default: a history is read again at every commit, so each
  // false alarm is paid for many times; 100 step-free series of 200 real-noise points gave none
  // (docs/change-points.md).
  double max_p_value = 0.001;
  // The first pass keeps splits that step-free noise would produce with this probability per
  // series; the merge step then applies max_p_value. Ten times the final level, as Otava's
  // "weak" change points: a loose first pass lets two nearby changes both be found before
  // either is judged.
  double candidate_p_value = 0.01;
  // A level must hold for this many runs to be a change point; fewer disturbed runs in a row
  // are not a level, however far off they are. The running median that points are clipped to
  // spans 4·min_segment - 3 runs, so it ignores min_segment - 1 disturbed runs in a row and
  // follows every level lasting 2·min_segment - 1 runs or more; a shorter level inside the
  // history is pulled in like disturbed runs. At the end of the history the running median is
  // cut short, so a new level is named once it has lasted min_segment runs (a 5% step in 1%
  // noise: found after 4 runs in 50 of 50 trials, after 3 in 11). 4: until then the CI gate
  // (analysis/history_check.hpp) judges each new run against the old level.
  std::size_t min_segment = 4;
  // Distance from the running median, in standard deviations of the point, beyond which a point
  // is pulled in. 2: min_segment runs pulled in to 2σ (a t of 2·√4 = 4, plus the running median's
  // own offset) stay below the merge step's threshold (about 4.9 for 200 runs at 0.001), so
  // three disturbed runs and one high normal one do not make a level; clipping Gaussian noise at
  // 2σ costs little (it touches 5% of the points, and the test's variance is never taken below
  // the model's).
  double clip = 2.0;
  // Coverage of the points' intervals (benchkit reports 95% intervals of the median).
  double interval_confidence = 0.95;
  // Changes smaller than this (relative, 0.02 = 2%) are dropped in the merge step, smallest
  // first. 0 as Otava's default: significance alone decides, and the caller judges the size.
  double min_relative_change = 0.0;
};

// Change points of `series` (oldest first), ascending by index. Values must be finite; when every
// value is positive and no interval bound negative the analysis is on log values (relative
// changes), otherwise on the values themselves. A point whose interval is missing or degenerate
// (lower ≥ upper, or not positive on the log scale) gets the median standard error of the others.
// Fewer than 2·min_segment points, or no variation at all: none. NaN/inf anywhere, min_segment
// 0, p-values outside (0, 1), clip ≤ 0 or interval_confidence outside (0, 1): throws
// std::invalid_argument. The partition of step 3 is searched with the starts that can no longer
// win dropped (detail::PartitionSearch::pruned): the same answer as trying them all, bit for bit,
// in O(n²) time at worst and far less on real series (docs/change-points.md, "The search");
// O(n) in memory.
std::vector<ChangePoint> detect_change_points(std::span<const IntervalPoint> series,
                                              const ChangePointSettings& settings = {});

namespace detail {

// How step 3's optimal partition is searched: every start for every end (the O(n²) dynamic
// programme, kept as the reference), or with the starts that can never again be the best one
// dropped (the default). Both give the same partition, bit for bit
// (tests/stats/change_points_test.cpp).
enum class PartitionSearch { exhaustive, pruned };

// The minimum of Σ segment cost + `penalty` per change over the partitions of `x` into segments
// of at least `min_segment` points, the cost of a segment Σ (xᵢ - x̄)² / varianceᵢ around its
// weighted mean x̄: the first points of the segments after the first, ascending. Variances must
// be positive and finite. Fewer than min_segment points: none. `totals`, when given, is set to the
// number of (start, end) totals computed: n²/2 for the exhaustive search, what pruning saves.
std::vector<std::size_t> optimal_partition(std::span<const double> x,
                                           std::span<const double> variance,
                                           std::size_t min_segment, double penalty,
                                           PartitionSearch search, std::size_t* totals = nullptr);

// detect_change_points with the partition searched as `search` says.
std::vector<ChangePoint> detect_change_points(std::span<const IntervalPoint> series,
                                              const ChangePointSettings& settings,
                                              PartitionSearch search);

// `values`, none negative, NaN or -0.0, sorted ascending: the array std::sort makes, by a radix
// sort of their bits from 64 values on (the differences detect_change_points sorts).
void sort_not_negative(std::vector<double>& values);

}  // namespace detail

}  // namespace benchkit::stats
