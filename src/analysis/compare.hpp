// Comparing a run against a baseline: effect sizes, significance across the suite, verdicts.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/power_plan.hpp"
#include "benchkit/result.hpp"
#include "model/comparison.hpp"

namespace benchkit::analysis {

using model::Adjustment;
using model::BenchmarkComparison;
using model::CompareSettings;
using model::Comparison;
using model::Design;
using model::kCountNoiseThreshold;
using model::kOrderEvidence;
using model::planned_power_reached;
using model::to_string;
using model::Verdict;

// Compares every benchmark present in both runs, and lists those in only one as added or
// removed. A benchmark skipped on either side (--skip-tag) is `skipped`, with the reason in its
// note. A benchmark whose result on either side has failures is `invalid`, with the failures
// in its note, and takes no part in the adjustment. Runs must have their estimates computed. A
// benchmark with no sample on a side is inconclusive, with a note.
Comparison compare(const RunResult& baseline, const RunResult& candidate,
                   const CompareSettings& settings = {});

// The suite-level step of a comparison, over all of comparison.benchmarks: the p-values of the
// rows that take part in the suite's test (BenchmarkComparison::tested) adjusted together by
// settings.adjustment (Holm by default: any false alarm in the suite at most alpha), each such
// row's verdict (verdict_for) and note (its effect_note, and what an inconclusive verdict lacks,
// which depends on how many rows were tested), the note on samples left out for the machine's
// speed, and the report's order. Rows not tested keep their verdict and note. compare() ends
// with it; `benchkit merge` applies it once to the rows of every shard of a split suite, which
// gives the verdicts one comparison of the whole suite would (session/shard_merge.hpp).
void judge_suite(Comparison& comparison);

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
// minimum detectable change (left empty: it costs most of a look, and decides nothing). With
// `baseline_first` (one flag per round: the sides ran one after the other, the baseline first),
// the rounds are compared as an AB/BA crossover when the orders differ (settings.order_evidence)
// and both have rounds enough to reach the look's level (stats::crossover_ratio), as compare() does
// for samples with Sample::turn. Sizes
// must match, at least 1 round, values > 0; else throws std::invalid_argument.
BenchmarkComparison compare_rounds(std::span<const double> base_rounds,
                                   std::span<const double> candidate_rounds,
                                   const CompareSettings& settings,
                                   const std::vector<bool>& baseline_first = {});

// The benchmarks of both runs whose verdict under `settings` is still inconclusive: those that
// get another round. With settings.sequential_alpha, the verdict of each look is read at that
// look's level (above).
std::vector<std::string> unsettled(const RunResult& baseline, const RunResult& candidate,
                                   const CompareSettings& settings);
// Whether a row of such a look gets another round: inconclusive, and not yet holding the
// rounds planned for --mde (CompareSettings::mde) when those fit under the design's last look.
bool wants_more_rounds(const BenchmarkComparison& c);

}  // namespace benchkit::analysis
