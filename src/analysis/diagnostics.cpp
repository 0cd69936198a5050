#include "analysis/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/machine_speed.hpp"
#include "model/merge.hpp"
#include "model/threads.hpp"
#include "stats/modes.hpp"
#include "stats/summary.hpp"
#include "stats/trend.hpp"

namespace benchkit::analysis {
namespace {

// A trend must be this unlikely under "no trend" to be reported: a suite runs many benchmarks,
// and at 0.001 a hundred clean benchmarks raise a false drift flag one time in ten.
constexpr double kTrendSignificance = 0.001;
// The trend is tested on the medians of this many consecutive blocks of samples, not on the
// samples: the Mann–Kendall test assumes independent values, and a shared machine's slow
// phases (a neighbour busy for a second) make neighbouring samples alike, so that on the samples
// themselves a phase passed as a trend at p as low as 3e-19 (bench/verdicts/example_flags found
// 9 such flags in 160 clean benchmark runs). State growing between
// iterations moves every block the same way (10 blocks in order: p = 8e-5); a phase moves one
// or two.
constexpr std::size_t kTrendBlocks = 10;
// ... and large enough to matter: 5% between the first and the last fifth of the samples
// (smaller drifts are within what a shared machine does on its own).
constexpr double kDriftMagnitude = 0.05;
// A large drift needs no such order: the blocks' Sen slope (the median of the 45 slopes between
// two block medians, on a log scale, so that a phase moving one or two blocks barely moves it)
// times the run implies a change of at least this factor. State that grows between iterations
// makes time grow by a factor of 2 to 10 over a run, and a machine phase of 2× over a block or
// two then breaks the order the test above needs: on the buffer-growing benchmark of
// DiagnosticsReal (bench/verdicts/drift_defect, 40 runs) the order alone found 30 of 40 on an
// idle machine and 18 of 40 beside two busy threads; with this rule, 40 and 39 of 40.
constexpr double kLargeDriftFactor = 1.5;
// ... and it must be a rise, not one step: a machine that turns slow halfway (and stays so) makes
// half of the block pairs step up, which moves the Sen slope as much as a rise does. Fitting the
// best single step (two levels) to the log block medians leaves half of their spread for a
// straight rise and none for a step. In an offline study of those runs and of 500 runs of the
// examples' benchmarks, the growing buffer left at least 24% even when phases broke its order.
// Among all the samples of the examples' runs, 6 of 500 had an implied change of 1.5× or more;
// 5 of them left at most 22%, the sixth 40%. Once the samples taken at another machine speed
// are left out (as diagnose does), none of the 500 reached 1.5×.
constexpr double kMinSpreadLeftByAStep = 0.25;
// Memory growth below 1 MiB is allocator and page-granularity noise.
constexpr double kMemoryGrowthBytes = 1024.0 * 1024.0;
// A first call more than 100 times the median and more than 1 ms longer is a one-off cost
// (lazy initialisation), not the cold caches every first call pays.
constexpr double kColdFirstRatio = 100.0;
constexpr double kColdFirstExcessNs = 1e6;
// The first samples (median of the first 3) 50% slower than the rest: the cost leaked past the
// warm-up into the samples.
constexpr double kColdSamplesRatio = 1.5;
// Within 2 empty-loop iterations of nothing: indistinguishable from no work at all.
constexpr double kEmptyLoopMultiple = 2.0;
// "unstable": half the samples more than 10% from the median (pyperf warns at a standard
// deviation of 10% of the mean). nanobench flags at 5%, but on the shared development VM clean
// memory-heavy benchmarks of the examples (zstd, map building, hash lookups) scattered 5-11.5%
// from sample to sample, with the reference loop steady: other guests' memory traffic, not the
// code. It must hold from one sample to the next as well (the median difference between
// consecutive samples, divided by √2, which equals the MdAPE for independent samples): a machine
// that runs slower for a few seconds spreads the samples of a steady benchmark without making it
// unstable.
constexpr double kUnstableMdape = 0.10;
// Making inputs 5 times slower than measuring them, and at least 100 ms of it, makes the suite
// slow for nothing.
constexpr double kSlowSetupRatio = 5.0;
constexpr double kSlowSetupNs = 100e6;
// A performance state is a mode holding at least 15% of the samples and at least 5 of them: a
// few slow samples in a row (an interrupt, a page-cache miss, a neighbour's burst) make a bump in
// the density but are not a state of the code. The examples showed such bumps of 1-3 samples of
// 20-30 in about one benchmark run in ten (bench/verdicts/example_flags).
constexpr double kMinModeShare = 0.15;
constexpr std::size_t kMinModeSamples = 5;
// Modes closer than this (as a ratio) are not reported: the two virtual CPUs of a shared
// machine, or one CPU before and after a neighbour's burst, differ by that much, and two
// states that close move the median by a few percent at most.
constexpr double kMinModeSeparation = 1.10;
// Two modes are two states only with a gap between them: the middle third of the gap (on the
// log scale) holds at most a fifth of the density of samples found in bands of the same width
// around the modes. States of the code (two paths, a hit or a miss) leave it nearly empty; one
// state spread out by a shared machine fills it, even when its density has two bumps. The
// examples had 9 multimodal flags in 960 benchmark runs (modes 12-27% apart): 8 had 0.29-0.61;
// the ninth, 0.09 on 31 samples, came from a benchmark measured at its fast machine speed in 35
// of 372 samples (note_machine_speed withholds those). The cost: two states of the code closer
// than about 5 times their own spread (standard deviations) are no longer told apart.
constexpr double kMaxValleyDensity = 0.2;
// Modes that come in long stretches of consecutive samples (a runs test with p below this) are
// phases of the machine, not states of the code: the code's states follow its inputs and paths,
// sample after sample. On the examples every false multimodal flag with modes more than 10%
// apart had its modes in stretches (runs test z from -3 to -12).
constexpr double kPhaseSignificance = 0.001;
// Below 10 samples trends and modes cannot be told from noise.
constexpr std::size_t kMinSamplesForShape = 10;
static_assert(kMinSamplesForShape >= kTrendBlocks, "every block holds at least one sample");

bool has(const BenchmarkResult& result, const char* code) {
  return std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

void add(BenchmarkResult& result, const char* code, std::string message) {
  if (!has(result, code)) result.diagnostics.push_back({code, "warning", std::move(message)});
}

std::string duration(double ns) {
  if (ns < 1e3) return fmt::format("{:.3g} ns", ns);
  if (ns < 1e6) return fmt::format("{:.3g} µs", ns / 1e3);
  if (ns < 1e9) return fmt::format("{:.3g} ms", ns / 1e6);
  return fmt::format("{:.3g} s", ns / 1e9);
}

double median_of(std::vector<double> values) {
  return stats::median(values);
}

// Median of the first and of the last fifth (at least 2 values each).
std::pair<double, double> ends(const std::vector<double>& series) {
  const std::size_t part = std::max<std::size_t>(2, series.size() / 5);
  std::vector<double> first(series.begin(), series.begin() + static_cast<std::ptrdiff_t>(part));
  std::vector<double> last(series.end() - static_cast<std::ptrdiff_t>(part), series.end());
  return {median_of(first), median_of(last)};
}

// Medians of `blocks` consecutive, equal (to one sample) stretches of `series`.
std::vector<double> block_medians(const std::vector<double>& series, std::size_t blocks) {
  std::vector<double> medians;
  const std::size_t n = series.size();
  for (std::size_t b = 0; b < blocks; ++b) {
    const auto first = series.begin() + static_cast<std::ptrdiff_t>(b * n / blocks);
    const auto last = series.begin() + static_cast<std::ptrdiff_t>((b + 1) * n / blocks);
    medians.push_back(median_of(std::vector<double>(first, last)));
  }
  return medians;
}

double absolute_deviation(std::vector<double>::const_iterator first,
                          std::vector<double>::const_iterator last) {
  const double centre = median_of(std::vector<double>(first, last));
  double sum = 0.0;
  for (auto it = first; it != last; ++it) sum += std::fabs(*it - centre);
  return sum;
}

// The fraction of the spread of `series` (absolute deviations from the median) that remains
// once the best single step (a median on each side) is fitted.
double spread_left_by_a_step(const std::vector<double>& series) {
  const double total = absolute_deviation(series.begin(), series.end());
  if (!(total > 0.0)) return 0.0;
  double best = total;
  for (auto split = series.begin() + 1; split != series.end(); ++split) {
    best = std::min(
        best, absolute_deviation(series.begin(), split) + absolute_deviation(split, series.end()));
  }
  return best / total;
}

// A large, graded change: the change over the run implied by the Sen slope of the log block
// medians (1.5 for a rise of 50%), when it is at least kLargeDriftFactor either way and not a
// single step. nullopt otherwise, and when a block median is not positive (no log).
std::optional<double> large_graded_change(const std::vector<double>& medians) {
  std::vector<double> logs;
  for (const double m : medians) {
    if (!(m > 0.0)) return std::nullopt;
    logs.push_back(std::log(m));
  }
  const double implied = std::exp(stats::sen_slope(logs) * static_cast<double>(logs.size() - 1));
  if (std::fabs(std::log(implied)) < std::log(kLargeDriftFactor)) return std::nullopt;
  if (spread_left_by_a_step(logs) < kMinSpreadLeftByAStep) return std::nullopt;
  return implied;
}

// A time per iteration that moved by kDriftMagnitude or more from the first to the last samples,
// with a trend behind it (not one step): the medians of the two ends and the evidence.
struct Drift {
  double change = 0.0;  // last / first - 1
  double first = 0.0;
  double last = 0.0;
  std::string evidence;
};

std::optional<Drift> find_drift(const std::vector<double>& times) {
  if (times.size() < kMinSamplesForShape) return std::nullopt;
  const std::vector<double> medians = block_medians(times, kTrendBlocks);
  const stats::TrendResult trend = stats::mann_kendall(medians);
  const auto [first, last] = ends(times);
  if (first <= 0) return std::nullopt;
  const double change = last / first - 1.0;
  if (std::fabs(change) < kDriftMagnitude) return std::nullopt;
  if (trend.p_value < kTrendSignificance) {
    return Drift{change, first, last,
                 fmt::format("Mann–Kendall p = {:.1g} over the medians of {} blocks", trend.p_value,
                             kTrendBlocks)};
  }
  const std::optional<double> implied = large_graded_change(medians);
  if (!implied || (*implied > 1.0) != (change > 0.0)) return std::nullopt;
  return Drift{
      change, first, last,
      fmt::format("the slope through the medians of {} blocks implies {:.2f}× over the run",
                  kTrendBlocks, *implied)};
}

void check_drift(BenchmarkResult& result, const std::vector<double>& times) {
  const std::optional<Drift> drift = find_drift(times);
  if (!drift) return;
  add(result, code::drift,
      fmt::format("time per iteration {} {:.0f}% from the first to the last samples ({} → {}, "
                  "{}): typical of state that grows between iterations, "
                  "such as a buffer cleared outside the timed closure so that every iteration "
                  "appends to it. Reset such state inside the closure, or make a fresh input "
                  "per iteration with with_inputs",
                  drift->change > 0 ? "rose" : "fell", std::fabs(drift->change) * 100.0,
                  duration(drift->first), duration(drift->last), drift->evidence));
}

void check_memory_growth(BenchmarkResult& result) {
  std::vector<double> rss;
  double iterations = 0;
  for (const Sample& sample : result.samples) {
    const auto it = sample.counters.find("rss_bytes");
    if (it == sample.counters.end()) return;
    rss.push_back(it->second);
    iterations += static_cast<double>(sample.iters);
  }
  if (rss.size() < kMinSamplesForShape) return;
  const double growth = rss.back() - rss.front();
  if (growth < kMemoryGrowthBytes) return;
  const stats::TrendResult trend = stats::mann_kendall(rss);
  if (trend.p_value >= kTrendSignificance || trend.s <= 0) return;
  const double first_iterations = static_cast<double>(result.samples.front().iters);
  const double per_iteration = growth / std::max(1.0, iterations - first_iterations);
  add(result, code::memory_growth,
      fmt::format("resident memory grew by {:.1f} MiB over the samples, about {:.3g} bytes per "
                  "iteration: the benchmark keeps something from every iteration (a container "
                  "appended to and cleared outside the closure, a cache without bound). Clear "
                  "it inside the closure or use with_inputs so each iteration starts fresh",
                  growth / 1024.0 / 1024.0, per_iteration));
}

void check_cold_start(BenchmarkResult& result, const std::vector<double>& times) {
  const double median = result.estimates.median.value;
  if (median < 0) return;
  // A median of 0 (the work reads below the timer's overhead, on a loaded machine) still leaves
  // a first call of milliseconds plainly cold.
  if (result.first_iteration_ns && result.warm_up_iters > 0) {
    const double first = *result.first_iteration_ns;
    if (first > kColdFirstRatio * median && first - median > kColdFirstExcessNs) {
      const std::string ratio =
          median > 0 ? fmt::format("{:.0f}× the median of {}", first / median, duration(median))
                     : std::string("the median reads 0");
      add(result, code::cold_start,
          fmt::format("the first call took {} ({}): lazy initialisation (a regex compiled, a "
                      "table built, a cache filled) inside the measured code. The warm-up "
                      "absorbed it here, but a one-shot run would not: do it before measuring, "
                      "outside the closure",
                      duration(first), ratio));
      return;
    }
  }
  if (median <= 0 || times.size() < kMinSamplesForShape) return;
  std::vector<double> head(times.begin(), times.begin() + 3);
  const double head_median = median_of(head);
  if (head_median > kColdSamplesRatio * median) {
    add(result, code::cold_start,
        fmt::format("the first samples ran {:.1f}× slower than the median ({} against {}): "
                    "something is initialised lazily in the measured code or caches are still "
                    "cold. Set it up before measuring, or raise the warm-up (--warm-up)",
                    head_median / median, duration(head_median), duration(median)));
  }
}

// The time the samples measured, in all (ns): what the untimed work around them is weighed
// against.
double timed_ns(const BenchmarkResult& result) {
  double timed = 0;
  for (const Sample& sample : result.samples) timed += sample.ns;
  return timed;
}

void check_resolution(BenchmarkResult& result, const ClockFacts& clock) {
  const double median = result.estimates.median.value;
  if (result.samples.empty()) return;
  const double iterations = static_cast<double>(result.samples.front().iters);
  const bool sample_too_short =
      result.samples.size() > 1 && median * iterations < 1000.0 * clock.resolution_ns;
  // The empty loop's cost is calibrated as the fastest of several runs, so it is compared with
  // the fast samples too (the 10th percentile, which one odd sample does not move): on a busy
  // machine most samples of an empty closure are stretched by the others' time slices, and
  // beside two busy loops their median sometimes exceeded twice the calibrated cost.
  const double fast = stats::quantile(result.per_iteration_ns(), 0.1);
  const bool empty_loop =
      clock.loop_overhead_ns > 0 && fast <= kEmptyLoopMultiple * clock.loop_overhead_ns;
  if (!sample_too_short && !empty_loop) return;
  const std::string what =
      empty_loop ? fmt::format(
                       "{} per iteration (the fastest tenth of the samples: {}) is within {:.0f}× "
                       "the cost of an empty loop iteration ({})",
                       duration(median), duration(fast), kEmptyLoopMultiple,
                       duration(clock.loop_overhead_ns))
                 : fmt::format(
                       "{} per iteration is too short to time: a sample lasts under 1000 clock "
                       "ticks of {}",
                       duration(median), duration(clock.resolution_ns));
  // Samples cut short by the untimed work around them (inputs made, time paused in
  // iter_custom): the engine kept each sample's wall time bounded, and nothing was optimised
  // away (cctz's zone loads, each pass after a cache reset, read 1 iteration a sample).
  const double timed = timed_ns(result);
  if (!empty_loop && result.untimed_ns > 2.0 * timed) {
    add(result, code::below_resolution,
        fmt::format("{}: the work outside the timed region ({} in all, {:.0f}× the {} timed: "
                    "inputs made, time left out of iter_custom) kept each sample to {} "
                    "iteration(s). Such short samples time the clock as much as the code, and "
                    "when iterations differ in cost their median is one iteration's, not the "
                    "average. Do the untimed work less often than once a sample, or time a "
                    "longer stretch in iter_custom",
                    what, duration(result.untimed_ns), result.untimed_ns / std::max(timed, 1.0),
                    duration(timed), result.samples.front().iters));
    return;
  }
  add(result, code::below_resolution,
      fmt::format("{}: the work may have been optimised away. Pass inputs through "
                  "benchkit::black_box, return the result from the closure, or do more work per "
                  "iteration",
                  what));
}

// The median relative difference between consecutive samples, over √2.
double successive_dispersion(const std::vector<double>& times) {
  const double median = median_of(times);
  if (median <= 0) return 0.0;
  std::vector<double> steps;
  for (std::size_t i = 1; i < times.size(); ++i)
    steps.push_back(std::fabs(times[i] - times[i - 1]));
  return median_of(steps) / std::sqrt(2.0) / median;
}

// The samples the system switched out for another program (involuntary context switches inside
// the timed region, counter "involuntary_switches"), read in one pass.
struct Preemption {
  std::size_t switched = 0;  // samples with at least one switch
  std::size_t known = 0;     // samples that carry the counter
  // The times of the samples without a switch, when every sample carries the counter and at
  // least kMinSamplesForShape have none; otherwise all the times. A sample during which the
  // measuring thread was switched out is stretched by another program's time slice: beside two
  // busy loops on this 2-core machine, such samples of the buffer-growing benchmark took 2-5×
  // the others, in an alternation that read as two performance states and hid the rise. The
  // code's shape (drift, cold start, modes) is read without them; `unstable` reads every sample,
  // since the median does.
  std::vector<double> code_times;
};

Preemption preemption(const BenchmarkResult& steady, const std::vector<double>& times) {
  Preemption found;
  std::vector<double> kept;
  for (std::size_t i = 0; i < steady.samples.size(); ++i) {
    const auto& counters = steady.samples[i].counters;
    const auto it = counters.find("involuntary_switches");
    if (it == counters.end()) continue;
    ++found.known;
    if (it->second > 0) {
      ++found.switched;
    } else {
      kept.push_back(times[i]);
    }
  }
  const bool every_sample_says = found.known == steady.samples.size();
  found.code_times = every_sample_says && kept.size() >= kMinSamplesForShape ? kept : times;
  return found;
}

void check_unstable(BenchmarkResult& result, const std::vector<double>& times,
                    const Preemption& switched) {
  if (times.size() < kMinSamplesForShape) return;
  const double mdape = result.estimates.mdape;
  if (mdape < kUnstableMdape) return;
  const double successive = successive_dispersion(times);
  if (successive < kUnstableMdape) return;
  const std::string cause = switched.switched > 0
                                ? fmt::format(
                                      " (the system switched the benchmark out for another "
                                      "program during {} of {} samples)",
                                      switched.switched, switched.known)
                                : std::string();
  add(result, code::unstable,
      fmt::format("half the samples are more than {:.1f}% from the median, and consecutive "
                  "samples differ as much ({:.1f}%; threshold {:.0f}%): the machine is busy{} or "
                  "the work varies between iterations. Close other "
                  "programs, pin the benchmark to a core (taskset), or give it more time "
                  "(--time-budget) so the median settles",
                  mdape * 100.0, successive * 100.0, kUnstableMdape * 100.0, cause));
}

// The index of the mode nearest `t` (split halfway between neighbouring modes, on the log scale);
// `locations` ascending.
std::size_t nearest_mode(double t, const std::vector<double>& locations) {
  std::size_t nearest = 0;
  for (std::size_t m = 1; m < locations.size(); ++m) {
    if (std::log(t) > 0.5 * (std::log(locations[m - 1]) + std::log(locations[m]))) nearest = m;
  }
  return nearest;
}

// The modes that hold at least kMinModeShare of the samples and kMinModeSamples of them, each
// sample counted for its nearest mode.
std::vector<double> substantial_modes(const std::vector<double>& times,
                                      const std::vector<double>& locations) {
  std::vector<std::size_t> counts(locations.size(), 0);
  for (double t : times) ++counts[nearest_mode(t, locations)];
  std::vector<double> kept;
  const double n = static_cast<double>(times.size());
  for (std::size_t m = 0; m < locations.size(); ++m) {
    const double share = static_cast<double>(counts[m]) / n;
    if (share >= kMinModeShare && counts[m] >= kMinModeSamples) kept.push_back(locations[m]);
  }
  return kept;
}

// How full the gap between two modes a < b is: the samples in its middle third (on the log
// scale) against those within the same width around each mode, per unit of width. Two states of
// the code leave it nearly empty; one spread-out state with two bumps fills it.
double valley_density(const std::vector<double>& times, double a, double b) {
  const double low = std::log(a);
  const double high = std::log(b);
  const double third = (high - low) / 3.0;
  std::size_t near = 0;
  std::size_t middle = 0;
  for (const double t : times) {
    const double x = std::log(t);
    if (std::fabs(x - low) < third / 2.0 || std::fabs(x - high) < third / 2.0) ++near;
    if (x > low + third && x < high - third) ++middle;
  }
  if (near == 0) return 1.0;
  return static_cast<double>(middle) / (static_cast<double>(near) / 2.0);
}

// The performance states the samples switch between, in order of time (at least two), or none:
// substantial modes of the times, apart and with a valley between them, the samples clustered
// by mode in time no more than chance would (a process that changed state once is a step, not
// modes).
std::vector<double> find_modes(const std::vector<double>& times) {
  if (times.size() < 2 * kMinSamplesForShape) return {};
  if (std::any_of(times.begin(), times.end(), [](double t) { return t <= 0; })) return {};
  const stats::ModeResult modes = stats::kde_modes(times);
  if (modes.count < 2) return {};
  const std::vector<double> substantial = substantial_modes(times, modes.locations);
  // Modes within kMinModeSeparation of the last one kept, or without a valley between them and
  // it, count as that one.
  std::vector<double> kept;
  for (const double location : substantial) {
    if (kept.empty() || (location >= kMinModeSeparation * kept.back() &&
                         valley_density(times, kept.back(), location) <= kMaxValleyDensity)) {
      kept.push_back(location);
    }
  }
  if (kept.size() < 2) return {};
  std::vector<std::size_t> labels;
  labels.reserve(times.size());
  for (const double t : times) labels.push_back(nearest_mode(t, kept));
  if (stats::runs_test(labels).clustered_p_value < kPhaseSignificance) return {};
  return kept;
}

std::string listed_durations(const std::vector<double>& values) {
  std::string where;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) where += ", ";
    where += duration(values[i]);
  }
  return where;
}

// `multimodal` for the modes `kept` of `subject` ("the samples"), each one a `unit` ("sample").
void add_modes(BenchmarkResult& result, const std::vector<double>& kept, const std::string& subject,
               const char* unit) {
  add(result, code::multimodal,
      fmt::format("{} fall into {} groups (around {}) and switch between them from {} to {}: the "
                  "code has several performance states (two paths, a cache that sometimes hits, "
                  "memory that sometimes lands badly). The median mixes them: find which state "
                  "each {} is in and measure each alone",
                  subject, kept.size(), listed_durations(kept), unit, unit, unit));
}

void check_modes(BenchmarkResult& result, const std::vector<double>& times) {
  const std::vector<double> kept = find_modes(times);
  if (!kept.empty()) add_modes(result, kept, "the samples", "sample");
}

void check_setup(BenchmarkResult& result) {
  const double timed = timed_ns(result);
  if (result.untimed_ns < kSlowSetupNs || result.untimed_ns < kSlowSetupRatio * timed) return;
  add(result, code::slow_setup,
      fmt::format("making inputs and dropping outputs took {}, {:.0f}× the {} measured: the "
                  "suite is slow for nothing. Build one input before measuring and copy it in "
                  "with_inputs, or measure more work per input",
                  duration(result.untimed_ns), result.untimed_ns / std::max(timed, 1.0),
                  duration(timed)));
}

}  // namespace

void diagnose(BenchmarkResult& result, const ClockFacts& clock) {
  if (result.samples.empty()) return;
  check_resolution(result, clock);
  check_memory_growth(result);
  check_setup(result);
  // Several benchmarks' samples under one name have no shape of one benchmark (frozen's
  // BM_StrNotInStdArray "fell 33%" over its 20 repetitions: ten of one registration at 447 ns,
  // then ten of the other at 294 ns).
  if (model::pools_several_benchmarks(result)) return;
  // The shape of the times is read from the samples taken at one machine speed: a machine that
  // slowed down for a second is not a benchmark that drifts, has two modes or is unstable (the
  // run's machine_speed warning says it once). Memory is read from every sample.
  const BenchmarkResult steady = steady_samples(result).steady;
  const std::vector<double> times = steady.per_iteration_ns();
  const Preemption switched = preemption(steady, times);
  check_drift(result, switched.code_times);
  check_cold_start(result, switched.code_times);
  check_unstable(result, times, switched);
  check_modes(result, switched.code_times);
}

namespace {

// The median per iteration of each process's samples, in process order, and whether every
// process gave one sample (a Google Benchmark binary's processes without repetitions).
struct ProcessMedians {
  std::vector<double> medians;
  bool one_sample_each = true;
};

ProcessMedians process_medians(const BenchmarkResult& result) {
  std::map<std::uint32_t, std::vector<double>> by_process;
  const std::vector<double> times = result.per_iteration_ns();
  for (std::size_t i = 0; i < times.size(); ++i) {
    by_process[result.samples[i].process].push_back(times[i]);
  }
  ProcessMedians found;
  for (auto& [process, values] : by_process) {
    found.one_sample_each = found.one_sample_each && values.size() == 1;
    found.medians.push_back(median_of(std::move(values)));
  }
  return found;
}

// Why the result depends on the states, and what to do: a process of several samples that stayed
// in its state is told from one paused during a sample; a process of one sample is not.
std::string process_states_reason(bool one_sample_each) {
  if (!one_sample_each) {
    return "Each process stayed in its state (where its code and memory landed, or other work "
           "that ran beside it), so the result depends on how many processes land in each: "
           "measure more processes, or compare side by side, where both builds meet the same "
           "states";
  }
  return "Each process gave one sample, so a process that ran in another state (where its code "
         "and memory landed) and one that other work paused during its sample look alike; "
         "either way the result depends on how many processes land in each: measure more "
         "processes, or several samples in each (a Google Benchmark binary: "
         "--benchmark_repetitions=3 after --), or compare side by side";
}

}  // namespace

void diagnose_processes(BenchmarkResult& result) {
  if (result.samples.empty() || model::pools_several_benchmarks(result)) return;
  const ProcessMedians found = process_medians(steady_samples(result).steady);
  const std::vector<double>& medians = found.medians;
  if (medians.size() < stats::ProcessStateOptions{}.min_processes) return;
  if (std::any_of(medians.begin(), medians.end(), [](double m) { return m <= 0; })) return;
  // A process of one sample that stands apart alone is one slow sample (a pause, a neighbour),
  // which a shared machine gives a run of six often: two such processes make a state.
  stats::ProcessStateOptions options;
  if (found.one_sample_each) options.min_state_processes = 2;
  const std::vector<stats::ProcessState> states = stats::process_states(medians, options);
  if (states.size() < 2) return;
  std::string where;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const stats::ProcessState& state = states[i];
    if (i > 0) where += i + 1 == states.size() ? " and " : ", ";
    const std::string low = duration(state.low);
    const std::string high = duration(state.high);
    where += low == high ? low : fmt::format("{}-{}", low, high);
    where += fmt::format(" in {} of {} processes", state.processes, medians.size());
  }
  add(result, code::process_states,
      fmt::format("the processes fell into {} states, by their {}: {}. {}", states.size(),
                  found.one_sample_each ? "samples" : "medians", where,
                  process_states_reason(found.one_sample_each)));
}

void diagnose_processes(RunResult& run) {
  for (BenchmarkResult& benchmark : run.benchmarks) diagnose_processes(benchmark);
}

namespace {

// Under ~1,000 instructions per iteration the few dozen instructions of the harness per sample
// (subtracted, but estimated from an empty region, not the benchmark's own loop) and the loop's
// own 2-3 per iteration are a visible share of the count.
constexpr double kHarnessDominatedInstructions = 1000.0;
// A first iteration that executes twice the instructions of a later one, and 10,000 more, did
// work the others did not: lazy initialisation (a static built on first use, a table filled, a
// symbol bound). Counts have no noise, so a small factor is already a finding.
constexpr double kLazyFirstRatio = 2.0;
constexpr double kLazyFirstExcess = 10'000.0;

void add_once(BenchmarkResult& result, Diagnostic diagnostic) {
  for (const Diagnostic& present : result.diagnostics) {
    if (present.code == diagnostic.code) return;
  }
  result.diagnostics.push_back(std::move(diagnostic));
}

}  // namespace

void diagnose_counted(BenchmarkResult& result) {
  if (result.samples.empty()) return;
  const std::vector<double> counts = result.per_iteration_ns();
  const double median = result.estimates.median.value;
  if (median < kHarnessDominatedInstructions) {
    add_once(result,
             Diagnostic{code::harness_dominates, "warning",
                        fmt::format("{:.0f} instructions per iteration: the harness's own loop "
                                    "(2-3 instructions per iteration) is a visible share of that; "
                                    "compare such a benchmark only with itself, or batch more "
                                    "work into one iteration",
                                    median)});
  }
  if (result.first_iteration_ns) {
    const double first = *result.first_iteration_ns - result.overhead_ns_per_sample;
    if (first > kLazyFirstRatio * median && first - median > kLazyFirstExcess) {
      add_once(result,
               Diagnostic{code::lazy_first_iteration, "info",
                          fmt::format("the first iteration executed {:.0f} instructions, {:.1f}× a "
                                      "later one: lazy initialisation. It is left out (warm-up), "
                                      "but a real program pays it once per process; move it to "
                                      "the set-up if it is not what you measure",
                                      first, median > 0 ? first / median : 0.0)});
    }
  }
  double calls = 0.0;
  double iterations = 0.0;
  for (const Sample& sample : result.samples) {
    if (const auto found = sample.counters.find("system_calls"); found != sample.counters.end()) {
      calls += found->second;
    }
    iterations += static_cast<double>(sample.iters);
  }
  if (calls > 0.0) {
    add_once(result, Diagnostic{code::system_calls, "warning",
                                fmt::format("{:.3g} system calls per iteration inside the "
                                            "measured region: their instructions in the kernel "
                                            "are not counted and their time is not simulated, "
                                            "so this count understates the cost; measure it "
                                            "with --mode time too",
                                            calls / iterations)});
  }
  const auto [low, high] = std::minmax_element(counts.begin(), counts.end());
  if (*high > *low) {
    add_once(result,
             Diagnostic{code::counts_vary, "warning",
                        fmt::format("the counts per iteration differ between samples ({:.1f} to "
                                    "{:.1f}): the code is not deterministic (threads, time, "
                                    "addresses or state carried from one iteration to the "
                                    "next), so comparisons use the samples' spread",
                                    *low, *high)});
  }
}

void check_imported_repetitions(BenchmarkResult& result) {
  if (model::pools_several_benchmarks(result)) return;
  const std::vector<double> times = result.per_iteration_ns();
  if (const std::optional<Drift> drift = find_drift(times)) {
    add(result, code::drift,
        fmt::format("time per iteration {} {:.0f}% from the first to the last of its {} "
                    "repetitions ({} → {}, {}): they ran one after another in one process, so "
                    "state that outlives a repetition (a container filled, a cache or an "
                    "allocator's free lists grown, files written) or a machine that changed speed "
                    "shows as a trend. Make each repetition start from the same state, and check "
                    "the machine is quiet",
                    drift->change > 0 ? "rose" : "fell", std::fabs(drift->change) * 100.0,
                    times.size(), duration(drift->first), duration(drift->last), drift->evidence));
  }
  const std::vector<double> kept = find_modes(times);
  if (!kept.empty()) {
    add_modes(result, kept, fmt::format("its {} repetitions", times.size()), "repetition");
  }
}

void check_imported_speed(BenchmarkResult& result, double cpu_mhz) {
  // Below 200 MHz the figure is no CPU clock: on Apple Silicon, Google Benchmark's mhz_per_cpu
  // is the 24 MHz timebase (symious/malloc-post's results: 25-40 ns allocations read as less
  // than a "cycle" of 41.7 ns).
  constexpr double kLowestCpuMhz = 200.0;
  if (cpu_mhz < kLowestCpuMhz || result.samples.empty()) return;
  const double cycle_ns = 1000.0 / cpu_mhz;
  // Google Benchmark divides a threaded benchmark's wall time by the iterations of all its
  // threads: one thread's iteration took `threads` times the median.
  const double per_thread = result.estimates.median.value * model::thread_count(result);
  if (per_thread >= cycle_ns) return;
  add(result, code::below_resolution,
      // The median is the table's: the message leaves it out, so that every benchmark of a suite
      // whose work was optimised away has the same one, said once (console_reporter.cpp). Less
      // than a cycle is what the loop's own counting takes: an empty body, or one that runs in
      // its shadow (one add beside the counter, as less_slow.cpp's i32_addition_inline_asm).
      fmt::format("its median per iteration is less than one cycle of the CPU that ran it "
                  "({:.0f} MHz, {} a cycle), about what Google Benchmark's loop itself takes: "
                  "the work was optimised away, or is too small to show beside the loop, and "
                  "the time measures the loop. Pass its inputs and results through "
                  "benchmark::DoNotOptimize, or do more work an iteration",
                  cpu_mhz, duration(cycle_ns)));
}

void check_imported_zero_times(BenchmarkResult& result) {
  if (!result.metric.empty()) return;
  const auto zero = static_cast<std::size_t>(std::count_if(
      result.samples.begin(), result.samples.end(), [](const Sample& s) { return s.ns <= 0.0; }));
  if (zero == 0) return;
  add(result, code::below_resolution,
      fmt::format(
          "{} of its {} samples read a time of 0: the tool that timed it could not resolve it "
          "(hyperfine subtracts the time its shell takes to start, and reads 0 when the command "
          "took less than that start-up's own noise); time the command without a shell "
          "(hyperfine -N, benchkit run without --shell) or give it more work",
          zero, result.samples.size()));
}

}  // namespace benchkit::analysis
