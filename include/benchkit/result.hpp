// The values a run produces: raw samples, estimates, diagnostics and the run's context.
// Micro benchmarks, scenario phases and commands all produce this one shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/counter.hpp"

namespace benchkit {

// Resources one whole process run (kind "command") or one scenario phase used, from wait4 /
// getrusage and /proc. Every field is optional: absent when it was not measured.
struct Resources {
  std::optional<double> user_ns;    // CPU time in user mode
  std::optional<double> system_ns;  // CPU time in the kernel
  std::optional<std::int64_t> peak_rss_bytes;
  std::optional<std::int64_t> rss_change_bytes;  // resident set after minus before (phases)
  std::optional<std::int64_t> minor_faults;
  std::optional<std::int64_t> major_faults;
  std::optional<std::int64_t> voluntary_switches;
  std::optional<std::int64_t> involuntary_switches;
  std::optional<int> exit_code;  // a command that exited
  std::optional<int> signal;     // a command that a signal ended
  bool timed_out = false;        // a command stopped by --timeout
};

// One sample: `iters` iterations that took `ns` nanoseconds, as read from the clock (before
// any overhead is subtracted). `counters` holds per-sample hardware counters when they were
// available (instructions, cycles, branches, branch_misses) and allocation counts when the
// benchkit::alloc target is linked (allocations, allocated_bytes); all totals for the sample.
struct Sample {
  std::uint64_t iters = 1;
  double ns = 0.0;
  std::map<std::string, double> counters;
  // Which worker process took the sample (0 for a single-process run): with several, the
  // process, not the sample, is the unit of variation when comparing.
  std::uint32_t process = 0;
  // The round of an interleaved run (A B B A ...): samples of two runs with the same round
  // were taken side by side and are compared as pairs.
  std::optional<std::uint32_t> round;
  // For commands and scenario phases: CPU time, memory, faults and exit status of this sample.
  std::optional<Resources> resources;
  // Micro benchmarks: how long a fixed reference loop took around this sample (the slower of
  // the readings just before and just after it). A shared machine switches between speeds for
  // seconds at a time (a busy neighbour on the same physical core); samples taken while the
  // reference loop ran slow are left out of estimates and comparisons (docs/verdicts.md).
  std::optional<double> probe_ns;
  // When the sides of a round ran one after the other, each in processes of its own (Google
  // Benchmark binaries side by side, commands in rounds): this side's place in its round, 0 for
  // the first. Two sides of a round in different places are compared as an AB/BA crossover,
  // which cancels a second process running faster than the first (docs/verdicts.md).
  std::optional<std::uint32_t> turn;
};

// A point estimate with the bounds of its confidence interval (equal to the estimate when no
// interval could be computed, for instance with a single sample).
struct Estimate {
  double value = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  double confidence = 0.95;
};

// Everything derived from the samples; recomputed from them when a result file omits it.
// All times are nanoseconds per iteration after overhead subtraction.
struct Estimates {
  Estimate median;
  Estimate mean;
  double min = 0.0;
  double max = 0.0;
  double stddev = 0.0;
  double mad = 0.0;  // median absolute deviation, scaled by 1.4826 to estimate sigma
  double iqr = 0.0;
  double mdape = 0.0;  // median absolute percentage error around the median, as a fraction
  std::size_t outliers_low = 0;
  std::size_t outliers_high = 0;
  std::size_t outliers_severe = 0;
  double outlier_variance = 0.0;  // share of the variance explained by outliers, 0..1
  std::optional<double> bytes_per_second;
  std::optional<double> items_per_second;
  // Samples left out because the machine ran slow while they were taken (see Sample::probe_ns);
  // every estimate above is computed from the others.
  std::size_t slow_samples = 0;
  // With samples from several processes (--processes, benchkit run): the share of a sample's
  // variance that is between processes (analysis::between_process_share), 0..1.
  std::optional<double> between_process_share;
};

// A typed finding about a measurement, with advice on what to do about it.
struct Diagnostic {
  std::string code;      // stable identifier, e.g. "few_samples"
  std::string severity;  // "info", "warning"
  std::string message;   // what was seen and what to do, in one or two sentences
};

// Memory observed while a benchmark ran.
struct Memory {
  std::optional<std::int64_t> peak_rss_bytes;    // high-water mark during the benchmark
  std::optional<std::int64_t> rss_growth_bytes;  // resident set after minus before
  std::string peak_rss_method;                   // how the peak was isolated
};

// Why a benchmark has no measurement of its own: it threw, crashed, hung or ended its process
// while it ran. Every benchmark runs isolated (docs/isolation.md), so such a benchmark is
// recorded with this and the run goes on; its one-line message is also its `failures` entry,
// which keeps it out of every comparison.
struct Failure {
  enum class Cause {
    threw,        // an exception left the benchmark
    crashed,      // a signal ended its process (SIGSEGV, SIGABRT from abort(), ...)
    timed_out,    // still running after --timeout: killed
    exited,       // it ended its process itself (exit(), quick_exit()) before it finished
    interrupted,  // the run was stopped (Ctrl-C) while it ran
  };
  Cause cause = Cause::threw;
  std::optional<int> signal;     // crashed (and timed_out: SIGKILL)
  std::optional<int> exit_code;  // exited
  std::string stderr_tail;       // the last lines its process wrote to standard error
};

// A data file a benchmark read, checked against its expected size and SHA-256 before the first
// sample (benchkit::data::input_file, docs/data.md). `path` is as the benchmark named it.
struct InputFile {
  std::string path;
  std::uint64_t bytes = 0;
  std::string sha256;
};

// A count of the work a scenario did that must be the same in every run (rows read, records
// written): Scenario::exact_count, docs/scenarios.md. Counts of the same name and `input` (a data
// file, or any key the scenario names) must agree across the scenario's repetitions, processes
// and parameter combinations; a run that disagrees is invalid.
struct ExactCount {
  std::string name;
  std::uint64_t value = 0;
  std::string input;  // empty: the count agrees only across runs of this one benchmark
};

// A benchmark left out of the run because a --skip-tag matched one of its skip_when rules: it
// has no samples, and comparisons report it as skipped, neither a regression nor a failure.
struct Skipped {
  std::string tag;
  std::string reason;
};

// A benchmark that is one size of a complexity sweep (Registration::complexity,
// docs/micro-benchmarks.md "Complexity"). Every benchmark with the same `family` is a size of the
// same sweep.
struct ComplexityPoint {
  std::string family;  // the benchmark's name without its size parameter: "sort_ints/kind=text"
  std::string param;   // the size parameter's name: "size"
  double n = 0.0;      // its value here
  // Which class to report, in Google Benchmark's spelling: "auto" (choose), "(1)", "lgN", "N",
  // "NlgN", "N^2", "N^3", or "f(N)" (the user's function, whose value at n is `custom`).
  std::string fit = "auto";
  std::optional<double> custom;  // the user's function at n
};

// One class fitted over a sweep, t(n) ≈ coefficient × g(n).
struct ComplexityCandidate {
  std::string big_o;           // "(1)", "lgN", "N", "NlgN", "N^2", "N^3", "f(N)"
  double coefficient = 0.0;    // nanoseconds (the samples' unit) per unit of g(n)
  double rms = 0.0;            // Google Benchmark's normalised RMS of this class on the medians
  double akaike_weight = 0.0;  // 0..1: the relative support of the data for this class
};

// The fit over one sweep (RunResult::complexity), computed from the sweep's samples.
struct ComplexityResult {
  std::string family;
  std::string param;
  std::string requested = "auto";  // what the registration asked for (ComplexityPoint::fit)
  std::string big_o;               // the class reported: the requested one, or the best
  Estimate coefficient;            // its coefficient with a 95% interval
  std::string interval_method;     // "bootstrap" (over each size's samples) or "regression"
  double rms = 0.0;                // Google Benchmark's RMS of `big_o` on the medians
  std::string best;                // the class the data support best (equals big_o for auto)
  // Classes the data cannot tell from `best` (Akaike weights within a factor e of it): "N" and
  // "NlgN" over a short range of sizes.
  std::vector<std::string> indistinguishable;
  // Share of bootstrap resamples whose best class is `best` (1 without a bootstrap).
  double stability = 1.0;
  std::size_t sizes = 0;
  std::vector<ComplexityCandidate> candidates;  // every class fitted, best first
  // Set when the fit came from another tool (an imported Google Benchmark BigO row): what it
  // said, and nothing above but big_o, coefficient.value and rms is meaningful.
  std::string source;
};

struct BenchmarkResult {
  std::string name;  // "fn/key=value/..." for parameterised benchmarks
  std::string kind = "micro";
  // What the samples measure when it is not time: "instructions" (--mode instructions, counted
  // under callgrind). Empty: nanoseconds. Every field below that says "ns" then holds that
  // metric (samples[].ns the count of the sample, estimates the count per iteration), so that
  // estimates, comparisons and reports work unchanged; only the unit they print differs.
  std::string metric;
  std::map<std::string, std::string> params;
  std::vector<Sample> samples;
  std::optional<std::uint64_t> bytes_per_iteration;
  std::optional<std::uint64_t> items_per_iteration;
  std::map<std::string, double> counters;  // user counters, set with Bencher::counter
  // Cost of timing an empty region (two clock reads), subtracted once from each sample. The
  // cost of the loop itself (about one cycle per iteration) is not subtracted: it overlaps with
  // the measured work, and subtracting it makes one-cycle operations read as zero.
  double overhead_ns_per_sample = 0.0;
  std::uint64_t warm_up_iters = 0;
  double warm_up_ns = 0.0;
  // Time of the very first call of the measured code (in the warm-up): lazy initialisation
  // shows here.
  std::optional<double> first_iteration_ns;
  // Time spent outside the timed region while sampling (making inputs, dropping outputs).
  double untimed_ns = 0.0;
  Memory memory;
  Estimates estimates;
  std::vector<Diagnostic> diagnostics;
  // Why the result is not valid (a scenario's failed verify, a command's failed run): a result
  // with failures is reported but kept out of every comparison.
  std::vector<std::string> failures;
  // Set when the benchmark failed to run to its end (then `failures` holds its message too).
  std::optional<Failure> failure;
  // For kind "command": the command line as run (after parameter substitution).
  std::string command;
  // Set when the benchmark was not run (--skip-tag): then it has no samples.
  std::optional<Skipped> skipped;
  // The data files this benchmark verified (benchkit::data::input_file), in the order it did.
  std::vector<InputFile> inputs;
  // Exact counts of its work (a scenario's exact_count), in the order they were first set.
  std::vector<ExactCount> exact_counts;
  // Set when the benchmark is one size of a complexity sweep.
  std::optional<ComplexityPoint> complexity;
  // The machine that measured this benchmark (hostname, cpu_model, fingerprint), set only in a
  // merge of shards run on different machines (benchkit merge --allow-mixed-machines); empty:
  // the run's context's machine.
  std::map<std::string, std::string> machine;
  // The kind of each counter of `counters` set with one (counter::Kind, not plain): the value
  // in `counters` stays as set, and reports apply the kind (model/counters.hpp). Absent: plain.
  std::map<std::string, counter::Kind> counter_kinds;
  // A text shown beside the result (Bencher::label, Google Benchmark's label).
  std::string label;
  // Threads that ran the routine together, as an imported Google Benchmark row says; a threaded
  // benchmark measured here has its count in params["threads"]. Read either with
  // model::thread_count (src/model/threads.hpp): what counter::per_thread divides by.
  std::optional<std::uint32_t> threads;

  bool valid() const { return failures.empty(); }

  // Nanoseconds per iteration of each sample, per-sample overhead subtracted, never below 0.
  std::vector<double> per_iteration_ns() const;
};

// Which part of a suite split across machines (--shard K/N, docs/ci.md) a run measured.
struct Shard {
  std::uint32_t index = 0;       // K, from 1
  std::uint32_t count = 0;       // N
  std::string by;                // how the suite was split: "count" or "history"
  std::uint64_t benchmarks = 0;  // how many benchmarks this shard measured
  std::uint64_t selected = 0;    // how many the whole selection had, all shards together
};

// Where and how a run was made. Every field is optional in a file read back.
struct Context {
  std::string date;  // ISO 8601, UTC
  std::string tool_version;
  std::string hostname;
  std::string os;
  std::string kernel;
  std::string cpu_model;
  int logical_cpus = 0;
  std::string compiler;       // compiler of the benchmark binary
  std::string build_type;     // of the benchmark binary: Release, Debug, ...
  bool optimized = true;      // __OPTIMIZE__ was defined where the benchmarks were compiled
  bool assertions = false;    // NDEBUG was not defined there
  std::string compile_flags;  // of the benchmark binary: CMAKE_CXX_FLAGS(_<CONFIG>) and options
  std::string library_flags;
  std::string git_commit;
  std::string git_branch;
  std::optional<bool> git_dirty;
  std::string executable;
  std::string executable_sha256;
  std::string command_line;
  std::uint64_t seed = 0;
  std::map<std::string, std::string> tags;
  // Facts about the machine (memory, physical cores, virtualisation, caches) and the status of
  // each machine check (`benchkit system`), as "status: value".
  std::map<std::string, std::string> machine;
  std::map<std::string, std::string> checks;
  std::map<std::string, std::string> clock;  // clock name, resolution and read cost
  // The bench process's own peak resident set over the whole run (per-benchmark peaks reset
  // the kernel's high-water mark, so tools reading it at exit see only the last stretch).
  std::optional<std::int64_t> process_peak_rss_bytes;
  // Run-wide findings, printed once: debug build, frequency scaling, counters unavailable...
  std::vector<Diagnostic> warnings;
  // Every data file the run's benchmarks verified, once each (their `inputs`, gathered).
  std::vector<InputFile> inputs;
  // Set when the run measured one shard of the selection (--shard K/N).
  std::optional<Shard> shard;
};

struct RunResult {
  static constexpr const char* schema = "benchkit/result";
  static constexpr int version = 1;
  Context context;
  std::vector<BenchmarkResult> benchmarks;
  // The complexity fit of each sweep whose benchmarks carry a ComplexityPoint (computed by
  // analysis::fit_complexity from their samples), in order of first appearance.
  std::vector<ComplexityResult> complexity;
};

}  // namespace benchkit
