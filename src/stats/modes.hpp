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
