// The CI gate against history: is the newest run of each benchmark slower than the recent runs
// of the same machine fingerprint and base branch? The same verdicts and table as `compare`.
//
// The rule (docs/change-points.md, "The gate"), per benchmark, on log times:
//  - the reference is the recent history: the runs since the last change point of the history
//    (stats/change_points.hpp), at most kHistoryWindow of them, the newest last;
//  - their mean m and sample variance s² (n runs) split into what each run's own interval shows
//    (the mean of their squared standard errors, w²) and what varies between runs that no
//    interval shows, τ² = max(0, s² - w²);
//  - the candidate's median and its own standard error c from its samples (the
//    distribution-free interval of the median);
//  - prediction: candidate - m ~ Student t with n - 1 degrees of freedom and scale
//    √(τ² + c² + s²/n). When the candidate is as precise as the history's runs (c² = w²) this is
//    Bencher's t-test prediction interval, s·√(1 + 1/n); a noisier candidate (a shorter run)
//    widens it, a sharper one narrows it, never below the spread between runs;
//  - ratio = exp(candidate - m) with its interval, a two-sided p-value, the minimum detectable
//    change; then `compare`'s rules: p adjusted across the suite (settings.adjustment),
//    regressed / improved only when significant and the whole interval lies beyond
//    ±settings.noise_threshold, unchanged when it lies inside, inconclusive otherwise.
// Fewer than kMinimumHistory runs in the reference: inconclusive, with a note saying how many are
// needed and how many there are.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "stats/change_points.hpp"

namespace benchkit::analysis {

// Fewer runs than this cannot predict the next: with 5 runs the prediction interval's t factor is
// already 2.78 (4 degrees of freedom) against 1.96 for a long history, and one odd run among
// fewer moves the mean by a quarter of its deviation or more.
inline constexpr std::size_t kMinimumHistory = 5;
// At most the newest 64 runs: Bencher's default sample size for its t-test threshold. Older runs
// describe a machine and a code base that have drifted since; beyond 64 the t factor gains less
// than 1%.
inline constexpr std::size_t kHistoryWindow = 64;
// The newest runs searched for the change point that the reference starts after: twice the
// window, so that a change just before the window's newest kHistoryWindow runs is still seen
// with as many runs before it as after; a change further back cannot shorten the reference, and
// the search costs O(n²). `history check` reads no more of each series than this (or --last,
// when larger: session::check_run, docs/change-points.md "The window of check").
inline constexpr std::size_t kSearchedHistory = 2 * kHistoryWindow;

// history: the recent runs of the same machine fingerprint and base branch, oldest first.
BenchmarkComparison check_against_history(std::string_view name,
                                          std::span<const stats::IntervalPoint> history,
                                          const BenchmarkResult& candidate,
                                          const CompareSettings& settings = {});
// Every benchmark of `candidate`: those with history are checked and their p-values adjusted
// across the suite; those without are `added`; history without a candidate result is `removed`.
Comparison check_against_history(
    const std::map<std::string, std::vector<stats::IntervalPoint>, std::less<>>& history,
    const RunResult& candidate, const CompareSettings& settings = {});

// The change points among the newest `last` points of `series` (index ≥ size - last), oldest
// first. A change point's index i is the first run of the new level: the change happened in the
// commits after run i - 1, up to and including run i — the range to name.
std::vector<stats::ChangePoint> recent_change_points(
    std::span<const stats::IntervalPoint> series, std::size_t last,
    const stats::ChangePointSettings& settings = {});

// A change of level in a series, between two commits, that `history check` names among the
// last commits (session::check_run finds it; report/history_check_text.hpp says it).
struct RecentChange {
  std::string benchmark = {};
  std::string from_commit = {};  // the last commit of the old level
  std::string to_commit = {};    // the first commit of the new level
  double before = 0;
  double after = 0;
  double p_value = 1;
};

}  // namespace benchkit::analysis
