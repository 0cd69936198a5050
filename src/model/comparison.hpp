// The values of a comparison (a baseline against a new run): settings, one row per benchmark,
// the suite's verdicts and notes. analysis/compare.hpp makes them, formats/comparison_json.hpp
// writes and reads them, report/ renders them; kept here, below all three.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::model {

// Paired rounds planned for the power asked for (analysis/power_plan.hpp).
struct RoundsForPower {
  std::size_t rounds = 0;  // the smallest n meeting the condition of power_plan.hpp
  // Whether n is within the cap given; when not, `rounds` is the number beyond it that would
  // do, each look read at the cap's level.
  bool within_cap = false;
};

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

// Paired rounds in both orders (Sample::turn) are read as an AB/BA crossover when their two
// orders' log ratios differ at this p-value (Mann–Whitney, stats::CrossoverComparison::
// order_p_value), else as plain pairs. Where the order changes nothing, the crossover's fewer
// averages at the first looks cost rounds (json's A/A comparisons: 340-383 rounds against
// 302-305); the test keeps it to where it matters. Each look's interval stays at its level
// either way (bench/verdicts/crossover_rounds, docs/verdicts.md "Rounds in both orders").
inline constexpr double kOrderEvidence = 0.05;

struct CompareSettings {
  // ±2% noise threshold: below it a change is not worth a verdict on a shared machine.
  // Criterion's 1% gives false regressions in practice (mozilla/neqo raised it to 3%);
  // METHODS.md recommendation 11.
  double noise_threshold = 0.02;
  // The threshold of counts (benchmarks with a metric): see kCountNoiseThreshold.
  double count_noise_threshold = kCountNoiseThreshold;
  // See kOrderEvidence; above 1, rounds in both orders are always read as a crossover (the
  // simulation's comparison). Not written to files.
  double order_evidence = kOrderEvidence;
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
  // The looks of a shard of a split suite (--shard K/N): how many benchmarks the whole selection
  // has, all shards together. The suite's adjustment then counts that many (the benchmarks of
  // other shards as p = 1), so that a shard stops its rounds only when its verdicts would stand
  // in the merge of every shard (analysis::judge_suite). 0: the comparison's own rows. Not
  // written to files: a shard's comparison file keeps its own rows' adjustment, and `benchkit
  // merge` judges the suite again.
  std::size_t suite_size = 0;
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
  // Paired rounds compared as an AB/BA crossover (stats::crossover_ratio: the sides of each round
  // ran one after the other, in both orders): whether the baseline ran first, per round, beside
  // round_ratios. Empty when the rounds were compared as plain pairs.
  std::vector<bool> baseline_first;
  // With baseline_first: a round's second process over its first (stats::crossover_ratio's
  // order_ratio; below 1 when the second ran faster), which the crossover cancels.
  std::optional<double> order_ratio;
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
  // Whether the new build's run of this row has the diagnostic `code`.
  bool candidate_has(std::string_view code) const {
    return std::find(candidate_diagnostics.begin(), candidate_diagnostics.end(), code) !=
           candidate_diagnostics.end();
  }
  // Samples of each side left out because the machine ran slow while they were taken.
  std::size_t baseline_slow_samples = 0;
  std::size_t candidate_slow_samples = 0;
  // Whether the row takes part in the suite's test (its p-value adjusted with the others'):
  // compared, testable, and not judged alone. A row not tested keeps the verdict it was given.
  bool tested = false;
  bool scenario = false;  // a scenario phase: the advice of an inconclusive row says so
  // A whole command (benchkit run --cmd, a hyperfine export), every run a process of its own: the
  // advice of an inconclusive row is more runs, not more processes.
  bool command = false;
  // A tested row's note before the suite's verdicts (analysis::judge_suite), which add to it
  // what an inconclusive verdict lacks; kept so that the verdicts can be made again over
  // another set of rows (the shards of a suite, `benchkit merge`).
  std::string effect_note;
};

// A build on one side of a comparison: what `benchkit merge` checks before joining the
// comparisons of a suite's shards. Empty fields are unknown.
struct ComparedBuild {
  std::string git_commit;
  std::string executable_sha256;
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
  // The two builds compared and, for one shard of a split suite (--shard K/N), which part:
  // set by the caller from the runs' contexts (session::judge), written to the JSON.
  ComparedBuild baseline_build;
  ComparedBuild candidate_build;
  std::optional<Shard> shard;
  std::size_t count(Verdict verdict) const;
  bool any_regression() const { return count(Verdict::regressed) > 0; }
};

// Whether a row compared under --mde holds the rounds planned for it (the power asked for at
// that change): false without a plan.
bool planned_power_reached(const BenchmarkComparison& c);

}  // namespace benchkit::model
