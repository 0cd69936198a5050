#include "analysis/machine_speed.hpp"

#include "analysis/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace benchkit::analysis {

std::optional<double> probe_level(const BenchmarkResult& result) {
  std::vector<double> readings;
  for (const Sample& sample : result.samples) {
    if (sample.probe_ns) readings.push_back(*sample.probe_ns);
  }
  if (readings.empty()) return std::nullopt;
  std::sort(readings.begin(), readings.end());
  if (readings.size() < kMinSteadySamples) return readings.front();
  // The fastest reading with kMinSteadySamples readings within kSlowProbeFactor of it: a speed
  // the machine kept for a while, not a passing moment.
  for (std::size_t i = 0; i + kMinSteadySamples <= readings.size(); ++i) {
    if (readings[i + kMinSteadySamples - 1] <= readings[i] * kSlowProbeFactor) return readings[i];
  }
  return readings.front();
}

SteadySelection steady_samples(const BenchmarkResult& result, double level) {
  SteadySelection selection;
  selection.level = level;
  selection.steady = result;
  selection.steady.samples.clear();
  const double cutoff = level * kSlowProbeFactor;
  for (const Sample& sample : result.samples) {
    if (sample.probe_ns && level > 0.0 && *sample.probe_ns > cutoff) {
      ++selection.slow;
      selection.slowest = std::max(selection.slowest, *sample.probe_ns / level);
      continue;
    }
    selection.steady.samples.push_back(sample);
  }
  return selection;
}

SteadySelection steady_samples(const BenchmarkResult& result) {
  const std::optional<double> level = probe_level(result);
  if (level) {
    SteadySelection selection = steady_samples(result, *level);
    if (selection.steady.samples.size() >= kMinSteadySamples || selection.slow == 0) {
      return selection;
    }
  }
  SteadySelection everything;
  everything.steady = result;
  everything.level = level.value_or(0.0);
  return everything;
}

std::vector<bool> slow_sample_flags(const BenchmarkResult& result) {
  std::vector<bool> slow(result.samples.size(), false);
  const SteadySelection selection = steady_samples(result);
  if (selection.slow == 0) return slow;
  const double cutoff = selection.level * kSlowProbeFactor;
  for (std::size_t i = 0; i < result.samples.size(); ++i) {
    const auto& probe = result.samples[i].probe_ns;
    slow[i] = probe && *probe > cutoff;
  }
  return slow;
}

std::optional<double> run_probe_level(const RunResult& run) {
  std::optional<double> fastest;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    const std::optional<double> level = probe_level(benchmark);
    if (level && (!fastest || *level < *fastest)) fastest = level;
  }
  return fastest;
}

namespace {

// The first few names, then how many more.
std::string list_names(const std::vector<std::string>& names) {
  constexpr std::size_t kNamed = 5;
  std::string text;
  for (std::size_t i = 0; i < std::min(kNamed, names.size()); ++i) {
    text += (i > 0 ? ", " : "") + names[i];
  }
  if (names.size() > kNamed) text += fmt::format(" and {} more", names.size() - kNamed);
  return text;
}

}  // namespace

void note_machine_speed(RunResult& run) {
  auto drop = [](std::vector<Diagnostic>& list, const char* code) {
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const Diagnostic& d) { return d.code == code; }),
               list.end());
  };
  drop(run.context.warnings, code::machine_speed);
  const std::optional<double> run_level = run_probe_level(run);
  if (!run_level) return;
  std::size_t total = 0;
  std::size_t slow = 0;
  double slowest = 1.0;
  std::vector<std::string> all_slow;     // benchmarks measured only while the machine ran slow
  std::vector<std::string> mostly_slow;  // ... at their fast speed in fewer than half the samples
  for (BenchmarkResult& benchmark : run.benchmarks) {
    const std::optional<double> level = probe_level(benchmark);
    if (!level) continue;
    total += benchmark.samples.size();
    slow += benchmark.estimates.slow_samples;
    const double ratio = *level / *run_level;
    const bool only_slow = ratio > kSlowProbeFactor;  // named below, with more withheld
    if (!only_slow && 2 * benchmark.estimates.slow_samples > benchmark.samples.size()) {
      // Its fast samples are the minority, taken in the machine's brief fast moments scattered
      // through the run: their spread and groups are the machine switching speed.
      mostly_slow.push_back(fmt::format("{} ({} of {})", benchmark.name,
                                        benchmark.samples.size() - benchmark.estimates.slow_samples,
                                        benchmark.samples.size()));
      for (const char* shape : {code::unstable, code::multimodal})
        drop(benchmark.diagnostics, shape);
    }
    // compute_estimates left out the samples read above kSlowProbeFactor × this level: the
    // slowest of them is the slowest reading.
    if (benchmark.estimates.slow_samples > 0) {
      double highest = 0.0;
      for (const Sample& sample : benchmark.samples) {
        if (sample.probe_ns) highest = std::max(highest, *sample.probe_ns);
      }
      slowest = std::max(slowest, highest / *level);
    }
    if (!only_slow) continue;
    slowest = std::max(slowest, ratio);
    all_slow.push_back(fmt::format("{} ({:.2f}×)", benchmark.name, ratio));
    // Its shape is the slow machine's: spread, modes and trends of a neighbour's load say
    // nothing about the benchmark, so those flags are withheld (the warning below says so).
    for (const char* shape : {code::unstable, code::multimodal, code::drift})
      drop(benchmark.diagnostics, shape);
  }
  if (slow == 0 && all_slow.empty()) return;
  std::string text = fmt::format(
      "the machine ran slow during {} of {} samples ({:.0f}%): a reference loop timed between "
      "samples took up to {:.1f}× its fastest time (another program, or a neighbour on the same "
      "physical core of a virtual machine). Those samples stay in the results but are left out "
      "of medians, diagnostics and comparisons (docs/verdicts.md, \"Machine speed\")",
      slow, total,
      100.0 * static_cast<double>(slow) / static_cast<double>(std::max<std::size_t>(1, total)),
      slowest);
  if (!mostly_slow.empty()) {
    text += fmt::format(
        ". {} {} at the fast speed in fewer than half {} samples ({}): {} unstable and "
        "multimodal flags are withheld, since the fast samples are scattered through the run",
        mostly_slow.size(),
        mostly_slow.size() == 1 ? "benchmark was measured" : "benchmarks were measured",
        mostly_slow.size() == 1 ? "its" : "their", list_names(mostly_slow),
        mostly_slow.size() == 1 ? "its" : "their");
  }
  if (!all_slow.empty()) {
    const std::string names = list_names(all_slow);
    text += fmt::format(
        ". {} {} measured only while it ran slow ({}): {} likely too high and {} "
        "unstable/multimodal/drift flags are withheld; run again when the machine is quiet, or "
        "raise --time-budget so that each benchmark spans a fast period",
        all_slow.size(), all_slow.size() == 1 ? "benchmark was" : "benchmarks were", names,
        all_slow.size() == 1 ? "its median is" : "their medians are",
        all_slow.size() == 1 ? "its" : "their");
  }
  run.context.warnings.push_back(Diagnostic{code::machine_speed, "warning", std::move(text)});
}

}  // namespace benchkit::analysis
