#include "model/merge.hpp"

#include "model/exact_counts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace benchkit::model {
namespace {

void keep_max(std::optional<std::int64_t>& into, const std::optional<std::int64_t>& from) {
  if (from && (!into || *from > *into)) into = from;
}

void add_unique(std::vector<Diagnostic>& into, const std::vector<Diagnostic>& from) {
  for (const Diagnostic& d : from) {
    const bool present = std::any_of(into.begin(), into.end(),
                                     [&](const Diagnostic& e) { return e.code == d.code; });
    if (!present) into.push_back(d);
  }
}

}  // namespace

void merge_counters(BenchmarkResult& into, std::size_t into_samples, const BenchmarkResult& from,
                    std::size_t from_samples) {
  const double before = static_cast<double>(std::max<std::size_t>(into_samples, 1));
  const double added = static_cast<double>(std::max<std::size_t>(from_samples, 1));
  for (const auto& [name, value] : from.counters) {
    if (std::isnan(value)) continue;  // no value to weigh in (a Google Benchmark file's NaN)
    const auto held = into.counters.find(name);
    if (held == into.counters.end() || std::isnan(held->second)) {
      into.counters[name] = value;
      continue;
    }
    const auto kind = from.counter_kinds.find(name);
    const bool total =
        kind != from.counter_kinds.end() && counter::has(kind->second, counter::per_iteration);
    held->second =
        total ? held->second + value : (held->second * before + value * added) / (before + added);
  }
  for (const auto& [name, kind] : from.counter_kinds) into.counter_kinds[name] = kind;
  if (!from.label.empty()) into.label = from.label;
}

RunResult merge_processes(const std::vector<RunResult>& runs) {
  RunResult merged;
  if (runs.empty()) return merged;
  merged.context = runs.front().context;
  // Fits another tool made (an imported Google Benchmark BigO row), from the first process;
  // benchkit's own are refitted on the merged samples (analysis::fit_complexity).
  for (const ComplexityResult& fit : runs.front().complexity) {
    if (!fit.source.empty()) merged.complexity.push_back(fit);
  }
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::size_t> first_process;  // where each benchmark was first seen
  for (std::size_t process = 0; process < runs.size(); ++process) {
    const RunResult& run = runs[process];
    add_unique(merged.context.warnings, run.context.warnings);
    keep_max(merged.context.process_peak_rss_bytes, run.context.process_peak_rss_bytes);
    for (const BenchmarkResult& benchmark : run.benchmarks) {
      auto found = index.find(benchmark.name);
      if (found == index.end()) {
        index[benchmark.name] = merged.benchmarks.size();
        first_process[benchmark.name] = process;
        BenchmarkResult copy = benchmark;
        for (Sample& sample : copy.samples) sample.process = static_cast<std::uint32_t>(process);
        merged.benchmarks.push_back(std::move(copy));
        continue;
      }
      BenchmarkResult& into = merged.benchmarks[found->second];
      merge_counters(into, into.samples.size(), benchmark, benchmark.samples.size());
      for (Sample sample : benchmark.samples) {
        sample.process = static_cast<std::uint32_t>(process);
        into.samples.push_back(std::move(sample));
      }
      into.warm_up_iters += benchmark.warm_up_iters;
      into.warm_up_ns += benchmark.warm_up_ns;
      into.untimed_ns += benchmark.untimed_ns;
      keep_max(into.memory.peak_rss_bytes, benchmark.memory.peak_rss_bytes);
      keep_max(into.memory.rss_growth_bytes, benchmark.memory.rss_growth_bytes);
      add_unique(into.diagnostics, benchmark.diagnostics);
      // A result that failed its checks in any process is invalid as a whole.
      for (const std::string& failure : benchmark.failures) add_failure(into, failure);
      if (benchmark.failure && !into.failure) into.failure = benchmark.failure;
      if (auto disagreement =
              count_disagreement("process", into.exact_counts, first_process[benchmark.name],
                                 benchmark.exact_counts, process)) {
        add_failure(into, std::move(*disagreement));
      }
    }
  }
  check_exact_counts(merged.benchmarks);
  if (runs.size() > 1) {
    drop_one_process_warning(merged.context);
    note_aggregates_per_process(merged);
  }
  return merged;
}

bool pools_several_benchmarks(const BenchmarkResult& result) {
  return std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& d) { return d.code == kDuplicateName; });
}

bool has_one_process_warning(const Context& context) {
  return std::any_of(context.warnings.begin(), context.warnings.end(),
                     [](const Diagnostic& d) { return d.code == kOneProcessRepetitions; });
}

void note_aggregates_per_process(RunResult& run) {
  std::size_t count = 0;
  std::string first;
  for (BenchmarkResult& benchmark : run.benchmarks) {
    const auto removed = std::erase_if(
        benchmark.diagnostics, [](const Diagnostic& d) { return d.code == kAggregatesOnly; });
    if (removed == 0) continue;
    if (count == 0) first = benchmark.name;
    ++count;
  }
  if (count == 0) return;
  std::erase_if(run.context.warnings,
                [](const Diagnostic& d) { return d.code == kAggregatesPerProcess; });
  run.context.warnings.push_back(Diagnostic{
      kAggregatesPerProcess, "info",
      fmt::format(
          "Google Benchmark wrote only the aggregates of {} (the code calls "
          "ReportAggregatesOnly(), or the suite ran with "
          "--benchmark_report_aggregates_only): each process gave one sample of {}, the "
          "median of its repetitions there, so {} spread and interval are those between "
          "processes",
          count == 1 ? first + "'s repetitions" : fmt::format("{} benchmarks' repetitions", count),
          count == 1 ? "it" : "each", count == 1 ? "its" : "their")});
}

void drop_one_process_warning(Context& context) {
  std::erase_if(context.warnings,
                [](const Diagnostic& d) { return d.code == kOneProcessRepetitions; });
}

}  // namespace benchkit::model
