// A suite split across machines (--shard K/N, docs/ci.md): which benchmarks of the selection
// (after --filter and --skip-tag) shard K of N measures. The N shards are disjoint and together
// the whole selection, whatever N, for every command that takes --shard (a bench binary,
// `benchkit run`, `compare`, `ab`, a Google Benchmark binary). Pure functions: the names in, the
// assignment out.
//
// By count (the default), each name's place is its rank in the order of a stable hash of the
// name (64-bit FNV-1a, the same on every machine and build), and shard k takes the ranks
// [floor(k n / N), floor((k+1) n / N)): contiguous blocks of the hashed order. So
//   - shard sizes differ by at most one;
//   - names of one family ("sort/size=64", "sort/size=4096", ...) are spread, not dealt to one
//     shard together (the hash, unlike alphabetical order, does not keep neighbours together);
//   - adding or removing one benchmark moves at most one other benchmark across each of the N-1
//     boundaries between consecutive shards (its rank shifts by one, each boundary by at most
//     one): at most N-1 others change shard, whatever the suite's size. Dealing sorted names
//     round-robin would move every name after the new one; a bare `hash mod N` moves none but
//     leaves shards unbalanced by about sqrt(n/N) benchmarks.
//
// By history (--shard-by history), each benchmark's recorded duration (its samples, warm-up and
// set-up time in the newest stored run that has it) weighs it: the benchmarks with a duration
// are placed longest first onto the least loaded shard (greedy LPT, within 4/3 of the best
// split), ties broken by the hashed order; then those without one (new benchmarks), in the hashed
// order, each onto the least loaded shard, weighing the median recorded duration. The guarantee:
// adding a benchmark the history has not seen yet changes only its own assignment (the others are
// placed from their durations alone, before it). Once it is recorded, the next run places it by
// its duration, which may move others: each run is balanced on what the history knows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

enum class ShardBy { count, history };

struct ShardSpec {
  std::size_t index = 1;  // K: 1..count
  std::size_t count = 1;  // N
  ShardBy by = ShardBy::count;
};

// "K/N" (1 <= K <= N) and "count" or "history"; `flag` names the flag in the error ("--shard"),
// which is of kind usage (exit status 2) and gives the fix.
model::Result<ShardSpec> parse_shard(std::string_view text, std::string_view by = "count",
                                     std::string_view flag = "--shard");

std::string to_string(ShardBy by);

// The stable hash that orders names (64-bit FNV-1a of the name's bytes).
std::uint64_t shard_hash(std::string_view name);

// The shard (0-based) of each name, by count (above). `names` need not be sorted; the result
// depends only on the set of names, not their order.
std::vector<std::size_t> assign_by_count(std::span<const std::string> names, std::size_t count);

// The shard (0-based) of each name, by recorded duration (above); a name missing from
// `durations_ns` (or with a duration that is not positive) is a new benchmark.
std::vector<std::size_t> assign_by_duration(std::span<const std::string> names,
                                            const std::map<std::string, double>& durations_ns,
                                            std::size_t count);

// The positions in `names` of the benchmarks shard `spec` measures, in their given order.
// `durations_ns` is used by ShardBy::history only.
std::vector<std::size_t> shard_positions(std::span<const std::string> names, const ShardSpec& spec,
                                         const std::map<std::string, double>& durations_ns = {});

// The names of shard `spec` (by count: commands that have no history to weigh benchmarks by)
// among `names`, in their given order.
std::vector<std::string> names_in_shard(const std::vector<std::string>& names,
                                        const ShardSpec& spec);

// --shard as a command without --shard-by takes it: "" is no shard; else parse_shard.
model::Result<std::optional<ShardSpec>> optional_shard(const std::string& text);

// What a result records of its shard: `benchmarks` of the `selected` names.
Shard shard_record(const ShardSpec& spec, std::size_t benchmarks, std::size_t selected);

// "shard 2/4 (by count): 12 of 47 benchmarks", printed before a sharded run.
std::string describe_shard(const Shard& shard);

// The time a benchmark of a result took to run: its samples, warm-up and untimed set-up.
double benchmark_duration_ns(const BenchmarkResult& benchmark);

}  // namespace benchkit::session
