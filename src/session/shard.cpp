#include "session/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <tuple>

#include "session/command_options.hpp"

namespace benchkit::session {
namespace {

// A whole number of the text, all of it, or nullopt.
std::optional<std::size_t> whole_number(std::string_view text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end) return std::nullopt;
  return value;
}

// The positions of `names` in the hashed order: by hash, then by name (two names of one hash).
std::vector<std::size_t> hashed_order(std::span<const std::string> names) {
  std::vector<std::uint64_t> hashes(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) hashes[i] = shard_hash(names[i]);
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(hashes[a], names[a]) < std::tie(hashes[b], names[b]);
  });
  return order;
}

// The least loaded shard (the lowest-numbered of equals).
std::size_t least_loaded(const std::vector<double>& loads) {
  return static_cast<std::size_t>(std::min_element(loads.begin(), loads.end()) - loads.begin());
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 1.0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

model::Result<ShardSpec> parse_shard(std::string_view text, std::string_view by,
                                     std::string_view flag) {
  ShardSpec spec;
  if (by == "history") {
    spec.by = ShardBy::history;
  } else if (by != "count") {
    return usage_error(fmt::format(
        "{}-by \"{}\" is not a way to split a suite: give count (equal numbers of benchmarks, "
        "the default) or history (equal recorded durations, with --store)",
        flag, by));
  }
  const std::size_t slash = text.find('/');
  const auto index = whole_number(text.substr(0, slash));
  const auto count =
      slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count) {
    return usage_error(
        fmt::format("{} \"{}\" is not K/N: give this shard's number and the number of shards, "
                    "as in {} 2/4 (the second of four)",
                    flag, text, flag));
  }
  if (*count == 0) {
    return usage_error(fmt::format(
        "{} {}: the number of shards is 0: give at least 1 (as in {} 1/1)", flag, text, flag));
  }
  if (*index == 0 || *index > *count) {
    return usage_error(
        fmt::format("{} {}: shards are numbered from 1 to {}: give {} 1/{} to {} {}/{}", flag, text,
                    *count, flag, *count, flag, *count, *count));
  }
  spec.index = *index;
  spec.count = *count;
  return spec;
}

std::string to_string(ShardBy by) {
  return by == ShardBy::history ? "history" : "count";
}

std::uint64_t shard_hash(std::string_view name) {
  // FNV-1a, 64 bits: offset basis and prime from the FNV specification
  // (draft-eastlake-fnv): fixed, so that every machine and build splits a suite alike.
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::vector<std::size_t> assign_by_count(std::span<const std::string> names, std::size_t count) {
  std::vector<std::size_t> shards(names.size(), 0);
  if (count == 0) return shards;
  const std::vector<std::size_t> order = hashed_order(names);
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    shards[order[rank]] = rank * count / order.size();
  }
  return shards;
}

std::vector<std::size_t> assign_by_duration(std::span<const std::string> names,
                                            const std::map<std::string, double>& durations_ns,
                                            std::size_t count) {
  std::vector<std::size_t> shards(names.size(), 0);
  if (count == 0) return shards;
  std::vector<std::size_t> known;
  std::vector<std::size_t> unknown;
  std::vector<double> weight(names.size(), 0.0);
  for (const std::size_t position : hashed_order(names)) {
    const auto found = durations_ns.find(names[position]);
    if (found != durations_ns.end() && found->second > 0) {
      weight[position] = found->second;
      known.push_back(position);
    } else {
      unknown.push_back(position);
    }
  }
  // Longest first; equal durations keep the hashed order (a stable sort).
  std::stable_sort(known.begin(), known.end(),
                   [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  std::vector<double> loads(count, 0.0);
  for (const std::size_t position : known) {
    shards[position] = least_loaded(loads);
    loads[shards[position]] += weight[position];
  }
  std::vector<double> recorded;
  for (const std::size_t position : known) recorded.push_back(weight[position]);
  const double guess = median_of(std::move(recorded));
  for (const std::size_t position : unknown) {
    shards[position] = least_loaded(loads);
    loads[shards[position]] += guess;
  }
  return shards;
}

std::vector<std::size_t> shard_positions(std::span<const std::string> names, const ShardSpec& spec,
                                         const std::map<std::string, double>& durations_ns) {
  const std::vector<std::size_t> shards = spec.by == ShardBy::history
                                              ? assign_by_duration(names, durations_ns, spec.count)
                                              : assign_by_count(names, spec.count);
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i] + 1 == spec.index) positions.push_back(i);
  }
  return positions;
}

std::vector<std::string> names_in_shard(const std::vector<std::string>& names,
                                        const ShardSpec& spec) {
  std::vector<std::string> part;
  for (const std::size_t position : shard_positions(names, spec)) part.push_back(names[position]);
  return part;
}

model::Result<std::optional<ShardSpec>> optional_shard(const std::string& text) {
  if (text.empty()) return std::optional<ShardSpec>{};
  auto spec = parse_shard(text);
  if (!spec) return spec.error();
  return std::optional<ShardSpec>{*spec};
}

Shard shard_record(const ShardSpec& spec, std::size_t benchmarks, std::size_t selected) {
  Shard shard;
  shard.index = static_cast<std::uint32_t>(spec.index);
  shard.count = static_cast<std::uint32_t>(spec.count);
  shard.by = to_string(spec.by);
  shard.benchmarks = benchmarks;
  shard.selected = selected;
  return shard;
}

std::string describe_shard(const Shard& shard) {
  return fmt::format("shard {}/{} (by {}): {} of {} benchmarks", shard.index, shard.count, shard.by,
                     shard.benchmarks, shard.selected);
}

double benchmark_duration_ns(const BenchmarkResult& benchmark) {
  double total = benchmark.warm_up_ns + benchmark.untimed_ns;
  for (const Sample& sample : benchmark.samples) total += sample.ns;
  return total;
}

}  // namespace benchkit::session
