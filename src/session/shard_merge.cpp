#include "session/shard_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "formats/comparison_json.hpp"
#include "model/failure.hpp"
#include "session/history.hpp"
#include "session/result_files.hpp"
#include "session/shard.hpp"
#include "store/atomic_file.hpp"

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

// The checks every merge makes, of result files and of comparisons alike: one build, one commit,
// one split, disjoint benchmarks. `what` says whose build (empty: the run's; "baseline ", "new ").
std::optional<model::Error> build_mismatch(const std::string& a, const model::ComparedBuild& x,
                                           const std::string& b, const model::ComparedBuild& y,
                                           const std::string& what) {
  if (!x.executable_sha256.empty() && !y.executable_sha256.empty() &&
      x.executable_sha256 != y.executable_sha256) {
    return refused(fmt::format(
        "{} and {} were measured by different {}builds (executable SHA-256 {} and {}): merge the "
        "shards of one build; build once and give every runner the same binary (docs/ci.md)",
        a, b, what, short_hash(x.executable_sha256), short_hash(y.executable_sha256)));
  }
  if (x.git_commit != y.git_commit) {
    return refused(fmt::format(
        "{} and {} are of different {}commits ({} and {}): merge the shards of one commit", a, b,
        what, x.git_commit.empty() ? "none" : x.git_commit,
        y.git_commit.empty() ? "none" : y.git_commit));
  }
  return std::nullopt;
}

std::optional<model::Error> split_mismatch(const std::string& a, const std::optional<Shard>& x,
                                           const std::string& b, const std::optional<Shard>& y) {
  const bool same_split =
      x.has_value() == y.has_value() && (!x || (x->count == y->count && x->by == y->by));
  if (same_split) return std::nullopt;
  return refused(fmt::format(
      "{} is {} and {} is {}: merge the shards of one split (the same --shard K/N for one N, "
      "the same --shard-by)",
      a, shard_name(x), b, shard_name(y)));
}

model::ComparedBuild build_of(const Context& context) {
  return {context.git_commit, context.executable_sha256};
}

// Why `a` and `b` cannot be parts of one run, or nullopt.
std::optional<model::Error> mismatch(const ShardFile& a, const ShardFile& b,
                                     bool allow_mixed_machines) {
  const Context& x = a.run.context;
  const Context& y = b.run.context;
  if (auto problem = build_mismatch(a.path, build_of(x), b.path, build_of(y), "")) return problem;
  if (auto problem = split_mismatch(a.path, x.shard, b.path, y.shard)) return problem;
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

// Each benchmark in one file only; the error names the two files that hold one. `names[i]` are
// the benchmarks of the file `paths[i]`.
std::optional<model::Error> check_disjoint(const std::vector<std::string>& paths,
                                           const std::vector<std::vector<std::string>>& names) {
  std::map<std::string, std::size_t> owner;
  for (std::size_t file = 0; file < paths.size(); ++file) {
    for (const std::string& name : names[file]) {
      const auto [at, fresh] = owner.emplace(name, file);
      if (!fresh) {
        return refused(fmt::format(
            "{} and {} both hold benchmark \"{}\": the shards of one run are disjoint; give "
            "each shard's file once, all made with the same --shard N, --filter and --skip-tag",
            paths[at->second], paths[file], name));
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

// The shards of the recorded K/N that no file gave: "shard 3/4". `shards` are the files'
// records, all of one split (checked before), or all empty.
std::vector<std::string> missing_shards(const std::vector<std::optional<Shard>>& shards) {
  if (shards.empty() || !shards.front()) return {};
  const std::uint32_t count = shards.front()->count;
  std::set<std::uint32_t> present;
  for (const auto& shard : shards) present.insert(shard->index);
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
  for (const auto& shard : shards) measured += shard->benchmarks;
  const std::uint64_t selected = shards.front()->selected;
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

const char* adjustment_word(analysis::Adjustment adjustment) {
  switch (adjustment) {
    case analysis::Adjustment::holm:
      return "holm";
    case analysis::Adjustment::benjamini_hochberg:
      return "benjamini_hochberg";
    case analysis::Adjustment::none:
      return "none";
  }
  return "none";
}

// Shards compared with other thresholds or levels would be judged by rules they were not
// measured for.
std::optional<model::Error> settings_mismatch(const ComparisonFile& a, const ComparisonFile& b) {
  const analysis::CompareSettings& x = a.comparison.settings;
  const analysis::CompareSettings& y = b.comparison.settings;
  if (x.noise_threshold == y.noise_threshold &&
      x.count_noise_threshold == y.count_noise_threshold && x.alpha == y.alpha &&
      x.confidence == y.confidence && x.adjustment == y.adjustment && x.mde == y.mde) {
    return std::nullopt;
  }
  return refused(fmt::format(
      "{} and {} were compared with different settings (noise threshold {:g} and {:g}, alpha "
      "{:g} and {:g}, confidence {:g} and {:g}, adjustment {} and {}): give every shard the same "
      "--noise-threshold, --count-threshold, --alpha, --confidence, --adjustment and --mde",
      a.path, b.path, x.noise_threshold, y.noise_threshold, x.alpha, y.alpha, x.confidence,
      y.confidence, adjustment_word(x.adjustment), adjustment_word(y.adjustment)));
}

std::optional<model::Error> comparison_mismatch(const ComparisonFile& a, const ComparisonFile& b) {
  const analysis::Comparison& x = a.comparison;
  const analysis::Comparison& y = b.comparison;
  if (auto problem =
          build_mismatch(a.path, x.baseline_build, b.path, y.baseline_build, "baseline ")) {
    return problem;
  }
  if (auto problem = build_mismatch(a.path, x.candidate_build, b.path, y.candidate_build, "new ")) {
    return problem;
  }
  if (auto problem = split_mismatch(a.path, x.shard, b.path, y.shard)) return problem;
  return settings_mismatch(a, b);
}

// Each distinct text once, in the files' order, joined: a note the shards share is said once.
void join_distinct(std::string& into, const std::string& text) {
  if (text.empty() || into.find(text) != std::string::npos) return;
  into = into.empty() ? text : into + "; " + text;
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
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> names;
  std::vector<std::optional<Shard>> records;
  for (const ShardFile& shard : shards) {
    paths.push_back(shard.path);
    names.emplace_back();
    for (const BenchmarkResult& benchmark : shard.run.benchmarks) {
      names.back().push_back(benchmark.name);
    }
    records.push_back(shard.run.context.shard);
  }
  if (auto problem = check_disjoint(paths, names)) return *problem;
  MergedShards merged;
  merged.files = shards.size();
  merged.missing = missing_shards(records);
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

namespace benchkit::session {

model::Result<MergedComparisons> merge_shard_comparisons(std::vector<ComparisonFile> shards) {
  if (shards.empty()) return refused("no comparison file to merge: give each shard's comparison");
  std::stable_sort(shards.begin(), shards.end(),
                   [](const ComparisonFile& a, const ComparisonFile& b) {
                     return (a.comparison.shard ? a.comparison.shard->index : 0) <
                            (b.comparison.shard ? b.comparison.shard->index : 0);
                   });
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> names;
  std::vector<std::optional<Shard>> records;
  for (const ComparisonFile& shard : shards) {
    if (auto problem = comparison_mismatch(shards.front(), shard)) return *problem;
    paths.push_back(shard.path);
    names.emplace_back();
    for (const auto& row : shard.comparison.benchmarks) names.back().push_back(row.name);
    records.push_back(shard.comparison.shard);
  }
  if (auto problem = check_disjoint(paths, names)) return *problem;
  MergedComparisons merged;
  merged.files = shards.size();
  merged.missing = missing_shards(records);
  analysis::Comparison& into = merged.comparison;
  into.settings = shards.front().comparison.settings;
  into.baseline_build = shards.front().comparison.baseline_build;
  into.candidate_build = shards.front().comparison.candidate_build;
  if (!merged.missing.empty()) {
    into.context_warning = fmt::format("merged without {}: those benchmarks are not compared here",
                                       fmt::join(merged.missing, "; "));
  }
  for (ComparisonFile& shard : shards) {
    analysis::Comparison& part = shard.comparison;
    join_distinct(into.context_warning, part.context_warning);
    join_distinct(into.design_warning, part.design_warning);
    join_distinct(into.method_note, part.method_note);
    for (auto& row : part.benchmarks) into.benchmarks.push_back(std::move(row));
  }
  // One suite: the adjustment over every shard's tested benchmarks at once.
  analysis::judge_suite(into);
  return merged;
}

model::Result<MergedComparisons> merge_comparison_files(const std::vector<std::string>& paths) {
  std::vector<ComparisonFile> shards;
  for (const std::string& path : paths) {
    const auto text = store::read_file(path);
    if (!text) return model::Error{text.error().message, model::ErrorKind::input};
    auto comparison = formats::comparison_from_json(*text, path);
    if (!comparison) return model::Error{comparison.error().message, model::ErrorKind::input};
    shards.push_back(ComparisonFile{path, std::move(*comparison)});
  }
  return merge_shard_comparisons(std::move(shards));
}

model::Result<MergeKind> merge_kind(const std::vector<std::string>& paths) {
  const std::string* result = nullptr;
  const std::string* comparison = nullptr;
  for (const std::string& path : paths) {
    const auto text = store::read_file(path);
    if (!text) return model::Error{text.error().message, model::ErrorKind::input};
    (formats::is_comparison_document(*text) ? comparison : result) = &path;
  }
  if (result && comparison) {
    return refused(fmt::format(
        "{} is a comparison (benchkit/comparison) and {} is not: merge either the shards' "
        "result files or their comparisons, not both at once",
        *comparison, *result));
  }
  return comparison ? MergeKind::comparisons : MergeKind::results;
}

}  // namespace benchkit::session
