// Samples nested in processes: when a benchmark ran in several fresh processes, each process
// draws its own memory layout, frequency and cache luck, so samples of one process are not
// independent of each other. The process is the unit of variation: an interval from samples alone
// would be far too narrow (pseudo-replication).
//
// A "process" is a non-empty vector of its samples (times, > 0). NaN/inf: std::invalid_argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/intervals.hpp"
#include "stats/random.hpp"

namespace benchkit::stats {

struct HierarchicalOptions {
  std::size_t resamples = 10'000;  // as BootstrapOptions, same reason
  double confidence = 0.95;
  std::uint64_t seed = default_seed;
  // Two-level bootstrap (Davison & Hinkley 1997, §3.8): draw processes with replacement, then the
  // samples of each drawn process with replacement. Resampling the second level too counts the
  // within-process noise twice (it is already in the spread of the process medians), which makes
  // the interval a little conservative; set false to resample processes only (exact in the limit
  // of many processes, too narrow with few).
  bool resample_within = true;
};

// The typical time: the mean over processes of each process's median (every process weighs the
// same, whatever its sample count), with a two-level bootstrap percentile interval.
// No process or an empty process: throws. One process: its median, with an interval from the
// within-process level only and confidence 0 (between-process variation unknown).
struct HierarchicalEstimate {
  double estimate = 0.0;
  Interval interval;
  std::size_t processes = 0;
};
HierarchicalEstimate hierarchical_median(std::span<const std::vector<double>> processes,
                                         const HierarchicalOptions& options = {});

// Baseline against candidate, each a set of processes. ratio = estimate(candidate) /
// estimate(baseline) as above, interval: percentile interval of the ratio of independent
// two-level bootstrap replicates of the two sides. Test: Welch's t on the log process medians
// (one observation per process), so the p-value counts processes, not samples.
// Fewer than 2 processes on a side: p_value = 1 and process_level = false (no between-process
// spread to test against), and the interval has confidence 0.
struct HierarchicalComparison {
  double ratio = 1.0;
  Interval interval;
  double p_value = 1.0;
  double t = 0.0;
  double degrees_of_freedom = 0.0;
  bool process_level = false;
};
HierarchicalComparison hierarchical_compare(std::span<const std::vector<double>> baseline,
                                            std::span<const std::vector<double>> candidate,
                                            const HierarchicalOptions& options = {});

}  // namespace benchkit::stats
