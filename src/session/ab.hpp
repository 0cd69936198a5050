// benchkit ab: the bench binaries of two builds (two git revisions, session/revisions.hpp builds
// them) compared side by side exactly as a bench binary's --baseline does it: fresh process
// pairs taking samples in turns, interim looks that give undecided benchmarks more rounds, fresh
// copies of both executables each round (session/side_by_side.hpp). Benchmarks one build has
// and the other does not are listed as added or removed. Typed request in, values out; prints
// nothing.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "session/shard.hpp"

namespace benchkit::session {

// The executables of one bench target in both builds.
struct BinaryPair {
  std::string target;  // names the benchmarks ("target/name") when there are several pairs
  std::string baseline;
  std::string candidate;
};

struct AbRequest {
  std::vector<BinaryPair> binaries;
  // ECMAScript regular expression a benchmark's name must contain a match of; empty: every one.
  std::string bench_regex;
  // Flags after `--`, given to --list and to every worker (--param, --warm-up, --seed, ...).
  std::vector<std::string> bench_flags;
  std::size_t rounds = 10;
  std::size_t max_rounds = 90;
  std::int64_t round_budget_ns = 100'000'000;
  std::optional<std::chrono::milliseconds> worker_timeout;
  // --budget: the wall time of all the rounds (0: none), shared among the pairs of binaries by
  // their count of benchmarks, each pair's rounds then going to its benchmarks furthest from
  // settled (session/suite_budget.hpp).
  std::int64_t budget_ns = 0;
  analysis::CompareSettings compare;
  // --shard K/N: of each pair of binaries, only that part of the benchmarks either build has
  // (session/shard.hpp, by count over the pair's names); recorded in both runs' contexts.
  std::optional<ShardSpec> shard;
  // Pairs of Google Benchmark binaries: a round's benchmarks in one process a build
  // (GbenchSideBySide::together_from_s 0), as compare --together.
  bool together = false;
  // As SideBySide::progress and ::failed, with the target's name first.
  std::function<void(const std::string& target, std::size_t round, std::size_t planned,
                     std::size_t index, std::size_t count, const std::string& name)>
      progress;
  std::function<void(const std::string& name, const std::string& message)> failed;
  // --mode instructions: each build's bench binary counts its benchmarks under valgrind's
  // callgrind instead (count_bench_binary, session/counted.hpp: one fresh valgrind process per
  // benchmark), one build after the other; counts do not depend on the machine's state, so the
  // builds need not take turns. `rounds`, `max_rounds`, `round_budget_ns`, `worker_timeout` and
  // `progress` are not used.
  bool counted = false;
  // Counted: called before a binary counts `benchmarks` benchmarks (`baseline`: BASE's binary).
  std::function<void(const std::string& target, bool baseline, std::size_t benchmarks)> counting;
};

struct AbOutcome {
  RunResult baseline;
  RunResult candidate;
  analysis::Comparison comparison;  // its method_note left for the caller (it names revisions)
  // How many rounds the benchmarks had: "10", or "10-40" when undecided ones got more.
  std::string rounds;
};

// The names `binary --list` prints with `bench_flags`; the error names the binary.
model::Result<std::vector<std::string>> list_benchmarks(const std::string& binary,
                                                        const std::vector<std::string>& flags);

// Splits the names of two builds into those both have (in the candidate's order), those only the
// baseline has and those only the candidate has, keeping the ones `regex` matches. The error
// (kind usage) says the regex is malformed, or that it matches nothing (listing the names).
struct BenchmarkSets {
  std::vector<std::string> both;
  std::vector<std::string> removed;
  std::vector<std::string> added;
  // Google Benchmark binaries: how long a process of each build (baseline, candidate) took to
  // start, timed as it was listed (GbenchSideBySide::listed_start_s).
  std::array<double, 2> start_s = {0.0, 0.0};
};
model::Result<BenchmarkSets> split_benchmarks(const std::vector<std::string>& baseline,
                                              const std::vector<std::string>& candidate,
                                              const std::string& regex);

// The two runs of a request, not judged yet (the run pipeline judges them).
struct AbRuns {
  RunResult baseline;
  RunResult candidate;
  std::string rounds;  // as AbOutcome::rounds
  // Side by side: one benchmark's round on average (Measured::round_cost_ns).
  std::optional<double> round_cost_ns;
  // With a budget: how it went (SuiteBudget::summary), for the method note.
  std::string budget_note;
  // Some pair was of Google Benchmark binaries (run as `benchkit compare OLD NEW` runs them).
  bool gbench = false;
  // What the method note adds when Ctrl-C stopped a pair's rounds after the first (see
  // session::interrupted_note): the runs then hold the rounds before it, and no later pair ran.
  // Empty when nothing was interrupted.
  std::string interrupted_note = {};
};

// Lists and runs side by side (or counts, `counted`); the errors are run_ab's.
model::Result<AbRuns> measure_ab(const AbRequest& request);

// measure_ab, then compares. The error is what stops it: a binary
// that cannot list its benchmarks, a regex matching none, Ctrl-C (kind interrupted).
model::Result<AbOutcome> run_ab(const AbRequest& request);

// "10" or "10-40": the fewest and most rounds a benchmark of `run` had.
std::string rounds_taken(const RunResult& run);

// The benchmarks of `comparison` in one verdict, for a bisection step: `regressed` when any
// benchmark regressed (the one with the largest ratio named), else `inconclusive` when any is
// inconclusive or invalid, else `unchanged` (improvements count as unchanged: not slower).
struct Summary {
  analysis::Verdict verdict = analysis::Verdict::inconclusive;
  std::string benchmark;  // the benchmark the verdict rests on (largest ratio among its kind)
  double ratio = 1.0;
  double ratio_lower = 1.0;
  double ratio_upper = 1.0;
};
// `sought` (regressed, or improved for bisect --faster) ranks first, then inconclusive or invalid,
// then the rest; among the sought rows the largest change in its direction is the basis.
Summary summarise(const analysis::Comparison& comparison,
                  analysis::Verdict sought = analysis::Verdict::regressed);

}  // namespace benchkit::session
