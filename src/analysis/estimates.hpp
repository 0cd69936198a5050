// Turns a benchmark's raw samples into its estimates.
#pragma once

#include <optional>

#include "benchkit/result.hpp"

namespace benchkit::analysis {

// Fills `result.estimates` from `result.samples` (per-iteration times after overhead
// subtraction), leaving out the samples taken while the machine ran slow (machine_speed.hpp;
// Estimates::slow_samples counts them): median with its distribution-free 95% CI, mean with a
// normal-theory 95% CI, min, max, stddev, MAD, IQR, MdAPE, Tukey outlier counts, outlier variance,
// and throughput at the median when bytes or items per iteration are set. No samples: estimates
// stay zero.
void compute_estimates(BenchmarkResult& result);

// The share of one sample's variance (of ln time) that comes from which process took it
// (Sample::process): one-way random effects, between / (between + within), the between-process
// component estimated by the method of moments and floored at 0. Near 1: a comparison sharpens
// with more processes, not with longer ones. Empty with fewer than 2 processes, or fewer than 2
// samples in some process.
std::optional<double> between_process_share(const BenchmarkResult& result);

// Tukey's fences of the per-iteration times the estimates are computed from (the steady samples):
// mild outliers lie beyond the mild fences (1.5 IQR from the quartiles), severe ones beyond the
// severe fences (3 IQR). None with fewer than 4 such samples. For plots that mark outliers.
struct OutlierFences {
  double low_severe = 0.0;
  double low_mild = 0.0;
  double high_mild = 0.0;
  double high_severe = 0.0;
};
std::optional<OutlierFences> outlier_fences(const BenchmarkResult& result);

// Recomputes the estimates of every benchmark in the run (for files that omit them), and the
// run's complexity fits (analysis::fit_complexity).
void compute_estimates(RunResult& run);

}  // namespace benchkit::analysis
