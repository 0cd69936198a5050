// Google Benchmark binaries run by benchkit (docs/interop.md): recognised by
// --benchmark_list_tests, run in fresh processes and merged, or two builds run side by side in
// paired rounds, one benchmark at a time through --benchmark_filter, for benchkit's verdicts.
//
// Every process writes its results with --benchmark_out (read back by formats/gbench_json.hpp);
// its console table goes to /dev/null and its standard error to a file, read back without
// Google Benchmark's banner. A Google Benchmark
// binary cannot sample in turns with another process as a benchkit binary does
// (session/side_by_side.hpp), so a round runs the two builds one after the other on one CPU, the
// first of them alternating by round and by benchmark, and the comparison pairs the rounds.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "process/handshake.hpp"
#include "session/shard.hpp"
#include "session/side_by_side.hpp"

namespace benchkit::session {

// Whether the executable at `path` refers to Google Benchmark's library, read before running it
// (process/handshake.hpp): a script or another program is never started with Google Benchmark
// flags, and a Google Benchmark suite is never asked --benchkit-info.
using process::links_google_benchmark;

// The benchmarks `path --benchmark_list_tests=true` lists, or an error saying what the program
// did instead: it is then not a Google Benchmark binary. Two probes, each killed after 60 s,
// their output read and never shown: first the list of a filter that matches nothing, which a
// program that takes Google Benchmark's flags answers by running nothing and saying so on
// standard error (a suite whose own main() ignores those flags is found out here, with at most
// that filter's harm); then the list itself. Of `flags` (the user's, for the runs), the suite's
// own arguments (all but Google Benchmark's --benchmark_ flags) are given to both, first, since
// its main() may register benchmarks by them; of Google Benchmark's flags only the
// --benchmark_filter is applied, and one that matches nothing is a usage error that says so. A
// name may hold any character but a newline (spaces, commas, angle brackets). With `start_s`:
// how long one of its two processes took, on average, in seconds (what a process of the suite
// costs before its first benchmark runs: GbenchSideBySide::together_from_s).
model::Result<std::vector<std::string>> list_gbench_benchmarks(
    const std::string& path, const std::vector<std::string>& flags = {}, double* start_s = nullptr);

// Whether `line`, written to standard error by a Google Benchmark process, is part of its
// banner: the date, "Running ...", "Run on (...)", the CPU caches, "Load Average", its
// ***WARNING*** lines (a debug build of the library, CPU scaling), or blank. The result file's
// context holds the same facts, so benchkit shows none of them.
bool is_gbench_banner_line(std::string_view line);

// `name` as a --benchmark_filter regular expression that matches only that name: the characters
// special in an extended regular expression escaped, which is what Google Benchmark compiles
// (`]` and `}` are not: their escapes are errors there).
std::string exact_gbench_filter(const std::string& name);

// The longest --benchmark_filter benchkit gives: far below the kernel's 128 KiB for one argument.
constexpr std::size_t kLongestGbenchFilter = 64 * 1024;

// `items` in groups of one key (`key_of`) whose exact filters (`name_of`, joined by '|') stay
// within kLongestGbenchFilter, in the order given: an item joins the last group of its key, or
// starts one when that has no room left.
template <typename NameOf, typename KeyOf>
std::vector<std::vector<std::size_t>> filter_groups(const std::vector<std::size_t>& items,
                                                    const NameOf& name_of, const KeyOf& key_of) {
  using Key = decltype(key_of(std::size_t{0}));
  std::vector<Key> keys;
  std::vector<std::size_t> sizes;
  std::vector<std::vector<std::size_t>> groups;
  for (const std::size_t item : items) {
    Key key = key_of(item);
    const std::size_t size = exact_gbench_filter(name_of(item)).size() + 1;
    const auto at = std::find(keys.rbegin(), keys.rend(), key);
    const std::size_t k = keys.size() - 1 - static_cast<std::size_t>(at - keys.rbegin());
    if (at == keys.rend() || sizes[k] + size > kLongestGbenchFilter) {
      keys.push_back(std::move(key));
      sizes.push_back(size);
      groups.push_back({item});
    } else {
      sizes[k] += size;
      groups[k].push_back(item);
    }
  }
  return groups;
}

// How benchkit spells a --benchmark_min_time it gives the processes of one binary. Google
// Benchmark before 1.8 reads only a bare number of seconds ("0.008"); 1.8 and later read
// "0.008s" (and "100x", a count of iterations) and log, for every benchmark given a bare number,
// a line asking for the suffix, which benchkit would otherwise pass on as a note of each run. So
// a binary's first process gets the bare number, and once a process of that binary has logged
// the request, the later ones get the suffix: no process is spent asking which version it is.
class MinTimeSpelling {
 public:
  // `flags` with each bare --benchmark_min_time=SECONDS given the suffix once the binary is known
  // to read it; as they are until then.
  std::vector<std::string> spelled(std::vector<std::string> flags) const;
  // A process's standard error less Google Benchmark's requests for the suffix (benchkit gave the
  // bare number, not the user), lines left empty dropped; a request heard means the binary reads
  // the suffix.
  std::vector<std::string> heard(std::vector<std::string> lines);
  bool reads_suffix() const { return reads_suffix_; }

 private:
  bool reads_suffix_ = false;
};

// The default time limit of a Google Benchmark process, for each benchmark it runs (beyond what
// its flags ask): as long as `--worker-timeout`'s default for a bench binary's worker.
inline constexpr std::chrono::milliseconds kGbenchProcessTimeout{120'000};

// A start this long (seconds) is said before `benchkit run` of a Google Benchmark binary runs
// its processes, each of which pays it (CRoaring's microbenchmarks load 200 bitmaps in main():
// 12.1 s, so six processes and the listing took 125 s where the suite alone took 43 s).
inline constexpr double kSayStartS = 1.0;
// The note: how long a process took to start, and what the processes pay for it in all.
std::string slow_start_note(const std::string& executable, double start_s, std::size_t processes);

struct GbenchProcesses {
  std::string executable;
  // Fresh processes, each running the whole suite (or what `flags` select) once: the process is
  // the unit of variation, so its samples (repetitions) are numbered by process.
  std::size_t processes = 5;
  // Google Benchmark flags given to every process (--benchmark_filter, --benchmark_min_time,
  // --benchmark_repetitions, ...); --benchmark_out and --benchmark_out_format are benchkit's.
  std::vector<std::string> flags;
  // The --benchmark_min_time benchkit gives each process (seconds; gbench_process_min_time), spelt
  // as the binary reads it (MinTimeSpelling); none when the user's `flags` set it.
  std::optional<double> min_time_s;
  // --filter REGEX (session::NameFilter, as compare reads it): only the listed benchmarks it
  // keeps, each process told them with one --benchmark_filter of their exact names; "" all.
  std::string filter;
  // --shard K/N: only that part of the listed benchmarks (session/shard.hpp), each process told
  // them with one --benchmark_filter of their exact names; recorded in the run's context.
  std::optional<ShardSpec> shard;
  // A process still running after this long for each benchmark it runs (more when the flags ask
  // for longer repetitions) is killed, and fails.
  std::optional<std::chrono::milliseconds> timeout = kGbenchProcessTimeout;
  std::function<void(std::size_t process, std::size_t total)> progress;
  // Each line the processes wrote to standard error, once, Google Benchmark's banner left out
  // (the date, "Running", "Run on", caches, load, its warnings: the run's context has them).
  std::function<void(const std::string& line)> note;
  // A listing that took this long (seconds) is said through `note` before the processes run,
  // since each pays it again (slow_start_note; more than one process only).
  double say_start_from_s = kSayStartS;
  // After each process: the processes so far, merged as the whole run is (the exports rewritten
  // as the run goes).
  std::function<void(const RunResult& so_far)> checkpoint;
  // When set, Ctrl-C after a process finished ends the run with the processes finished before
  // it, and sets *interrupted; unset, or before any process finished, Ctrl-C is an error.
  bool* interrupted = nullptr;
};

// The merged run, its estimates computed; the context is the first process's. A process that
// failed (a benchmark crashed, exited with an error or ran past `timeout`) is run again one
// benchmark a process: the benchmark that failed is kept as a failed result (its Failure says
// how) and runs in no later process; the others keep every process's samples. The error is for
// Ctrl-C (but see GbenchProcesses::interrupted), and for a run in which every benchmark failed:
// it names the first process that did.
model::Result<RunResult> run_gbench_processes(const GbenchProcesses& plan);

// How long a Google Benchmark process may take to start, before a side-by-side comparison runs
// each round's benchmarks together in one process a build rather than each alone. Most suites
// start in under 10 ms; one whose main() builds what its benchmarks share pays that in every
// process: spdlog's latency suite touches 1.6 GB there, 1.1 s a process against about 0.05 s of
// measuring, and an A/A comparison of four of its rows took 75-78 s together against 299-502 s
// alone (docs/interop.md, "A suite that is slow to start").
inline constexpr double kSlowStartS = 0.1;

struct GbenchSideBySide {
  std::string baseline_executable;
  std::string candidate_executable;
  std::vector<std::string> benchmarks;  // names, each alone in a process (or together_from_s)
  // Paired rounds; the comparison needs 6 for a 95% signed-rank interval (analysis/compare).
  std::size_t rounds = 10;
  // Benchmarks that `undecided` names after the first `rounds` get more rounds, `rounds` at a
  // time, until it lets them go or they had max_rounds (below `rounds`: `rounds`), as in
  // run_side_by_side.
  std::size_t max_rounds = 0;
  // Rounds between the looks after the first (0: `rounds`), as SideBySide::look_every.
  std::size_t look_every = 0;
  std::vector<std::string> flags;  // given to both builds, as GbenchProcesses::flags
  // Each benchmark's process also gets gbench_turn_flags(flags, its iteration time), timed by one
  // process of the baseline that runs every benchmark once before the first round.
  bool turn_flags = false;
  // Both processes of round r run on cpus[r % size] only; empty: the CPUs this process may use.
  std::vector<int> cpus;
  // A suite whose process takes at least this long to start (seconds; timed as it lists the
  // benchmarks, before the first round) runs each round's benchmarks together, one process a
  // build, instead of one process a benchmark (kSlowStartS; 0: always together).
  double together_from_s = kSlowStartS;
  // The builds' start times (baseline, candidate; list_gbench_benchmarks' start_s) when the
  // caller listed them already and `benchmarks` holds only names both list: they are not listed
  // again. None: listed here, and a benchmark a build does not list fails on that side.
  std::optional<std::array<double, 2>> listed_start_s;
  // A process of a round still running after this long for each benchmark it runs is killed, and
  // its benchmarks fail (none: no limit).
  std::optional<std::chrono::milliseconds> timeout = kGbenchProcessTimeout;
  std::function<void(std::size_t round, std::size_t rounds, std::size_t index, std::size_t count,
                     const std::string& name)>
      progress;
  std::function<void(const std::string& line)> note;  // as GbenchProcesses::note
};

// The two runs: every sample carries its round (as `round` and `process`). A benchmark that the
// filter did not match in one build, that Google Benchmark reported as an error, or whose process
// crashed, exited with an error or ran past `timeout`, is a failed result on that side (and so
// not compared, and given no more rounds; a process of several benchmarks that failed runs each
// again alone, so that only the one that failed fails). The error is for what stops the whole
// comparison: Ctrl-C, a temporary folder that cannot be made, or a process failure when no
// benchmark is left to compare (a build that fails whatever it runs is one error).
model::Result<SideBySideRuns> run_gbench_side_by_side(const GbenchSideBySide& plan,
                                                      const Undecided& undecided = {});

// The repetitions of a benchmark's process in a side-by-side comparison, and the
// --benchmark_min_time of each (seconds), unless the user's flags set them: three of 8 ms. Google
// Benchmark calls the benchmark's function anew for each repetition, so what it does before its
// timed loop (reading and parsing a file, filling a buffer) is paid once a repetition; three
// repetitions measure as long as five of 5 ms did, at fewer calls: nlohmann/json's rounds cost
// 0.20-0.22 s instead of 0.32-0.35 s with the same scatter (docs/interop.md, "How long a Google
// Benchmark process runs"). Three is the fewest whose median a burst in one leaves alone.
inline constexpr int kGbenchTurnRepetitions = 3;
inline constexpr double kGbenchTurnMinTimeS = 0.008;
// The minimum time of a repetition of a benchmark that runs several threads (/threads:N, N > 1):
// its threads start anew in each repetition, and in 1 ms two threads incrementing one atomic
// barely ran together (2.65 ns an operation against Google Benchmark's own 6.7-6.8 ns; 5.9 ns in
// 8 ms repetitions, 6.75 ns in 50 ms ones: docs/interop.md, "No shorter repetitions").
inline constexpr double kThreadedTurnMinTimeS = 0.05;
// The most repetitions a process is given of a benchmark whose code fixes its iterations.
inline constexpr int kMostCodeRepetitions = 20;

// What a side-by-side comparison adds to the flags of a benchmark's process: a few short
// repetitions (kGbenchTurnRepetitions of kGbenchTurnMinTimeS, seconds as Google Benchmark reads a
// number without a suffix), each left out when the user's `flags` set it. A round's ratio is then
// the median of the repetitions' ratios (analysis/compare.hpp), which a burst of noise in one
// repetition does not move; and short processes make cheap rounds, while the rounds average the
// differences between processes, most of a round's scatter. Measured on two real suites
// (docs/interop.md, "How long a process runs"). Every benchmark gets the same shape, however
// short its iteration: twenty repetitions of 1 ms for iterations of at most 50 µs (until
// 2026-12-07) timed each call's first-touch costs (+38% on a copy into a fresh 1 MiB buffer),
// ran threads that barely overlapped, and turned flatbuffers' -O1 build from faster into
// `regressed` (docs/interop.md, "No shorter repetitions"). `name`, the benchmark's: several
// threads (/threads:N) get repetitions of kThreadedTurnMinTimeS; when its code fixes how long a
// repetition lasts, a count of iterations (->Iterations(N), "/iterations:N": N × `iteration_ns`,
// how long an iteration took in a pilot run before the first round) or a minimum time
// (->MinTime(S), "/min_time:S": S), which no flag changes, the process is given as many
// repetitions as fill the three of 8 ms (one at least, kMostCodeRepetitions at most) instead,
// unless the user's flags set the repetitions: twenty repetitions of a hundred million
// iterations took 0.5 s a process.
std::vector<std::string> gbench_turn_flags(const std::vector<std::string>& flags,
                                           std::optional<double> iteration_ns = std::nullopt,
                                           const std::string& name = {});

// The threads of the benchmark `name` as Google Benchmark names them (/threads:N); 1 without.
std::size_t gbench_threads(const std::string& name);

// The iteration count that a benchmark's code sets, read from its name ("/iterations:N", as
// Google Benchmark names a benchmark with ->Iterations(N)); nothing when it sets none.
std::optional<std::uint64_t> fixed_gbench_iterations(const std::string& name);

// Whether gbench_turn_flags(flags, ...) depends on the iteration time: the user's `flags` set
// neither --benchmark_repetitions nor --benchmark_min_time.
bool gbench_repetitions_follow_iterations(const std::vector<std::string>& flags);

// Google Benchmark's own measuring time of a benchmark (--benchmark_min_time) when it is not given.
inline constexpr double kGbenchMinTimeS = 0.5;

// The --benchmark_min_time, in seconds, that `benchkit run ./gb_suite` gives each of its
// `processes` fresh processes: Google Benchmark's own 0.5 s a benchmark shared among them (0.1 s
// each of five), so that a run of N processes takes about as long as the suite run once by
// itself, not N times as long. The run's interval rests mostly on how the processes differ, not
// on how long each ran: as narrow as with 0.5 s processes on snappy's and json's suites, 1.35
// times as wide on crc32c's (docs/interop.md, "Running Google Benchmark binaries"). None when
// the user's `flags` set --benchmark_min_time, or for one process (Google Benchmark's default is
// then the same).
std::optional<double> gbench_process_min_time(const std::vector<std::string>& flags,
                                              std::size_t processes);

}  // namespace benchkit::session
