#include "session/shard_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/failure.hpp"
#include "session/history.hpp"
#include "session/result_files.hpp"
#include "session/shard.hpp"

namespace benchkit::session {
namespace {

model::Error refused(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::input};
}

std::string short_hash(const std::string& hash) {
  return hash.size() > 12 ? hash.substr(0, 12) + "..." : hash;
}

std::string shard_name(const std::optional<Shard>& shard) {
  return shard ? fmt::format("shard {}/{} (by {})", shard->index, shard->count, shard->by)
               : "no shard (made without --shard)";
}

// Why `a` and `b` cannot be parts of one run, or nullopt.
std::optional<model::Error> mismatch(const ShardFile& a, const ShardFile& b,
                                     bool allow_mixed_machines) {
  const Context& x = a.run.context;
  const Context& y = b.run.context;
  if (!x.executable_sha256.empty() && !y.executable_sha256.empty() &&
      x.executable_sha256 != y.executable_sha256) {
    return refused(fmt::format(
        "{} and {} were measured by different builds (executable SHA-256 {} and {}): merge the "
        "shards of one build; build once and give every runner the same binary (docs/ci.md)",
        a.path, b.path, short_hash(x.executable_sha256), short_hash(y.executable_sha256)));
  }
  if (x.git_commit != y.git_commit) {
    return refused(fmt::format(
        "{} and {} are of different commits ({} and {}): merge the shards of one commit", a.path,
        b.path, x.git_commit.empty() ? "none" : x.git_commit,
        y.git_commit.empty() ? "none" : y.git_commit));
  }
  const bool same_split =
      x.shard.has_value() == y.shard.has_value() &&
      (!x.shard || (x.shard->count == y.shard->count && x.shard->by == y.shard->by));
  if (!same_split) {
    return refused(fmt::format(
        "{} is {} and {} is {}: merge the shards of one split (the same --shard K/N for one N, "
        "the same --shard-by)",
        a.path, shard_name(x.shard), b.path, shard_name(y.shard)));
  }
  if (!allow_mixed_machines && machine_id(x) != machine_id(y)) {
    return refused(fmt::format(
        "{} and {} were measured on different machines ({} and {}: their fingerprints differ): "
        "run every shard on one kind of runner, or give --allow-mixed-machines to merge them "
        "anyway (each benchmark then keeps its own machine in the result)",
        a.path, b.path, x.hostname.empty() ? "unknown host" : x.hostname,
        y.hostname.empty() ? "unknown host" : y.hostname));
  }
  return std::nullopt;
}

// The benchmarks of every file, each once; the error names the two files that hold one.
std::optional<model::Error> check_disjoint(const std::vector<ShardFile>& shards) {
  std::map<std::string, const std::string*> owner;
  for (const ShardFile& shard : shards) {
    for (const BenchmarkResult& benchmark : shard.run.benchmarks) {
      const auto [at, fresh] = owner.emplace(benchmark.name, &shard.path);
      if (!fresh) {
        return refused(fmt::format(
            "{} and {} both hold benchmark \"{}\": the shards of one run are disjoint; give "
            "each shard's file once, all made with the same --shard N, --filter and --skip-tag",
            *at->second, shard.path, benchmark.name));
      }
    }
  }
  return std::nullopt;
}

std::map<std::string, std::string> machine_of(const Context& context) {
  std::map<std::string, std::string> machine;
  if (!context.hostname.empty()) machine["hostname"] = context.hostname;
  if (!context.cpu_model.empty()) machine["cpu_model"] = context.cpu_model;
  machine["fingerprint"] = machine_id(context);
  return machine;
}

// The shards of the recorded K/N that no file gave: "shard 3/4".
std::vector<std::string> missing_shards(const std::vector<ShardFile>& shards) {
  if (shards.empty() || !shards.front().run.context.shard) return {};
  const std::uint32_t count = shards.front().run.context.shard->count;
  std::set<std::uint32_t> present;
  for (const ShardFile& shard : shards) present.insert(shard.run.context.shard->index);
  std::vector<std::string> missing;
  for (std::uint32_t k = 1; k <= count; ++k) {
    if (!present.count(k)) {
      missing.push_back(
          fmt::format("shard {}/{} (no file given holds it: did its runner fail "
                      "before writing its result?)",
                      k, count));
    }
  }
  // Every shard there, and yet fewer benchmarks than the selection: the shards split it
  // differently (--shard-by history read different durations).
  std::uint64_t measured = 0;
  for (const ShardFile& shard : shards) measured += shard.run.context.shard->benchmarks;
  const std::uint64_t selected = shards.front().run.context.shard->selected;
  if (missing.empty() && measured < selected) {
    missing.push_back(fmt::format(
        "{} of the {} selected benchmarks (the shards split the suite differently: give every "
        "shard the same --store)",
        selected - measured, selected));
  }
  return missing;
}

// The context of the merged run: the first shard's, its date the earliest, run-wide facts
// gathered from all, and no shard of its own.
Context merged_context(const std::vector<ShardFile>& shards) {
  Context context = shards.front().run.context;
  std::set<std::string> codes;
  for (const Diagnostic& warning : context.warnings) codes.insert(warning.code);
  std::set<std::string> inputs;
  for (const InputFile& input : context.inputs) inputs.insert(input.path);
  for (const ShardFile& shard : shards) {
    const Context& other = shard.run.context;
    if (!other.date.empty() && (context.date.empty() || other.date < context.date)) {
      context.date = other.date;
    }
    if (other.process_peak_rss_bytes) {
      context.process_peak_rss_bytes =
          std::max(context.process_peak_rss_bytes.value_or(0), *other.process_peak_rss_bytes);
    }
    for (const Diagnostic& warning : other.warnings) {
      if (codes.insert(warning.code).second) context.warnings.push_back(warning);
    }
    for (const InputFile& input : other.inputs) {
      if (inputs.insert(input.path).second) context.inputs.push_back(input);
    }
  }
  context.shard.reset();
  return context;
}

}  // namespace

model::Result<MergedShards> merge_shard_runs(std::vector<ShardFile> shards,
                                             bool allow_mixed_machines) {
  if (shards.empty()) return refused("no result file to merge: give each shard's result file");
  // In shard order (files without a shard keep theirs).
  std::stable_sort(shards.begin(), shards.end(), [](const ShardFile& a, const ShardFile& b) {
    return (a.run.context.shard ? a.run.context.shard->index : 0) <
           (b.run.context.shard ? b.run.context.shard->index : 0);
  });
  for (std::size_t i = 1; i < shards.size(); ++i) {
    if (auto problem = mismatch(shards.front(), shards[i], allow_mixed_machines)) return *problem;
  }
  if (auto problem = check_disjoint(shards)) return *problem;
  MergedShards merged;
  merged.files = shards.size();
  merged.missing = missing_shards(shards);
  bool mixed = false;
  for (const ShardFile& shard : shards) {
    mixed = mixed || machine_id(shard.run.context) != machine_id(shards.front().run.context);
  }
  merged.run.context = merged_context(shards);
  for (ShardFile& shard : shards) {
    const auto machine = machine_of(shard.run.context);
    for (BenchmarkResult& benchmark : shard.run.benchmarks) {
      if (benchmark.failure) {
        merged.failed.push_back(fmt::format("{} ({}): {}", benchmark.name, shard.path,
                                            model::failure_cause_name(benchmark.failure->cause)));
      }
      if (mixed && benchmark.machine.empty()) benchmark.machine = machine;
      merged.run.benchmarks.push_back(std::move(benchmark));
    }
  }
  if (!merged.missing.empty()) {
    merged.run.context.warnings.push_back(
        Diagnostic{"shards_missing", "warning",
                   fmt::format("merged without {}; the run lacks those benchmarks",
                               fmt::join(merged.missing, "; "))});
  }
  return merged;
}

model::Result<MergedShards> merge_shard_files(const std::vector<std::string>& paths,
                                              bool allow_mixed_machines) {
  std::vector<ShardFile> shards;
  for (const std::string& path : paths) {
    auto run = load_result_file(path);
    if (!run) return model::Error{run.error().message, model::ErrorKind::input};
    shards.push_back(ShardFile{path, std::move(*run)});
  }
  return merge_shard_runs(std::move(shards), allow_mixed_machines);
}

}  // namespace benchkit::session
