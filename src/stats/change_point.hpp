// Change points in a history series (one value per commit or per run): where did the level move?
//
// E-Divisive with means (Matteson & James 2014, α = 1; the method of MongoDB's signal processing,
// Hunter and Apache Otava) by binary segmentation with a permutation test at each step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/random.hpp"

namespace benchkit::stats {

struct ChangePointOptions {
  // Significance of each new split. 0.05 as MongoDB's library; Hunter's 0.001 is meant for its
  // weaker t-test pass over many windows.
  double alpha = 0.05;
  // 199 permutations: the smallest attainable p is 1/200 = 0.005, well below alpha, and the
  // Monte Carlo error of p near 0.05 is about 0.015 (Hunter and MongoDB use 100).
  std::size_t permutations = 199;
  // Shortest segment: 5 points, so each side of a change has a usable mean and a single outlier
  // cannot make a segment of its own (Matteson & James's ecp package defaults to 30, which is too
  // long for commit histories).
  std::size_t min_segment = 5;
  std::size_t max_change_points = 64;  // a safety bound on the loop; histories rarely have more
  std::uint64_t seed = default_seed;
};

struct ChangePoint {
  std::size_t index = 0;     // first index of the new level: values[index] is after the change
  double statistic = 0.0;    // Q̂ of the split when it was accepted
  double p_value = 1.0;      // permutation p-value, (1 + #{Q̂_perm >= Q̂}) / (1 + permutations)
  double mean_before = 0.0;  // mean of the segment before, between the neighbouring changes
  double mean_after = 0.0;   // mean of the segment after
  double relative_change = 0.0;  // mean_after / mean_before - 1 (0 when mean_before is 0)
};

// Change points of `values`, ascending by index. For a segment of κ points split at τ,
// Q̂ = τ(κ-τ)/κ · Ê with Ê = 2·mean|X-Y| - mean|X-X'| - mean|Y-Y'| (X the first τ points, Y the
// rest); the best split over all current segments is kept if its Q̂ beats the permutation
// distribution (values shuffled within each current segment, the maximum Q̂ recomputed) at alpha.
// Magnitudes are computed once all changes are known. Cost O(permutations · n²) per change.
// Fewer than 2·min_segment values or all values equal: none. NaN/inf: throws
// std::invalid_argument; min_segment of 0 or alpha outside (0, 1): throws.
std::vector<ChangePoint> e_divisive(std::span<const double> values,
                                    const ChangePointOptions& options = {});

}  // namespace benchkit::stats
