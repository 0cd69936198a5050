// Merging the results of one suite run in several processes into one result.
#pragma once

#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::model {

// Appends the samples of every benchmark of every run, numbering each run's samples with its
// process index (0, 1, ...), in the order of the first run's benchmarks (benchmarks that only
// later runs have follow). Warm-up and untimed totals add up; peak memory is the largest;
// diagnostics and run warnings are the union by code, failures the union of the messages. The
// context is the first run's. Exact counts must agree (model/exact_counts.hpp): a benchmark
// whose counts differ between processes, or from other benchmarks' counts of the same input,
// fails. Estimates are not recomputed here (model does no statistics): call
// compute_estimates.
// With more than one run, the kOneProcessRepetitions warning is dropped: the samples then come
// from several processes; and the benchmarks' kAggregatesOnly diagnostics become one run note
// (note_aggregates_per_process).
RunResult merge_processes(const std::vector<RunResult>& runs);

// Another process's (or round's) counters of the same benchmark into `into`, which held
// `into_samples` samples before `from`'s `from_samples`: a per_iteration counter is a total over
// the iterations its process ran, and the merged result divides by every process's iterations,
// so the totals add; any other counter is a value per iteration (or a plain value, a mean over a
// Google Benchmark file's iteration rows), so the merged value is the mean over every sample,
// each process's value weighted by its samples (at least one). The last label read is kept.
void merge_counters(BenchmarkResult& into, std::size_t into_samples, const BenchmarkResult& from,
                    std::size_t from_samples);

// The code of the run warning that says every sample of the run was taken in one process of a
// program that repeats its benchmarks itself (a Google Benchmark file's repetitions): the
// samples show the spread within that process, not between runs of the program, so a
// comparison of two such runs has nothing to judge a change against (analysis/compare.hpp).
inline constexpr const char* kOneProcessRepetitions = "one_process_repetitions";
bool has_one_process_warning(const Context& context);

// The code of the diagnostic of a benchmark of which Google Benchmark wrote only aggregates (its
// code calls ReportAggregatesOnly(), or --benchmark_report_aggregates_only): its run holds one
// sample, their median, and a file of it has no spread to test.
inline constexpr const char* kAggregatesOnly = "aggregates_only";
// The code of the diagnostic of a name that several registrations of a Google Benchmark suite
// share: benchkit keys a benchmark by its name, so their samples are pooled as one benchmark's.
inline constexpr const char* kDuplicateName = "duplicate_name";
// The code of the diagnostic of a Google Benchmark row whose items_per_second or
// bytes_per_second gives a fraction of an item or byte per iteration (formats/gbench_json.hpp):
// no throughput is kept for it.
inline constexpr const char* kWorkNotPerIteration = "work_not_per_iteration";
// Whether `result`'s samples are several benchmarks' that share its name (kDuplicateName): their
// order, spread and processes are then of those benchmarks, not one's shape.
bool pools_several_benchmarks(const BenchmarkResult& result);
// The code of the run note that replaces them once the run's samples come from several
// processes, each process's aggregate a sample.
inline constexpr const char* kAggregatesPerProcess = "aggregates_per_process";
// A run whose samples come from several processes (merged, or a process per round side by
// side): its benchmarks' kAggregatesOnly warnings, true of one file but not of this run, give
// way to one kAggregatesPerProcess note naming how many benchmarks gave a sample a process.
void note_aggregates_per_process(RunResult& run);
void drop_one_process_warning(Context& context);

}  // namespace benchkit::model
