// Comparing a run against a baseline: effect sizes, significance across the suite, verdicts.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/power_plan.hpp"
#include "benchkit/result.hpp"

namespace benchkit::analysis {

// `invalid`: a side failed its checks (a scenario's verify, a failing command): not compared.
// `skipped`: a side left it out (--skip-tag, Registration::skip_when): not compared, and neither
// a regression nor a failure.
enum class Verdict {
  regressed,
  improved,
  unchanged,
  inconclusive,
  added,
  removed,
  invalid,
  skipped
};
const char* to_string(Verdict verdict);

enum class Adjustment { holm, benjamini_hochberg, none };

// The default noise threshold of counts (--mode instructions): 0.1%. Counts under simulation
// repeat exactly, so the threshold absorbs no noise; it only says which changes matter. A change
// of up to 0.1% is `unchanged`, one of more than 0.1% `regressed` or `improved`, however small
// the excess, because the ratio has no interval (docs/instructions.md).
inline constexpr double kCountNoiseThreshold = 0.001;

struct CompareSettings {
  // ±2% noise threshold: below it a change is not worth a verdict on a shared machine.
  // Criterion's 1% gives false regressions in practice (mozilla/neqo raised it to 3%);
  // METHODS.md recommendation 11.
  double noise_threshold = 0.02;
  // The threshold of counts (benchmarks with a metric): see kCountNoiseThreshold.
  double count_noise_threshold = kCountNoiseThreshold;
  double alpha = 0.05;  // family-wise, after adjustment
  double confidence = 0.95;
  // Holm controls the chance of any false alarm in the suite, under any dependence.
  Adjustment adjustment = Adjustment::holm;
  double power = 0.8;  // for the minimum detectable change, and the rounds planned for --mde
  // --mde: the smallest change that matters (relative, e.g. 0.01); 0: none. A paired comparison
  // then plans its rounds for `power` at that change (analysis/power_plan.hpp): a benchmark
  // stops when settled or when it has them, and says whether the planned power was reached.
  double mde = 0.0;
  // Compare every sample, including those taken while the machine ran slow (machine_speed.hpp).
  // By default both sides are cut at the same machine speed: the faster level of the two runs.
  bool all_samples = false;
  // Paired rounds looked at as they came, side by side: the nominal two-sided level of a
  // comparison by its number of rounds (sequential_levels below). Empty: the rounds were taken
  // without looking, and a paired comparison is read at `confidence` and `alpha`.
  std::vector<double> sequential_alpha;
};

// How the two sides were compared, chosen from the shape of the data.
enum class Design {
  independent,  // samples of one process each: ratio of medians, Brunner–Munzel test
  processes,    // samples nested in several processes: two-level bootstrap, Welch on processes
  paired,       // interleaved rounds present on both sides: per-round ratios, signed-rank test
  // Counts (--mode instructions) that repeat exactly within each side: the ratio is exact, no
  // test or interval is needed; the verdict is the ratio against the noise threshold.
  exact,
};
const char* to_string(Design design);

struct BenchmarkComparison {
  std::string name;
  Verdict verdict = Verdict::inconclusive;
  Design design = Design::independent;
  double baseline_median = 0.0;   // ns per iteration (or the metric's unit)
  double candidate_median = 0.0;  // ns per iteration (or the metric's unit)
  // What the medians measure: empty for time, "instructions" for counts (BenchmarkResult::metric).
  std::string metric;
  double ratio = 1.0;  // candidate / baseline time: above 1 is slower
  double ratio_lower = 1.0;
  double ratio_upper = 1.0;
  double p_value = 1.0;
  double p_adjusted = 1.0;
  std::size_t pairs = 0;  // paired design: the rounds present on both sides
  // Paired rounds under a sequential rule (CompareSettings::sequential_alpha): the nominal
  // two-sided level this look was read at (the interval is at 1 - level), and whether the exact
  // signed-rank interval of `pairs` rounds reaches that level at all (with n rounds it cannot go
  // beyond 1 - 2/2^n). 0 and true otherwise. Not written to files.
  double level = 0.0;
  bool level_reached = true;
  // Paired design: each round's ratio (new / baseline), in round order; the points of a forest
  // plot. Empty for the other designs.
  std::vector<double> round_ratios;
  // The smallest slow-down this comparison could detect (relative, e.g. 0.03 = 3%); empty when
  // it cannot be computed (fewer than 2 samples a side).
  std::optional<double> minimum_detectable_change;
  // Paired, with CompareSettings::mde: the rounds that give the planned power at that change,
  // from the scatter of the rounds so far; within_cap false when more than the design's last
  // look (--max-rounds) would be needed. Empty otherwise.
  std::optional<RoundsForPower> planned_rounds;
  // Throughput change (candidate / baseline - 1) when both sides declare work per iteration.
  std::optional<double> throughput_change;
  std::string note;  // why inconclusive, and what would sharpen the answer
  // Inconclusive paired rows of a side-by-side comparison (note_settle_estimates,
  // analysis/round_budget.hpp): about how many more rounds would settle the verdict, and how much
  // more wall time those would take at the comparison's average cost of a round.
  std::optional<std::size_t> more_rounds;
  std::optional<double> more_time_ns;
  std::vector<std::string> candidate_diagnostics;
  // Samples of each side left out because the machine ran slow while they were taken.
  std::size_t baseline_slow_samples = 0;
  std::size_t candidate_slow_samples = 0;
};

struct Comparison {
  CompareSettings settings;
  // Set by the caller when the two runs were made on different machines or builds: one line
  // saying which fields differ, shown above the table.
  std::string context_warning;
  // Set when a benchmark was compared from one process a side: what varies between runs is
  // then not in its interval.
  std::string design_warning;
  // Set when samples taken while the machine ran slow were left out: how many on each side.
  std::string speed_note;
  // Set by the caller: how the baseline was measured, when not from its saved samples alone
  // (a side-by-side comparison), or why it was not.
  std::string method_note;
  std::vector<BenchmarkComparison> benchmarks;  // regressions first, then by name
  std::size_t count(Verdict verdict) const;
  bool any_regression() const { return count(Verdict::regressed) > 0; }
};

// Compares every benchmark present in both runs, and lists those in only one as added or
// removed. A benchmark skipped on either side (--skip-tag) is `skipped`, with the reason in its
// note. A benchmark whose result on either side has failures is `invalid`, with the failures
// in its note, and takes no part in the adjustment. Runs must have their estimates computed. A
// benchmark with no sample on a side is inconclusive, with a note.
Comparison compare(const RunResult& baseline, const RunResult& candidate,
                   const CompareSettings& settings = {});

// The verdict rule shared by every comparison (compare, the history gate): regressed or
// improved only when significant after adjustment (c.p_adjusted < alpha) and the whole ratio
// interval lies beyond ±noise_threshold; unchanged when it lies inside; inconclusive otherwise.
// The noise threshold that applies to `c`: settings.noise_threshold for times, and
// settings.count_noise_threshold for a counted metric (instructions, cycles).
double noise_threshold_for(const BenchmarkComparison& c, const CompareSettings& settings);
Verdict verdict_for(const BenchmarkComparison& c, const CompareSettings& settings);
// p-values adjusted across a suite by settings' method (Holm, Benjamini–Hochberg or none).
std::vector<double> adjust_p_values(const std::vector<double>& p, Adjustment adjustment);
// The order of the verdict table: regressions first, then invalid and improved, inconclusive,
// unchanged, added, removed; by name within each.
void order_for_report(std::vector<BenchmarkComparison>& benchmarks);

// Side by side, rounds are looked at as they come (session/side_by_side.hpp): every benchmark
// gets `first_look` rounds, then one round at a time while its verdict is not settled, up to
// `max_rounds`. Each look is a test, so a fixed 95% at every look would let noise through far
// more often than 5% of the time. The looks form a group-sequential design instead: Lan–DeMets
// Pocock-type spending of `alpha` over the information rounds / max_rounds, one look per round
// from `first_look` on (stats/sequential.hpp). A paired comparison of n rounds is then read at
// the nominal level of the look at n: its interval at 1 - level (a repeated confidence interval:
// all the looks' intervals cover the true change at once with probability 1 - alpha, so a
// verdict read at any look, unchanged as well as regressed, is wrong at most alpha of the time),
// and its adjusted p-value against that level. Why Pocock and not O'Brien–Fleming, and the
// simulated error rates, power and rounds: docs/verdicts.md, "Sequential looks".
//
// Element n of the result is the nominal two-sided level of a look at n rounds, for n in
// [0, max_rounds]; elements below first_look repeat the first look's level. max_rounds below
// first_look: a single look at max_rounds, at alpha. first_look 0 counts as 1.
std::vector<double> sequential_levels(std::size_t first_look, std::size_t max_rounds,
                                      double alpha = 0.05);

// The level a paired comparison of `rounds` rounds is read at under `settings`: its entry of
// settings.sequential_alpha (the last entry beyond it), or settings.alpha when that is empty.
double paired_level(const CompareSettings& settings, std::size_t rounds);

// One benchmark's paired rounds judged alone, with no suite to adjust over: the row compare()
// gives a benchmark whose round i took base_rounds[i] and candidate_rounds[i] (a round's time:
// the median of its samples, or of its sample pairs' ratios times the baseline's), without the
// minimum detectable change (left empty: it costs most of a look, and decides nothing). Sizes
// must match, at least 1 round, values > 0; else throws std::invalid_argument.
BenchmarkComparison compare_rounds(std::span<const double> base_rounds,
                                   std::span<const double> candidate_rounds,
                                   const CompareSettings& settings);

// The benchmarks of both runs whose verdict under `settings` is still inconclusive: those that
// get another round. With settings.sequential_alpha, the verdict of each look is read at that
// look's level (above).
std::vector<std::string> unsettled(const RunResult& baseline, const RunResult& candidate,
                                   const CompareSettings& settings);
// Whether a row of such a look gets another round: inconclusive, and not yet holding the
// rounds planned for --mde (CompareSettings::mde) when those fit under the design's last look.
bool wants_more_rounds(const BenchmarkComparison& c);
// Whether a row compared under --mde holds the rounds planned for it (the power asked for at
// that change): false without a plan.
bool planned_power_reached(const BenchmarkComparison& c);

}  // namespace benchkit::analysis
