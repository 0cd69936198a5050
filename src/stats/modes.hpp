// Several performance states in one sample (two code paths, two frequencies, a cache that
// sometimes hits): counted from a kernel density estimate, and a moment-based bimodality check.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchkit::stats {

struct ModeOptions {
  // Estimate on ln(values): performance modes are multiplicative (one path 2.5% slower), and
  // the log makes right-skewed times nearly symmetric, which removes most spurious tail bumps:
  // at n = 100, lognormal(0, 0.5) samples showed a false second mode 0.7% of the time on the log
  // scale against about 11% on the raw scale (docs/statistics.md). Needs values > 0.
  bool log_scale = true;
  // 0: Silverman's rule of thumb h = 0.9 · min(s, IQR/1.34) · n^(-1/5) (Silverman 1986, eq.
  // 3.31), near optimal for a normal density and known to oversmooth several modes, which errs
  // on the side of reporting one. Otherwise the bandwidth itself (in log units if log_scale).
  double bandwidth = 0.0;
  // Grid of the density: 512 points, as R's density(); modes are located to 1/511 of the range.
  std::size_t grid_points = 512;
  // A peak counts only if it is at least 10% as high as the highest (smaller bumps are tail
  // noise at the sample sizes of a benchmark) ...
  double min_relative_height = 0.1;
  // ... and the density dips by at least 20% of the lower peak between it and its neighbour
  // (else the two are one mode with a shoulder). Both chosen by simulation: with them, at
  // n = 100 a normal sample shows a false second mode 2% of the time, a Pareto(3) one 10%, and
  // at n = 1,000 both under 0.2% (docs/statistics.md; below n = 100 treat a count as a hint).
  double min_dip = 0.2;
};

struct ModeResult {
  std::size_t count = 0;
  std::vector<double> locations;  // in the units of the values, ascending
  std::vector<double> heights;    // density at each mode, relative to the highest (0..1]
  double bandwidth = 0.0;         // the one used (log units if log_scale)
};

// Modes of a Gaussian kernel density estimate computed by linear binning onto the grid
// (Wand 1994), O(n + grid²). Empty: throws. One value or all values equal: one mode there.
// NaN/inf, or a value <= 0 with log_scale: throws std::invalid_argument.
ModeResult kde_modes(std::span<const double> values, const ModeOptions& options = {});

// Sarle's bimodality coefficient b = (g² + 1)/(κ + 3(n-1)²/((n-2)(n-3))) with the sample
// skewness g and excess kurtosis κ (both bias-corrected, as SAS). b > 5/9 (the value of a
// uniform distribution) hints at bimodality; it is also high for very skewed unimodal data, so
// it complements kde_modes rather than replacing it. Fewer than 4 values or zero spread: 0.
double bimodality_coefficient(std::span<const double> values);

}  // namespace benchkit::stats

namespace benchkit::stats {

// Performance states across processes: a benchmark whose fresh processes land in two or more
// steady states (where the heap or the code landed, which CPU of a VM), each process staying in
// one. One value per process (its median), so a state is a group of processes, and the test
// asks whether splitting the sorted log values in two leaves groups further apart than noise
// would put them.
struct ProcessState {
  double low = 0.0;  // the lowest and highest process value in the state
  double high = 0.0;
  double centre = 0.0;  // the median of its processes' values
  std::size_t processes = 0;
};

struct ProcessStateOptions {
  // Fewer processes than this: one state, untested (with 5 the critical value is 14 standard
  // deviations and a single stray process decides).
  std::size_t min_processes = 6;
  // The smaller state must hold at least this share of the processes, and at least this many.
  double min_share = 0.1;
  std::size_t min_state_processes = 1;
  // States closer than this (ratio of their centres minus 1) count as one. Process medians of
  // a steady benchmark here differ by 0.3-0.6%, so states 1.5% apart are real and were found
  // (x += x under load: 0.272, 0.276 and 0.281 ns), but flagging them would flag most
  // benchmarks; 2% is where a process's state moves a median by more than a comparison's
  // usual threshold.
  double min_separation = 0.02;
  // At most this many states are looked for (2 to 4).
  std::size_t max_states = 4;
};

// The states of `values` (one per process, > 0), ascending. For k = max_states down to 2, the
// sorted ln values are partitioned into k contiguous groups with the smallest within-group sum
// of squares (one-dimensional k-means, exact), each group at least min_share of the values; the
// first k whose neighbouring groups' means are all at least d pooled within-group standard
// deviations apart (n - k degrees of freedom) and whose medians differ by min_separation wins.
// d is the 99th percentile of that distance for n normal values with k = 2, the 99.5th with
// k = 3 and 4 (seeded simulation; 6.3 at n = 10, 4.5 at 20, 3.3 at 90 for two states), so one
// normal state is split in about 1-2% of sets whatever its spread: the distance does not depend
// on the scale (docs/noise.md, "Performance states across processes", has the rates).
// Fewer than min_processes values: one state. NaN/inf or a value <= 0: std::invalid_argument.
std::vector<ProcessState> process_states(std::span<const double> values,
                                         const ProcessStateOptions& options = {});

// The critical distance above for n values (n >= 5) and 2, 3 or 4 states.
double process_split_critical_value(std::size_t n, std::size_t states = 2);

}  // namespace benchkit::stats
