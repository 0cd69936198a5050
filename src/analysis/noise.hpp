// A/A noise: how far the same executable's results move between fresh processes on this machine,
// and which noise threshold and process count keep a comparison's false alarms at most 1%.
//
// Input: a run whose samples carry `process` indices (a bench binary's `--processes N --out f`,
// or a command run where every run is its own process). For each benchmark the process medians
// (time per iteration) are the observations; everything below is computed from them.
//
// The threshold for k processes a side (docs/noise.md has the argument in full): a verdict
// `regressed` needs the whole ratio interval above 1 + t, so it needs the ratio itself above
// 1 + t; `improved` needs it below 1 - t. With d = ln(ratio), both are ruled out when |d| <= q
// and t = exp(q) - 1 (since 1 - t <= exp(-q)). So the false-alarm rate is at most P(|d| > q),
// and t is taken from the 99th percentile q of |d| under no change. Two estimates of q:
//   - from splits: the N processes split into two disjoint groups of k (every split when there
//     are few, else seeded random ones), d = ln of the ratio of the groups' means of process
//     medians (the ratio `compare` reports); q = 99th percentile of |d|. Sees heavy tails and
//     several modes, but from N processes it cannot see beyond what they showed.
//   - from spread: with s the standard deviation of the N log process medians, a fresh A/A
//     difference d has variance 2σ²/k and d / (s·√(2/k)) is Student t with N - 1 degrees of
//     freedom (d is independent of s; a prediction interval), so q = t(0.995, N-1)·s·√(2/k)
//     gives exactly 1% under normality, whatever N (the t quantile is the small-sample
//     correction: 3.25 for N = 10 against z = 2.58).
// The threshold is the larger of the two. It is conservative: a verdict also needs the test to
// be significant and the whole interval (not only the point) beyond t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "stats/modes.hpp"
#include "stats/random.hpp"

namespace benchkit::analysis {

struct NoiseSettings {
  // At most this share of A/A comparisons of one benchmark may give `regressed` or `improved`.
  double false_alarm_rate = 0.01;
  // The recommendation is the smallest process count whose threshold is within this; 2% is the
  // default --noise-threshold of a comparison (CompareSettings).
  double target_threshold = 0.02;
  // When no process count reaches the target: the threshold at this many processes a side, the
  // bench binary's default when it saves or checks a baseline.
  std::size_t fallback_processes = 3;
  // Splits for the empirical estimate: all of them when there are at most this many, else this
  // many random ones. 5,000 puts the Monte Carlo error of a 99th percentile at about 0.14 points
  // of level (√(0.01·0.99/5000)), small next to the spread of the estimate itself.
  std::size_t max_splits = 5000;
  std::uint64_t seed = stats::default_seed;
};

// The threshold for one process count.
struct SideThreshold {
  std::size_t processes = 0;  // k: processes on each side of the comparison
  // From splits of the N processes into two groups of k; empty when 2k > N.
  std::optional<double> from_splits;
  std::size_t splits = 0;    // how many splits it used
  bool all_splits = false;   // every split (else seeded random ones)
  double from_spread = 0.0;  // from the spread of the log process medians (Student t)
  double threshold = 0.0;    // the larger of the two: what a comparison should use
};

struct NoiseRecommendation {
  std::size_t processes = 0;   // per side, for --processes
  double threshold = 0.0;      // for --noise-threshold, rounded up to a tenth of a percent
  bool within_target = false;  // false: no candidate count reached the target; fallback used
  std::string set_by;  // suite recommendation: the benchmark that needs the highest threshold
  // Suite recommendation with several benchmarks: the threshold at the same process count
  // without the benchmark that sets it (how much one noisy benchmark costs the suite).
  std::optional<double> threshold_without_noisiest;
};

struct BenchmarkNoise {
  std::string name;
  std::vector<double> process_medians;  // ns per iteration, by process index
  double median = 0.0;                  // median of the process medians
  double spread = 0.0;                  // slowest / fastest process median - 1
  double cv = 0.0;      // between-process coefficient of variation: sd / mean of process medians
  double log_sd = 0.0;  // standard deviation of the log process medians (σ above)
  // The share of one sample's variance (of ln time) that comes from which process took it:
  // one-way random effects, between / (between + within), the between-process component
  // estimated by the method of moments and floored at 0. Near 1: a comparison sharpens with
  // more processes, not with longer ones. Empty with fewer than 2 samples in some process.
  std::optional<double> between_share;
  // The states the process medians fell into (stats::process_states): empty or one when they
  // did not fall into several.
  std::vector<stats::ProcessState> states;
  // For k = 1, 2, 3, 5 and, when 2k <= N, 10, 15, 20, 25, 30: empty when not analysed.
  std::vector<SideThreshold> thresholds;
  std::optional<NoiseRecommendation> recommendation;
  std::string note;  // why the benchmark was not analysed (failures, a single process)

  bool analysed() const { return !thresholds.empty(); }
  // The threshold for k processes a side, or nullptr when not computed.
  const SideThreshold* at(std::size_t processes) const;
};

struct NoiseAnalysis {
  NoiseSettings settings;
  std::size_t processes = 0;               // the most processes any benchmark ran in
  std::vector<BenchmarkNoise> benchmarks;  // in the run's order
  // One --processes and --noise-threshold for the whole suite: the smallest candidate k at which
  // every analysed benchmark's threshold is within the target, else the fallback count with the
  // largest threshold there. Empty when no benchmark could be analysed.
  std::optional<NoiseRecommendation> recommendation;
};

// Rounds a threshold up to a tenth of a percent (0.0231 -> 0.024), so that the value printed and
// passed to --noise-threshold never undercuts the one computed.
double round_threshold_up(double threshold);

// Analyses every benchmark of `run`. A benchmark with failures, or with samples from fewer than 2
// processes, is listed with a note and no thresholds. Pure and seeded: the same run and settings
// give the same result.
NoiseAnalysis analyse_noise(const RunResult& run, const NoiseSettings& settings = {});

}  // namespace benchkit::analysis
