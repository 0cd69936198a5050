#include "analysis/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/machine_speed.hpp"
#include "model/merge.hpp"
#include "stats/distributions.hpp"
#include "stats/hierarchical.hpp"
#include "stats/multiple.hpp"
#include "stats/paired.hpp"
#include "stats/power.hpp"
#include "stats/sequential.hpp"
#include "stats/summary.hpp"
#include "stats/two_sample.hpp"

namespace benchkit::analysis {

namespace {

// The fewest rounds compared as pairs: a signed-rank interval needs 6 to reach 95%
// (1 - 2/2^6 = 0.969); fewer are compared as the processes they are.
constexpr std::size_t kMinPairedRounds = 6;

// See the comment where it is used.
constexpr double kSpeedGapPower = 3.0;

// Times must be positive for ratios and logs: a sample whose overhead-corrected time is 0
// (below the clock's resolution) is floored at a thousandth of a nanosecond.
std::vector<double> positive_times(const BenchmarkResult& result) {
  std::vector<double> times = result.per_iteration_ns();
  for (double& t : times) t = std::max(t, 1e-3);
  return times;
}

std::map<std::uint32_t, std::vector<double>> by_process(const BenchmarkResult& result) {
  std::map<std::uint32_t, std::vector<double>> groups;
  const std::vector<double> times = positive_times(result);
  for (std::size_t i = 0; i < times.size(); ++i)
    groups[result.samples[i].process].push_back(times[i]);
  return groups;
}

bool every_sample_has_a_round(const BenchmarkResult& result) {
  return std::all_of(result.samples.begin(), result.samples.end(),
                     [](const Sample& sample) { return sample.round.has_value(); });
}

// Each round's place of a side (Sample::turn; the first sample's of the round), by round.
std::map<std::uint32_t, std::uint32_t> turns_by_round(const BenchmarkResult& result) {
  std::map<std::uint32_t, std::uint32_t> turns;
  for (const Sample& sample : result.samples) {
    if (sample.round && sample.turn) turns.emplace(*sample.round, *sample.turn);
  }
  return turns;
}

// Whether the baseline ran first in each round of `rounds`, when every one of them has both
// sides' places and they differ (the sides ran one after the other); else empty.
std::vector<bool> baseline_first_by_round(const BenchmarkResult& baseline,
                                          const BenchmarkResult& candidate,
                                          const std::vector<std::uint32_t>& rounds) {
  const auto base = turns_by_round(baseline);
  const auto cand = turns_by_round(candidate);
  std::vector<bool> first;
  for (const std::uint32_t round : rounds) {
    const auto b = base.find(round);
    const auto c = cand.find(round);
    if (b == base.end() || c == cand.end() || b->second == c->second) return {};
    first.push_back(b->second < c->second);
  }
  return first;
}

// Per-round medians, for rounds present on both sides, and whether the baseline ran first in
// each (baseline_first_by_round).
bool paired_rounds(const BenchmarkResult& baseline, const BenchmarkResult& candidate,
                   std::vector<double>& base_rounds, std::vector<double>& candidate_rounds,
                   std::vector<bool>& baseline_first) {
  auto rounds = [](const BenchmarkResult& result) {
    std::map<std::uint32_t, std::vector<double>> groups;
    if (!every_sample_has_a_round(result)) return groups;
    const std::vector<double> times = positive_times(result);
    for (std::size_t i = 0; i < times.size(); ++i) {
      groups[*result.samples[i].round].push_back(times[i]);
    }
    return groups;
  };
  const auto base = rounds(baseline);
  const auto cand = rounds(candidate);
  std::vector<std::uint32_t> paired;
  for (const auto& [round, values] : base) {
    const auto other = cand.find(round);
    if (other == cand.end()) continue;
    paired.push_back(round);
    const std::vector<double>& a = values;
    const std::vector<double>& b = other->second;
    const double base_median = stats::median(a);
    if (a.size() == b.size() && a.size() > 1) {
      // Samples taken in turns (side-by-side comparisons): sample k of each side was taken next
      // to the other's, so the round's ratio is the median of their ratios. When the machine
      // changes speed within the round, a ratio of the two medians can compare a fast median
      // with a slow one; the pairs each stay within one speed. (For rounds whose samples were
      // not taken in turns, the pairs are arbitrary and the median of their ratios is still
      // an estimate of the round's shift.)
      std::vector<double> logs(a.size());
      for (std::size_t k = 0; k < a.size(); ++k) logs[k] = std::log(b[k] / a[k]);
      base_rounds.push_back(base_median);
      candidate_rounds.push_back(base_median * std::exp(stats::median(logs)));
    } else {
      base_rounds.push_back(base_median);
      candidate_rounds.push_back(stats::median(b));
    }
  }
  baseline_first = baseline_first_by_round(baseline, candidate, paired);
  return base_rounds.size() >= kMinPairedRounds;
}

double log_median(const std::vector<double>& values) {
  return std::log(stats::median(values));
}

// One side ran in a single process, the other in several: the between-process spread of the
// side that has it stands for both (a pooled t on log process medians with that side's degrees
// of freedom). Both sides single: nothing is known about between-run variation.
void one_sided_process_test(const std::vector<std::vector<double>>& base,
                            const std::vector<std::vector<double>>& candidate,
                            const CompareSettings& settings, BenchmarkComparison& out) {
  const auto& several = base.size() > 1 ? base : candidate;
  if (several.size() < 2 || (base.size() > 1 && candidate.size() > 1)) return;
  std::vector<double> logs;
  for (const auto& process : several) logs.push_back(log_median(process));
  const double spread = stats::stddev(logs);
  double base_mean = 0;
  for (const auto& process : base) base_mean += log_median(process);
  base_mean /= static_cast<double>(base.size());
  double candidate_mean = 0;
  for (const auto& process : candidate) candidate_mean += log_median(process);
  candidate_mean /= static_cast<double>(candidate.size());
  const double difference = candidate_mean - base_mean;
  const double degrees_of_freedom = static_cast<double>(several.size() - 1);
  const double standard_error = spread * std::sqrt(1.0 / static_cast<double>(base.size()) +
                                                   1.0 / static_cast<double>(candidate.size()));
  out.ratio = std::exp(difference);
  out.note =
      "one side ran in a single process: the other side's spread between processes "
      "stands for both";
  if (standard_error <= 0.0) return;
  const double t = stats::student_t_quantile(0.5 + settings.confidence / 2.0, degrees_of_freedom);
  out.ratio_lower = std::exp(difference - t * standard_error);
  out.ratio_upper = std::exp(difference + t * standard_error);
  out.p_value = stats::student_t_two_sided_p(difference / standard_error, degrees_of_freedom);
}

// Counts that are the same in every sample of a side: deterministic, so one sample says it all.
bool exact_counts(const BenchmarkResult& result) {
  if (result.metric.empty() || result.samples.empty()) return false;
  const std::vector<double> values = result.per_iteration_ns();
  return std::all_of(values.begin(), values.end(),
                     [&](double value) { return value == values.front(); });
}

// Both sides counted the same every sample: the ratio of the counts, certain.
void exact_effect(const BenchmarkResult& baseline, const BenchmarkResult& candidate,
                  BenchmarkComparison& out) {
  out.design = Design::exact;
  const double base = std::max(baseline.per_iteration_ns().front(), 1e-3);
  const double cand = std::max(candidate.per_iteration_ns().front(), 1e-3);
  out.baseline_median = base;
  out.candidate_median = cand;
  out.ratio = out.ratio_lower = out.ratio_upper = cand / base;
  // No sampling error: a difference is certain, equality is too.
  out.p_value = cand == base ? 1.0 : 0.0;
  out.minimum_detectable_change = 0.0;
}

// Interleaved rounds: the change from the per-round ratios.
// `with_power`: also the minimum detectable change (a non-central t, most of the cost of a look).
void paired_effect(const std::vector<double>& base_rounds,
                   const std::vector<double>& candidate_rounds,
                   const std::vector<bool>& baseline_first, const CompareSettings& settings,
                   BenchmarkComparison& out, bool with_power = true) {
  out.design = Design::paired;
  // Looked at as the rounds came: read at this look's level of the sequential design.
  const bool sequential = !settings.sequential_alpha.empty();
  const double level = paired_level(settings, base_rounds.size());
  const double confidence = sequential ? 1.0 - level : settings.confidence;
  // Rounds whose sides ran one after the other, in both orders: compared as a crossover, which
  // cancels what the second process of a round gains or loses by coming second (a Google
  // Benchmark binary's second process ran 20-25% faster on some rows, docs/interop.md), when
  // the two orders' rounds differ (settings.order_evidence) and have rounds enough to reach the
  // level. Otherwise, and for rounds taken in turns within two processes, the plain pairs.
  std::optional<stats::CrossoverComparison> crossover =
      baseline_first.empty()
          ? std::nullopt
          : stats::crossover_ratio(base_rounds, candidate_rounds, baseline_first, confidence);
  if (crossover && !(crossover->order_p_value < settings.order_evidence)) crossover.reset();
  double ratio = 1.0;
  stats::Interval interval;
  if (crossover) {
    ratio = crossover->ratio;
    interval = crossover->interval;
    out.p_value = crossover->p_value;
  } else {
    // The Hodges–Lehmann centre and its signed-rank interval, the estimate that goes with the
    // Wilcoxon test used for the p-value. The sign-test interval of the median needs no
    // symmetry but wastes rounds: at 10 rounds it spans from the 2nd to the 9th smallest
    // ratio, about 40% wider than the signed-rank interval when the round ratios scatter
    // normally (docs/statistics.md). Log ratios of rounds are symmetric when nothing but noise
    // separates the two sides.
    const stats::PairedComparison paired =
        stats::paired_ratio(base_rounds, candidate_rounds, confidence);
    ratio = paired.pseudo_median_ratio;
    interval = paired.pseudo_median_interval;
    out.p_value = paired.p_value;
  }
  if (sequential) {
    out.level = level;
    // The exact interval of n rounds reaches at most 1 - 2/2^n; short of the level, the
    // interval shown is narrower than the look allows, and decides nothing.
    out.level_reached = interval.confidence >= confidence - 1e-12;
  }
  out.ratio = ratio;
  out.ratio_lower = interval.lower;
  out.ratio_upper = interval.upper;
  out.pairs = base_rounds.size();
  for (std::size_t i = 0; i < base_rounds.size(); ++i) {
    out.round_ratios.push_back(candidate_rounds[i] / base_rounds[i]);
  }
  if (crossover) {
    out.baseline_first = baseline_first;
    out.order_ratio = crossover->order_ratio;
  }
  // The new side's median shown beside the change is the baseline's times the paired change.
  // Each side's own median cuts its slow samples at its own level, and side by side 135 ns
  // against 154 ns (+14%) stood beside a paired change of +10.7%; the median of every sample
  // is no better, since a round half fast and half slow puts it on either speed.
  out.candidate_median = out.baseline_median * out.ratio;
  if (!with_power) return;
  // The rounds' scatter, less the order effect when it cancels (order_aligned_logs).
  const std::vector<double> logs = order_aligned_logs(out.round_ratios, out.baseline_first);
  // Paired: the detectable change is that of a one-sample test on the log ratios, which the
  // two-sample formula gives with half the variance on each side. Their spread as the
  // signed-rank interval sees it: a few rounds far off the others (a process in another state)
  // widen a standard deviation far more than that interval, and "could detect changes of about
  // 183.5%" stood beside an interval of [-14.7%, +12.9%] (flatbuffers, 2026-12-07). So the
  // median absolute deviation (scaled to a normal standard deviation) when it is the smaller and
  // not nought.
  const double spread = logs.size() > 1 ? stats::stddev(logs) : 0.0;
  const double bulk = logs.size() > 1 ? stats::mad(logs) : 0.0;
  const double detect_spread = bulk > 0.0 ? std::min(bulk, spread) : spread;
  out.minimum_detectable_change =
      stats::minimum_detectable_change(detect_spread / std::sqrt(2.0), logs.size(),
                                       detect_spread / std::sqrt(2.0), logs.size(), settings.alpha,
                                       settings.power)
          .relative_change;
  // ... and no less than the interval shown says: a change must clear its half-width (taken from
  // its level to the test's power). A few far rounds widen the signed-rank interval beyond what
  // the rounds' bulk says, and "could detect changes of about 0.9%" stood beside [-1.8%, +7.0%],
  // with "the change is close to it" for a change of +0.0% (cctz's BM_PrevWeekday, an A/A
  // comparison: 4 of 23 rounds far off).
  if (interval.lower > 0.0 && interval.upper > interval.lower && confidence < 1.0) {
    const double half = (std::log(interval.upper) - std::log(interval.lower)) / 2.0;
    const double z = stats::normal_quantile(0.5 + confidence / 2.0);
    const double from_interval =
        std::expm1(half * (z + stats::normal_quantile(settings.power)) / z);
    out.minimum_detectable_change = std::max(*out.minimum_detectable_change, from_interval);
  }
  if (settings.mde > 0.0 && logs.size() > 1) {
    // The design's last look is the cap: --max-rounds, or these rounds when not sequential.
    const std::size_t cap =
        settings.sequential_alpha.empty() ? logs.size() : settings.sequential_alpha.size() - 1;
    out.planned_rounds = rounds_for_power(
        spread, settings.mde, settings.noise_threshold, settings.power,
        [&settings](std::size_t n) { return paired_level(settings, n); }, cap);
  }
}

// Several processes on a side: the process is the unit of variation.
void process_effect(const std::map<std::uint32_t, std::vector<double>>& base_processes,
                    const std::map<std::uint32_t, std::vector<double>>& candidate_processes,
                    const CompareSettings& settings, BenchmarkComparison& out) {
  out.design = Design::processes;
  std::vector<std::vector<double>> base_groups;
  std::vector<std::vector<double>> candidate_groups;
  for (const auto& [process, values] : base_processes) base_groups.push_back(values);
  for (const auto& [process, values] : candidate_processes) candidate_groups.push_back(values);
  stats::HierarchicalOptions options;
  options.confidence = settings.confidence;
  options.resamples = 2000;  // per benchmark of a suite; the interval's Monte Carlo error
                             // at 2,000 replicates is about 0.5% of its width
  const stats::HierarchicalComparison result =
      stats::hierarchical_compare(base_groups, candidate_groups, options);
  out.ratio = result.ratio;
  out.ratio_lower = result.interval.lower;
  out.ratio_upper = result.interval.upper;
  out.p_value = result.process_level ? result.p_value : 1.0;
  if (base_groups.size() >= 2 && candidate_groups.size() >= 2) {
    std::vector<double> base_medians;
    std::vector<double> candidate_medians;
    for (const auto& g : base_groups) base_medians.push_back(std::log(stats::median(g)));
    for (const auto& g : candidate_groups) candidate_medians.push_back(std::log(stats::median(g)));
    out.minimum_detectable_change =
        stats::minimum_detectable_change(stats::stddev(base_medians), base_medians.size(),
                                         stats::stddev(candidate_medians), candidate_medians.size(),
                                         settings.alpha, settings.power)
            .relative_change;
  }
  if (!result.process_level) {
    one_sided_process_test(base_groups, candidate_groups, settings, out);
  }
}

// One process a side: the samples are independent.
void independent_effect(const BenchmarkResult& baseline, const BenchmarkResult& candidate,
                        const CompareSettings& settings, BenchmarkComparison& out) {
  out.design = Design::independent;
  const std::vector<double> base = positive_times(baseline);
  const std::vector<double> cand = positive_times(candidate);
  const stats::RatioEstimate ratio = stats::ratio_of_medians(base, cand, settings.confidence);
  out.ratio = ratio.ratio;
  out.ratio_lower = ratio.interval.lower;
  out.ratio_upper = ratio.interval.upper;
  // Brunner–Munzel rather than Mann–Whitney: two runs rarely have the same spread, and
  // Mann–Whitney's false-alarm rate rises when spreads differ (docs/statistics.md).
  if (base.size() >= 2 && cand.size() >= 2) {
    out.p_value = stats::brunner_munzel(base, cand).p_value;
    out.minimum_detectable_change =
        stats::minimum_detectable_change(base, cand, settings.alpha, settings.power)
            .relative_change;
  } else {
    out.p_value = 1.0;
    out.note = "fewer than 2 samples on a side: no test is possible";
    if (candidate.kind == "scenario") {
      out.note += " (a scenario runs once per process: add --repetitions 5 or --processes 5)";
    } else if (candidate.kind == "command") {
      out.note += " (run the command 10 times or more: --runs 10, or hyperfine's --runs)";
    }
  }
}

// The effect by the design the samples allow: exact counts, paired rounds, processes as the
// unit, or independent samples.
void measure_effect(const BenchmarkResult& baseline, const BenchmarkResult& candidate,
                    const CompareSettings& settings, BenchmarkComparison& out) {
  if (exact_counts(baseline) && exact_counts(candidate)) {
    exact_effect(baseline, candidate, out);
    return;
  }
  std::vector<double> base_rounds;
  std::vector<double> candidate_rounds;
  const auto base_processes = by_process(baseline);
  const auto candidate_processes = by_process(candidate);
  std::vector<bool> baseline_first;
  if (paired_rounds(baseline, candidate, base_rounds, candidate_rounds, baseline_first)) {
    paired_effect(base_rounds, candidate_rounds, baseline_first, settings, out);
    return;
  }
  if (base_processes.size() > 1 || candidate_processes.size() > 1) {
    process_effect(base_processes, candidate_processes, settings, out);
    // Rounds too few to pair (a side-by-side comparison of --rounds 3): kept, so that the advice
    // asks for rounds rather than for a side-by-side comparison.
    out.pairs = base_rounds.size();
    return;
  }
  independent_effect(baseline, candidate, settings, out);
}

// A micro benchmark takes more samples in a longer budget; a scenario takes one per run.
std::string sharpen_advice(const BenchmarkComparison& c, const CompareSettings& settings,
                           bool scenario) {
  std::string text;
  if (c.minimum_detectable_change) {
    text = fmt::format("this comparison could detect changes of about {:.1f}% or more; ",
                       *c.minimum_detectable_change * 100.0);
  }
  if (c.minimum_detectable_change && *c.minimum_detectable_change > settings.noise_threshold) {
    if (c.design == Design::paired) {
      // Rounds are the unit: what varies from one process pair to the next is what limits it.
      text += fmt::format("to resolve ±{:.0f}%, run more rounds (--rounds, --max-rounds)",
                          settings.noise_threshold * 100.0);
      // Several benchmarks of one name: each round's median falls between them, wherever their
      // samples happen to split it, which no process state explains (frozen's BM_IntInStdArray:
      // "9 of 23 rounds lie far off").
      if (c.candidate_has(model::kDuplicateName)) {
        return text +
               "; the interval is wide because several benchmarks of the suite share the name: "
               "each round's median falls between theirs, where their samples happen to split it "
               "(give each its own name)";
      }
      const std::string driver = width_driver(c.round_ratios, c.baseline_first);
      if (!driver.empty()) text += "; " + driver;
      return text;
    }
    if (c.design == Design::processes && c.pairs > 0) {
      // Rounds of process pairs, too few to pair (kMinPairedRounds).
      text += fmt::format(
          "to resolve ±{:.0f}%, run at least {} rounds (--rounds, --max-rounds): {} rounds were "
          "compared as unpaired processes, since a paired interval needs {} to reach 95%",
          settings.noise_threshold * 100.0, kMinPairedRounds, c.pairs, kMinPairedRounds);
      return text;
    }
    if (c.design == Design::processes) {
      // Processes are the unit: more of them narrow it, and side by side the drift between the
      // two runs, which no number of processes in each removes, cancels.
      text += fmt::format(
          "to resolve ±{:.0f}%, run more processes (--processes), or compare the two builds "
          "side by side, where what drifts between two runs cancels (benchkit compare OLD NEW)",
          settings.noise_threshold * 100.0);
      return text;
    }
    if (c.command) {
      // Every run a process already: more of them, and both sides in one session.
      text += fmt::format(
          "to resolve ±{:.0f}%, run the commands more times (--runs), both in one session, "
          "interleaved (benchkit run --cmd OLD --cmd NEW)",
          settings.noise_threshold * 100.0);
      return text;
    }
    text += fmt::format(
        "to resolve ±{:.0f}%, {} or run in several processes (benchkit run --processes)",
        settings.noise_threshold * 100.0,
        scenario ? "run the scenario more times (--repetitions)"
                 : "take more samples (raise --time-budget)");
  } else {
    text += "the interval straddles the noise threshold: the change is close to it; ";
    text += c.design == Design::paired || c.pairs > 0
                ? "more rounds (--rounds, --max-rounds) narrow the interval"
            : c.design == Design::processes ? "more processes (--processes) narrow the interval"
            : scenario                      ? "more runs (--repetitions) narrow the interval"
            : c.command                     ? "more runs (--runs) narrow the interval"
                                            : "a longer run (--time-budget) narrows the interval";
  }
  return text;
}

// A row's start, from the new run's side: name, metric, median, diagnostics.
BenchmarkComparison new_row(const BenchmarkResult& cand) {
  BenchmarkComparison out;
  out.name = cand.name;
  out.candidate_median = cand.estimates.median.value;
  out.metric = cand.metric;
  out.command = cand.kind == "command";
  for (const Diagnostic& d : cand.diagnostics) out.candidate_diagnostics.push_back(d.code);
  return out;
}

// A benchmark skipped on either side (`base` null when the baseline lacks it): which side and why.
void mark_skipped(const BenchmarkResult& cand, const BenchmarkResult* base,
                  BenchmarkComparison& out) {
  const bool new_side = cand.skipped.has_value();
  const Skipped& skip = new_side ? *cand.skipped : *base->skipped;
  out.verdict = Verdict::skipped;
  out.note = fmt::format("skipped in the {} run (--skip-tag {}): {}", new_side ? "new" : "baseline",
                         skip.tag, skip.reason);
}

// Two sides that cannot be tested against each other (other metrics, a failed run, no samples):
// the verdict and the note that says why, and true; false when they can be.
bool mark_untestable(const BenchmarkResult& base, const BenchmarkResult& cand,
                     BenchmarkComparison& out) {
  if (base.metric != cand.metric) {
    auto measured = [](const BenchmarkResult& r) {
      return r.metric.empty() ? std::string("time") : r.metric;
    };
    out.verdict = Verdict::invalid;
    out.note = fmt::format(
        "the baseline measured {} and the new run {}: they cannot be compared; measure both "
        "with the same --mode",
        measured(base), measured(cand));
    return true;
  }
  if (!base.valid() || !cand.valid()) {
    out.verdict = Verdict::invalid;
    const BenchmarkResult& failed = base.valid() ? cand : base;
    // A benchmark that failed to run (crashed, hung, exited, threw) says so in its message.
    out.note =
        failed.failure
            ? fmt::format("it failed to run ({}), so it is not compared", failed.failures.front())
            : fmt::format("the {} run failed its checks ({}), so it is not compared",
                          base.valid() ? "new" : "baseline", failed.failures.front());
    return true;
  }
  if (base.samples.empty() || cand.samples.empty()) {
    out.verdict = Verdict::inconclusive;
    out.note = "no samples on one side";
    return true;
  }
  if (base.metric.empty() &&
      (base.estimates.median.value <= 0.0 || cand.estimates.median.value <= 0.0)) {
    // Times of 0 (a hyperfine export of a command faster than its shell's noise): a ratio to 0
    // is no change that can be tested.
    out.verdict = Verdict::inconclusive;
    out.note = fmt::format(
        "the {} median time is 0, below what the tool that timed it resolves: there is no ratio "
        "to test (see its below_resolution diagnostic)",
        base.estimates.median.value <= 0.0 ? "baseline's" : "new run's");
    return true;
  }
  return false;
}

// The samples of each side that are compared (none: all of them), and how much slower one
// side's machine was throughout when the two share no speed.
struct SteadySides {
  std::optional<SteadySelection> base;
  std::optional<SteadySelection> cand;
  double speed_gap = 1.0;  // how much slower one side's machine was throughout, when it was
  bool base_slower = false;
};

SteadySides steady_sides(const BenchmarkResult& base, const BenchmarkResult& cand, bool same_cpu,
                         const CompareSettings& settings) {
  // Both sides at one machine speed: the samples within kSlowProbeFactor of the faster of the
  // two levels. Runs on different CPU models keep their own levels (the loop's time differs),
  // and so do two runs one of which has too few samples at the shared speed.
  SteadySides sides;
  // Interleaved rounds on both sides: each round's two sides were measured together (in turns,
  // or one process right after the other), so the machine's speed is shared within a round
  // and cancels in its ratio; no sample is left out.
  const bool paired = every_sample_has_a_round(base) && every_sample_has_a_round(cand);
  if (settings.all_samples || paired) return sides;
  const std::optional<double> base_level = probe_level(base);
  const std::optional<double> cand_level = probe_level(cand);
  if (base_level && cand_level && same_cpu) {
    const double level = std::min(*base_level, *cand_level);
    sides.base = steady_samples(base, level);
    sides.cand = steady_samples(cand, level);
    if (sides.base->steady.samples.size() < kMinSteadySamples ||
        sides.cand->steady.samples.size() < kMinSteadySamples) {
      sides.speed_gap = std::max(*base_level, *cand_level) / level;
      sides.base_slower = *base_level > *cand_level;
      sides.base.reset();
      sides.cand.reset();
    }
  }
  if (!sides.base) {
    sides.base = steady_samples(base);
    sides.cand = steady_samples(cand);
  }
  return sides;
}

// One side was measured only while the machine ran slower: its own steady samples are
// compared, and the interval is widened to cover the machine's part.
void widen_for_speed_gap(const SteadySides& sides, BenchmarkComparison& out) {
  // In the slow periods of the development VM, code slowed by the reference loop's factor to a
  // power of up to 2.7 (bench/verdicts/speed_trace: a sort whose data other work had evicted
  // 2.3-2.7, an L2-sized sum 0.75-1.6, allocation 0.95-1.5, a multiply chain 0.0); the power 3
  // covers it.
  const double widen = std::pow(sides.speed_gap, kSpeedGapPower);
  out.ratio_lower /= widen;
  out.ratio_upper *= widen;
  const std::string gap_note = fmt::format(
      "the {} run was measured only while the machine ran slow (a reference loop timed "
      "between samples took {:.2f}× its time in the other run), so the interval is widened "
      "by {:.2f}× to cover the machine's part; run again for a sharper answer",
      sides.base_slower ? "baseline" : "new", sides.speed_gap, widen);
  out.note = out.note.empty() ? gap_note : out.note + "; " + gap_note;
}

// A benchmark on both sides: its effect measured into `out`; true when it goes on to the
// suite's significance test, false when its verdict is already set.
bool compare_pair(const BenchmarkResult& base, const BenchmarkResult& cand, bool same_cpu,
                  const CompareSettings& settings, BenchmarkComparison& out) {
  out.baseline_median = base.estimates.median.value;
  if (mark_untestable(base, cand, out)) return false;
  const SteadySides sides = steady_sides(base, cand, same_cpu, settings);
  out.baseline_slow_samples = sides.base ? sides.base->slow : 0;
  out.candidate_slow_samples = sides.cand ? sides.cand->slow : 0;
  measure_effect(sides.base ? sides.base->steady : base, sides.cand ? sides.cand->steady : cand,
                 settings, out);
  if (sides.speed_gap > 1.0) widen_for_speed_gap(sides, out);
  if (out.design == Design::independent &&
      (by_process(base).size() > 1 || by_process(cand).size() > 1)) {
    // Several processes ran, but on each side only one of them ran at the shared machine
    // speed: what varies between processes is then unknown, so no verdict.
    out.verdict = Verdict::inconclusive;
    out.note =
        "only one process a side ran at the machine's fast speed, so the spread between "
        "processes is unknown; run again when the machine is quieter, or with more "
        "processes (--processes)";
    return false;
  }
  const auto throughput = [](const BenchmarkResult& r) {
    return r.estimates.bytes_per_second ? r.estimates.bytes_per_second
                                        : r.estimates.items_per_second;
  };
  // From the ratio the row shows, so that the two columns agree: throughput is work per
  // iteration over time per iteration, so it changes by (work ratio) / (time ratio), the work
  // per iteration being throughput × median on each side (a ratio of 1 when both do the same
  // work). The ratio of the two throughputs alone follows the medians, which a paired
  // comparison does not use: a time change of +0.9% was shown beside a throughput of -4.6%.
  if (throughput(base) && throughput(cand) && *throughput(base) > 0 &&
      base.estimates.median.value > 0 && out.ratio > 0) {
    const double work = (*throughput(cand) * cand.estimates.median.value) /
                        (*throughput(base) * base.estimates.median.value);
    out.throughput_change = work / out.ratio - 1.0;
  }
  return true;
}

// A row of one sample on a side (a hyperfine export of one run): its interval would read [r, r],
// within any threshold, so it gets no verdict and takes no part in the suite's test. True when
// it was judged so.
bool judge_single_sample(const BenchmarkResult& base, const BenchmarkResult& cand,
                         BenchmarkComparison& out) {
  if (out.design != Design::independent || (base.samples.size() >= 2 && cand.samples.size() >= 2)) {
    return false;
  }
  out.verdict = Verdict::inconclusive;
  return true;
}

// The baseline's benchmarks that the new run lacks: removed, or skipped in the baseline.
void add_baseline_only(const RunResult& baseline, std::set<std::string>& seen,
                       std::vector<BenchmarkComparison>& rows) {
  for (const BenchmarkResult& base : baseline.benchmarks) {
    if (!seen.insert(base.name).second) continue;  // compared above, or listed already
    BenchmarkComparison out;
    out.name = base.name;
    out.baseline_median = base.estimates.median.value;
    out.metric = base.metric;
    out.verdict = base.skipped ? Verdict::skipped : Verdict::removed;
    if (base.skipped) {
      out.note = fmt::format("skipped in the baseline run (--skip-tag {}): {}", base.skipped->tag,
                             base.skipped->reason);
    }
    rows.push_back(std::move(out));
  }
}

// The suite's note when a tested row's samples were taken in one sitting a side: a single
// process of micro benchmarks, or (`commands`: every row of the candidate is a whole command,
// such as a hyperfine export's) runs that were each a process of their own but all in one
// session, apart from the other side's.
void note_design(Comparison& comparison, bool commands) {
  if (std::none_of(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                   [](const BenchmarkComparison& c) {
                     return c.tested && c.design == Design::independent;
                   })) {
    return;
  }
  comparison.design_warning =
      commands
          ? "each side is one session of runs of the commands: every run was a process of its "
            "own, but what changed between the two sessions (machine load, clock speed, caches) "
            "is not in these intervals and a verdict can be a false alarm; for verdicts, run the "
            "two commands interleaved in one session: benchkit run --cmd OLD --cmd NEW "
            "(docs/commands.md)"
          : "each side ran in a single process, so what changes between runs (memory layout, "
            "machine state) is not in these intervals and a verdict can be a false alarm; run "
            "both sides with --processes 3 or more (the default when saving or comparing "
            "baselines)";
}

// The suite's note when the two runs have benchmarks but none of the same name (a suite whose
// names changed between two revisions: snappy's BM_UFlat/0 became BM_UFlat/0/1): nothing was
// compared, which a table of only `added` and `removed` rows does not say by itself.
void note_no_common_name(Comparison& comparison) {
  const BenchmarkComparison* removed = nullptr;
  const BenchmarkComparison* added = nullptr;
  std::size_t removed_count = 0;
  std::size_t added_count = 0;
  for (const BenchmarkComparison& c : comparison.benchmarks) {
    if (c.verdict == Verdict::removed) {
      if (removed_count++ == 0) removed = &c;
    } else if (c.verdict == Verdict::added) {
      if (added_count++ == 0) added = &c;
    } else {
      return;  // a name both runs have
    }
  }
  if (!removed || !added) return;
  const std::string note = fmt::format(
      "no benchmark has the same name in both runs ({} only in the baseline, e.g. {}; {} only in "
      "the new one, e.g. {}), so nothing was compared: a benchmark is compared with the one of "
      "its name, and one renamed between the two runs is added and removed",
      removed_count, removed->name, added_count, added->name);
  comparison.design_warning =
      comparison.design_warning.empty() ? note : comparison.design_warning + "; " + note;
}

// The suite's note on samples left out for the machine's speed (none: no note).
void note_speed(Comparison& comparison) {
  std::size_t base_slow = 0;
  std::size_t cand_slow = 0;
  for (const BenchmarkComparison& c : comparison.benchmarks) {
    base_slow += c.baseline_slow_samples;
    cand_slow += c.candidate_slow_samples;
  }
  comparison.speed_note.clear();
  if (base_slow + cand_slow > 0) {
    comparison.speed_note = fmt::format(
        "the machine ran slow during {} of the baseline's samples and {} of the new run's (a "
        "reference loop timed between samples ran over {:.2f}× its usual time); they were left "
        "out, so both sides are compared at one machine speed (--all-samples keeps them)",
        base_slow, cand_slow, kSlowProbeFactor);
  }
}

// The smallest p-value of n paired rounds (the exact signed-rank test) times the adjustment's
// factor `family`.
double smallest_adjusted_p(double family, std::size_t pairs) {
  return family * 2.0 / std::pow(2.0, static_cast<double>(pairs));
}

// What an inconclusive verdict lacks, in its note: rounds that can reach significance after
// the adjustment, or what would settle or sharpen it.
void explain_inconclusive(BenchmarkComparison& c, double family, std::size_t tested_count,
                          bool scenario, const CompareSettings& settings) {
  if (c.design == Design::paired && c.pairs < 50 &&
      smallest_adjusted_p(family, c.pairs) >= paired_level(settings, c.pairs)) {
    std::size_t rounds_needed = 1;
    while (rounds_needed < 50 &&
           smallest_adjusted_p(family, rounds_needed) >= paired_level(settings, rounds_needed)) {
      ++rounds_needed;
    }
    c.note = fmt::format(
        "{} paired rounds cannot be significant after adjusting over {} benchmarks (the "
        "smallest p-value of {} pairs is {:.2g}, {:.2g} once adjusted",
        c.pairs, tested_count, c.pairs, 2.0 / std::pow(2.0, static_cast<double>(c.pairs)),
        std::min(1.0, smallest_adjusted_p(family, c.pairs)));
    if (c.level > 0.0) {
      c.note += fmt::format(", against {:.2g} at this look of the sequential design", c.level);
    }
    c.note += fmt::format("); run at least {} rounds", rounds_needed);
    return;
  }
  const double upper_threshold = 1.0 + noise_threshold_for(c, settings);
  const double lower_threshold = 1.0 - noise_threshold_for(c, settings);
  const bool beyond = c.ratio_lower > upper_threshold || c.ratio_upper < lower_threshold;
  const std::string advice = beyond ? fmt::format(
                                          "the change lies beyond the noise threshold but is not "
                                          "significant after adjustment (p = {:.2g}); more "
                                          "processes or samples would settle it",
                                          c.p_adjusted)
                                    : sharpen_advice(c, settings, scenario);
  c.note = c.note.empty() ? advice : c.note + "; " + advice;
}

// An inconclusive paired row under --mde: whether the planned power was reached (the change,
// if any, is then smaller than what matters), or how many rounds it would take.
void note_power_plan(BenchmarkComparison& c, const CompareSettings& settings) {
  if (!c.planned_rounds) return;
  const RoundsForPower& plan = *c.planned_rounds;
  const std::string target =
      fmt::format("{:.0f}% power at a change of {:g}% (beyond ±{:g}%)", settings.power * 100.0,
                  settings.mde * 100.0, settings.noise_threshold * 100.0);
  if (planned_power_reached(c)) {
    // More rounds would only chase a smaller change: the advice to run them does not apply.
    c.note = fmt::format(
        "the planned power was reached ({} rounds give {}, {} were planned from the rounds' "
        "scatter): a change that matters would most likely have been found, so this one is "
        "smaller or absent",
        c.pairs, target, plan.rounds);
    return;
  }
  const std::string text = fmt::format(
      "the planned power was not reached: {} rounds give {}, {} were run{}", plan.rounds, target,
      c.pairs,
      plan.within_cap ? "" : fmt::format(" (raise --max-rounds to at least {})", plan.rounds));
  c.note = c.note.empty() ? text : c.note + "; " + text;
}

// A row of two runs of which one at least is a single process of a program that repeats its
// benchmarks itself (model::kOneProcessRepetitions: a Google Benchmark file), compared sample
// against sample: its repetitions share that process's memory layout and machine state, so
// their spread leaves out what changes from one run of the program to the next (about 5% for a
// compute-bound loop on the development VM, docs/noise.md), and a test on them gave false alarms
// of 3-7% on A/A files. The ratio is kept, with no interval, test or verdict. True when the row
// was judged so (it then takes no part in the suite's test).
bool judge_one_process(BenchmarkComparison& out, Comparison& comparison) {
  if (out.design != Design::independent) return false;
  out.verdict = Verdict::inconclusive;
  out.ratio_lower = out.ratio;
  out.ratio_upper = out.ratio;
  out.p_value = 1.0;
  out.minimum_detectable_change.reset();
  out.note =
      "each side is one process of the suite (its repetitions ran in that process), so "
      "nothing measured what varies between runs: no verdict; run the two builds side by side "
      "for one: benchkit compare OLD_BINARY NEW_BINARY";
  comparison.design_warning =
      "Google Benchmark ran each file's repetitions in one process: they are not independent "
      "runs, and a difference between two such files can come from the processes alone (memory "
      "layout, machine state; false alarms of 3-7% on two files of one build), so no verdict is "
      "given; for verdicts, give compare the two binaries (benchkit compare OLD_BINARY "
      "NEW_BINARY): it runs them side by side in paired rounds of fresh processes";
  return true;
}

// A row of a side-by-side comparison (every sample of both sides carries its round) with fewer
// rounds than a paired interval needs (kMinPairedRounds: an interrupted comparison, or --rounds 3
// --max-rounds 3). Its processes, a handful a side, say too little about what varies between
// process pairs for a verdict either way: one round is one process a side, whose samples (Google
// Benchmark's repetitions, a bench binary's turns) share that process's layout and machine
// state (a compare of one flatbuffers build with itself, stopped by Ctrl-C after its first
// round, called rows +29.9% regressed and -51.3% improved in 3 of 10 trials), and two rounds
// called rows `unchanged` from two processes a side. The ratio is kept, with the processes'
// interval (none for one round), but no test or verdict. True when the row was judged so.
bool judge_few_rounds(const BenchmarkResult& base, const BenchmarkResult& cand,
                      BenchmarkComparison& out) {
  if (out.design == Design::paired || out.design == Design::exact ||
      !every_sample_has_a_round(base) || !every_sample_has_a_round(cand)) {
    return false;
  }
  const std::size_t rounds = std::max<std::size_t>(out.pairs, 1);
  out.verdict = Verdict::inconclusive;
  if (out.design == Design::independent) {
    out.ratio_lower = out.ratio;
    out.ratio_upper = out.ratio;
  }
  out.p_value = 1.0;
  out.minimum_detectable_change.reset();
  out.note = fmt::format(
      "{} round{} of the side-by-side comparison, fewer than the {} a verdict needs: {}; no "
      "verdict; run at least {} rounds (--rounds, --max-rounds)",
      rounds, rounds == 1 ? "" : "s", kMinPairedRounds,
      rounds == 1 ? "one process a side, so nothing measured what varies between processes"
                  : "too few processes a side to tell what varies between them",
      kMinPairedRounds);
  return true;
}

// A row of two runs of several processes each, made apart, where neither side read the
// machine's speed (a Google Benchmark binary's processes run by `benchkit run`: they time
// themselves, and no reference loop ran between their samples): the processes' spread is within
// each run, and what changed between the two runs (load, clock speed, a neighbour on the core)
// shifts every process of one side alike. Without the speed cut such comparisons gave false
// alarms of 8.9% at 3 processes (docs/verdicts.md, `--all-samples`), and two runs of one
// snappy build, five processes each, called a row improved by 4.6% (p 0.014). The ratio and
// interval are kept, with no test or verdict. True when the row was judged so.
bool judge_without_speed(const BenchmarkResult& base, const BenchmarkResult& cand,
                         const CompareSettings& settings, BenchmarkComparison& out,
                         Comparison& comparison) {
  // Side by side (rounds on both sides, too few to pair), the two builds met the same machine.
  const bool together = every_sample_has_a_round(base) && every_sample_has_a_round(cand);
  if (out.design != Design::processes || settings.all_samples || together || cand.kind != "micro" ||
      !cand.metric.empty() || probe_level(base) || probe_level(cand)) {
    return false;
  }
  out.verdict = Verdict::inconclusive;
  out.p_value = 1.0;
  out.minimum_detectable_change.reset();
  out.note =
      "the two runs were made apart and neither read the machine's speed, so the interval holds "
      "the spread of each run's processes but not what changed between the runs: no verdict; "
      "run the two builds side by side for one: benchkit compare OLD_BINARY NEW_BINARY";
  comparison.design_warning =
      "each side is a run of several processes made apart from the other, and neither read the "
      "machine's speed (a Google Benchmark binary's processes time themselves): what changed "
      "between the two runs (load, clock speed) shifts all of one side's processes alike and is "
      "not in the intervals (false alarms of about 9% at ±2% without the speed cut, "
      "docs/verdicts.md), so no verdict is given; for verdicts, give compare the two binaries "
      "(benchkit compare OLD_BINARY NEW_BINARY), or save a baseline (--save-baseline) and run "
      "with --baseline: both run the builds side by side in paired rounds of fresh processes";
  return true;
}

}  // namespace

double noise_threshold_for(const BenchmarkComparison& c, const CompareSettings& settings) {
  return c.metric.empty() ? settings.noise_threshold : settings.count_noise_threshold;
}

Verdict verdict_for(const BenchmarkComparison& c, const CompareSettings& settings) {
  if (!c.level_reached) return Verdict::inconclusive;
  const double threshold = noise_threshold_for(c, settings);
  const bool significant = c.p_adjusted < (c.level > 0.0 ? c.level : settings.alpha);
  if (significant && c.ratio_lower > 1.0 + threshold) return Verdict::regressed;
  if (significant && c.ratio_upper < 1.0 - threshold) return Verdict::improved;
  if (c.ratio_lower >= 1.0 - threshold && c.ratio_upper <= 1.0 + threshold) {
    return Verdict::unchanged;
  }
  return Verdict::inconclusive;
}

std::vector<double> adjust_p_values(const std::vector<double>& p, Adjustment adjustment) {
  switch (adjustment) {
    case Adjustment::holm:
      return stats::holm_adjusted(p);
    case Adjustment::benjamini_hochberg:
      return stats::benjamini_hochberg_adjusted(p);
    case Adjustment::none:
      return p;
  }
  return p;
}

void order_for_report(std::vector<BenchmarkComparison>& benchmarks) {
  // Regressions first, then invalid, improvements, inconclusive, unchanged, added, removed,
  // skipped.
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::regressed:
        return 0;
      case Verdict::invalid:
        return 1;
      case Verdict::improved:
        return 1;
      case Verdict::inconclusive:
        return 2;
      case Verdict::unchanged:
        return 3;
      case Verdict::added:
        return 4;
      case Verdict::removed:
        return 5;
      case Verdict::skipped:
        return 6;
    }
    return 7;
  };
  std::stable_sort(benchmarks.begin(), benchmarks.end(),
                   [&](const BenchmarkComparison& a, const BenchmarkComparison& b) {
                     if (rank(a.verdict) != rank(b.verdict))
                       return rank(a.verdict) < rank(b.verdict);
                     return a.name < b.name;
                   });
}

void judge_suite(Comparison& comparison) {
  const CompareSettings& settings = comparison.settings;
  std::vector<BenchmarkComparison*> tested;
  std::vector<double> p_values;
  for (BenchmarkComparison& c : comparison.benchmarks) {
    if (!c.tested) continue;
    tested.push_back(&c);
    p_values.push_back(c.p_value);
  }
  // A shard's looks count the whole suite: the other shards' benchmarks as p = 1.
  const std::size_t suite = std::max(tested.size(), settings.suite_size);
  p_values.resize(suite, 1.0);
  std::vector<double> adjusted = adjust_p_values(p_values, settings.adjustment);
  adjusted.resize(tested.size());
  // The exact signed-rank test on n pairs cannot go below p = 2 / 2^n; the adjustment multiplies
  // the smallest p-value by the number of benchmarks tested (Holm and BH alike).
  const double family = settings.adjustment == Adjustment::none
                            ? 1.0
                            : static_cast<double>(std::max<std::size_t>(1, suite));
  for (std::size_t i = 0; i < tested.size(); ++i) {
    BenchmarkComparison& c = *tested[i];
    c.note = c.effect_note;
    c.p_adjusted = adjusted[i];
    c.verdict = verdict_for(c, settings);
    if (c.verdict == Verdict::inconclusive) {
      explain_inconclusive(c, family, suite, c.scenario, settings);
      note_power_plan(c, settings);
    }
  }
  note_speed(comparison);
  order_for_report(comparison.benchmarks);
}

Comparison compare(const RunResult& baseline, const RunResult& candidate,
                   const CompareSettings& settings) {
  Comparison comparison;
  comparison.settings = settings;
  std::map<std::string, const BenchmarkResult*> base_by_name;
  for (const BenchmarkResult& b : baseline.benchmarks) base_by_name[b.name] = &b;
  std::set<std::string> seen;
  const bool same_cpu = baseline.context.cpu_model == candidate.context.cpu_model;
  const bool one_process = model::has_one_process_warning(baseline.context) ||
                           model::has_one_process_warning(candidate.context);

  for (const BenchmarkResult& cand : candidate.benchmarks) {
    BenchmarkComparison out = new_row(cand);
    const auto found = base_by_name.find(cand.name);
    const BenchmarkResult* base_found = found == base_by_name.end() ? nullptr : found->second;
    if (cand.skipped || (base_found && base_found->skipped)) {
      if (base_found) seen.insert(cand.name);
      mark_skipped(cand, base_found, out);
      comparison.benchmarks.push_back(std::move(out));
      continue;
    }
    if (found == base_by_name.end()) {
      out.verdict = Verdict::added;
      comparison.benchmarks.push_back(std::move(out));
      continue;
    }
    seen.insert(cand.name);
    if (compare_pair(*found->second, cand, same_cpu, settings, out) &&
        !(one_process && judge_one_process(out, comparison)) &&
        !judge_few_rounds(*found->second, cand, out) &&
        !judge_without_speed(*found->second, cand, settings, out, comparison) &&
        !judge_single_sample(*found->second, cand, out)) {
      out.tested = true;
      out.scenario = cand.kind == "scenario";
      out.effect_note = out.note;
    }
    comparison.benchmarks.push_back(std::move(out));
  }
  add_baseline_only(baseline, seen, comparison.benchmarks);
  note_design(comparison,
              !candidate.benchmarks.empty() &&
                  std::all_of(candidate.benchmarks.begin(), candidate.benchmarks.end(),
                              [](const BenchmarkResult& b) { return b.kind == "command"; }));
  note_no_common_name(comparison);
  judge_suite(comparison);
  return comparison;
}

std::vector<double> sequential_levels(std::size_t first_look, std::size_t max_rounds,
                                      double alpha) {
  first_look = std::max<std::size_t>(1, first_look);
  if (max_rounds < first_look) first_look = max_rounds = std::max<std::size_t>(1, max_rounds);
  std::vector<double> information;
  for (std::size_t n = first_look; n <= max_rounds; ++n) {
    information.push_back(static_cast<double>(n) / static_cast<double>(max_rounds));
  }
  // Pocock type, not O'Brien–Fleming type: most benchmarks settle at the first looks, and the
  // exact signed-rank test of n rounds cannot go below p = 2/2^n, so a design that spends
  // almost nothing early (O'Brien–Fleming: 4e-9 at 10 of 90 rounds) could not stop any
  // benchmark before about 30 rounds (docs/verdicts.md, "Sequential looks").
  const stats::SequentialBoundary boundary =
      stats::group_sequential_boundary(information, alpha, stats::Spending::pocock);
  std::vector<double> levels(max_rounds + 1, boundary.nominal_alpha.front());
  for (std::size_t k = 0; k < boundary.nominal_alpha.size(); ++k) {
    levels[first_look + k] = boundary.nominal_alpha[k];
  }
  return levels;
}

double paired_level(const CompareSettings& settings, std::size_t rounds) {
  const std::vector<double>& levels = settings.sequential_alpha;
  if (levels.empty()) return settings.alpha;
  return levels[std::min(rounds, levels.size() - 1)];
}

BenchmarkComparison compare_rounds(std::span<const double> base_rounds,
                                   std::span<const double> candidate_rounds,
                                   const CompareSettings& settings,
                                   const std::vector<bool>& baseline_first) {
  BenchmarkComparison out;
  out.baseline_median = stats::median(base_rounds);
  paired_effect({base_rounds.begin(), base_rounds.end()},
                {candidate_rounds.begin(), candidate_rounds.end()}, baseline_first, settings, out,
                /*with_power=*/false);
  out.p_adjusted = out.p_value;
  out.verdict = verdict_for(out, settings);
  return out;
}

bool wants_more_rounds(const BenchmarkComparison& c) {
  // Under --mde, a benchmark with the rounds planned for it has the power asked for: more
  // rounds would only chase a change smaller than what matters.
  return c.verdict == Verdict::inconclusive && !planned_power_reached(c);
}

std::vector<std::string> unsettled(const RunResult& baseline, const RunResult& candidate,
                                   const CompareSettings& settings) {
  std::vector<std::string> names;
  for (const BenchmarkComparison& c : compare(baseline, candidate, settings).benchmarks) {
    if (wants_more_rounds(c)) names.push_back(c.name);
  }
  return names;
}

}  // namespace benchkit::analysis
