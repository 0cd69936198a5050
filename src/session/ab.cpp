#include "session/ab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/estimates.hpp"
#include "analysis/round_budget.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "process/interrupt.hpp"
#include "process/temporary_folder.hpp"
#include "session/counted.hpp"
#include "session/gbench_binary.hpp"
#include "session/name_filter.hpp"
#include "session/pipeline.hpp"
#include "session/runner.hpp"
#include "session/side_by_side.hpp"
#include "session/suite_budget.hpp"

namespace benchkit::session {
namespace {

// Listing is a registry walk: well under a second, even for a binary with thousands of
// benchmarks; a binary that takes longer is stuck.
constexpr std::chrono::seconds kAbListTimeout{30};

BenchmarkResult named(const std::string& name) {
  BenchmarkResult result;
  result.name = name;
  return result;
}

std::string prefixed(const std::string& target, const std::string& name, bool several) {
  return several ? target + "/" + name : name;
}

}  // namespace

model::Result<std::vector<std::string>> list_benchmarks(const std::string& binary,
                                                        const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {binary, "--list"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  process::CaptureOptions options;
  options.timeout = kAbListTimeout;
  const auto listed = process::run_captured(argv, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{
        fmt::format("{} cannot list its benchmarks ({}): is it a bench binary linking "
                    "benchkit::main, and are the flags after -- ones it takes?",
                    binary, listed ? listed->exit.describe() : listed.error().message),
        model::ErrorKind::failed};
  }
  std::vector<std::string> names;
  std::istringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

model::Result<BenchmarkSets> split_benchmarks(const std::vector<std::string>& baseline,
                                              const std::vector<std::string>& candidate,
                                              const std::string& regex) {
  const auto parsed = parse_name_filter(regex, "--bench");
  if (!parsed) return parsed.error();
  const std::optional<NameFilter>& pattern = *parsed;
  const auto chosen = [&](const std::string& name) { return !pattern || pattern->keeps(name); };
  const std::set<std::string> theirs(baseline.begin(), baseline.end());
  const std::set<std::string> ours(candidate.begin(), candidate.end());
  BenchmarkSets sets;
  for (const std::string& name : candidate) {
    if (!chosen(name)) continue;
    (theirs.count(name) ? sets.both : sets.added).push_back(name);
  }
  for (const std::string& name : baseline) {
    if (chosen(name) && !ours.count(name)) sets.removed.push_back(name);
  }
  if (sets.both.empty() && sets.added.empty() && sets.removed.empty()) {
    std::set<std::string> all(theirs);
    all.insert(ours.begin(), ours.end());
    return model::Error{
        fmt::format("no benchmark matches --bench \"{}\"; the builds have: {}", regex,
                    all.empty() ? "none" : fmt::format("{}", fmt::join(all, ", "))),
        model::ErrorKind::usage};
  }
  return sets;
}

namespace {

// The names a pair's binary has: a benchkit bench binary's --list, a Google Benchmark binary's
// own listing (never --list: a suite with its own main() would run all it has).
model::Result<std::vector<std::string>> names_of(const std::string& binary, bool gbench,
                                                 const std::vector<std::string>& flags,
                                                 double& start_s) {
  return gbench ? list_gbench_benchmarks(binary, flags, &start_s) : list_benchmarks(binary, flags);
}

// What the two kinds of side-by-side plan (SideBySide, GbenchSideBySide) take alike from a pair:
// its builds, its common benchmarks, the rounds, a look after every round, and the round progress
// told to `request` with the pair's target first.
template <class Plan>
Plan pair_plan(const AbRequest& request, const BinaryPair& pair, const BenchmarkSets& sets) {
  Plan plan;
  plan.baseline_executable = pair.baseline;
  plan.candidate_executable = pair.candidate;
  plan.benchmarks = sets.both;
  plan.rounds = request.rounds;
  plan.max_rounds = request.max_rounds;
  plan.look_every = 1;
  if (request.progress) {
    plan.progress = [&request, &pair](std::size_t round, std::size_t planned, std::size_t index,
                                      std::size_t count, const std::string& name) {
      request.progress(pair.target, round, planned, index, count, name);
    };
  }
  return plan;
}

// A pair of benchkit bench binaries, taking samples in turns (session/side_by_side.hpp).
model::Result<SideBySideRuns> run_benchkit_pair(const AbRequest& request, const BinaryPair& pair,
                                                const BenchmarkSets& sets, bool several,
                                                const Undecided& undecided) {
  auto plan = pair_plan<SideBySide>(request, pair, sets);
  plan.round_budget_ns = request.round_budget_ns;
  plan.worker_timeout = request.worker_timeout;
  plan.worker_flags = request.bench_flags;
  plan.clock = process_clock().clock;
  if (request.failed) {
    plan.failed = [&](const std::string& name, const std::string& message) {
      request.failed(prefixed(pair.target, name, several), message);
    };
  }
  return run_side_by_side(plan, undecided);
}

// A pair of Google Benchmark binaries, as `benchkit compare OLD NEW` runs them
// (session/gbench_binary.hpp): a fresh process of each build per benchmark and round, on one
// CPU, the repetitions set by a pilot run.
model::Result<SideBySideRuns> run_gbench_pair(const AbRequest& request, const BinaryPair& pair,
                                              const BenchmarkSets& sets,
                                              const Undecided& undecided) {
  auto plan = pair_plan<GbenchSideBySide>(request, pair, sets);
  plan.flags = request.bench_flags;
  plan.turn_flags = true;
  plan.listed_start_s = sets.start_s;  // both builds listed already (names_of)
  if (request.together) plan.together_from_s = 0.0;
  if (request.worker_timeout) plan.timeout = request.worker_timeout;
  return run_gbench_side_by_side(plan, undecided);
}

// The benchmarks of one pair run side by side in rounds, a look after every round, each read at
// its level of the sequential design (request.compare.sequential_alpha, set by ab_plan); with a
// budget, the next round only for those the pair's share of it affords.
model::Result<SideBySideRuns> run_pair_side_by_side(const AbRequest& request,
                                                    const BinaryPair& pair, bool gbench,
                                                    const BenchmarkSets& sets, bool several,
                                                    SuiteBudget& budget, std::size_t suite_size) {
  // A shard stops by the verdicts of the whole suite it was cut from (CompareSettings::suite_size).
  analysis::CompareSettings looks = request.compare;
  looks.suite_size = suite_size;
  auto runs = sets.both.empty() ? model::Result<SideBySideRuns>(SideBySideRuns{})
              : gbench          ? run_gbench_pair(request, pair, sets, budget.looks(looks))
                       : run_benchkit_pair(request, pair, sets, several, budget.looks(looks));
  if (!runs) {
    return model::Error{runs.error().message, process::interrupt_requested()
                                                  ? model::ErrorKind::interrupted
                                                  : model::ErrorKind::failed};
  }
  if (!sets.both.empty()) budget.ended(*runs);
  for (const std::string& name : sets.removed) runs->baseline.benchmarks.push_back(named(name));
  for (const std::string& name : sets.added) runs->candidate.benchmarks.push_back(named(name));
  return runs;
}

// The benchmarks of one pair counted, each binary on its own: those only one build has are in
// its result only, and the comparison lists them as added or removed.
model::Result<SideBySideRuns> count_pair(const AbRequest& request, const BinaryPair& pair,
                                         const BenchmarkSets& sets, const std::string& folder) {
  SideBySideRuns runs;
  for (const bool baseline : {true, false}) {
    const std::size_t benchmarks =
        sets.both.size() + (baseline ? sets.removed.size() : sets.added.size());
    if (benchmarks == 0) continue;  // the binary would refuse a filter matching none of its own
    std::vector<std::string> flags;
    if (!request.bench_regex.empty()) flags.insert(flags.end(), {"--filter", request.bench_regex});
    flags.insert(flags.end(), request.bench_flags.begin(), request.bench_flags.end());
    if (request.counting) request.counting(pair.target, baseline, benchmarks);
    const std::string out = fmt::format("{}/{}-{}.json", folder, baseline ? "base" : "new",
                                        &pair - request.binaries.data());
    auto counted = count_bench_binary(baseline ? pair.baseline : pair.candidate, flags, out);
    if (process::interrupt_requested()) {
      return model::Error{"interrupted while counting: nothing compared",
                          model::ErrorKind::interrupted};
    }
    if (!counted) return counted.error();
    (baseline ? runs.baseline : runs.candidate) = std::move(*counted);
  }
  return runs;
}

// Keeps in `sets` only the benchmarks of `shard` among all the pair's names (both builds');
// returns how many there were, and adds how many are kept to `kept`.
std::size_t keep_shard(BenchmarkSets& sets, const ShardSpec& shard, std::size_t& kept) {
  std::vector<std::string> names = sets.both;
  names.insert(names.end(), sets.removed.begin(), sets.removed.end());
  names.insert(names.end(), sets.added.begin(), sets.added.end());
  const std::vector<std::string> part = names_in_shard(names, shard);
  const std::set<std::string> in(part.begin(), part.end());
  for (auto* set : {&sets.both, &sets.removed, &sets.added}) {
    std::erase_if(*set, [&](const std::string& name) { return !in.count(name); });
  }
  kept += part.size();
  return names.size();
}

}  // namespace

model::Result<AbRuns> measure_ab(const AbRequest& request) {
  AbRuns outcome;
  const bool several = request.binaries.size() > 1;
  std::optional<std::string> folder;
  if (request.counted) {
    auto made = process::make_temporary_folder("benchkit-ab-counted");
    if (!made) return made.error();
    folder = std::move(*made);
  }
  const process::FolderRemover remover(folder.value_or(""));
  std::size_t selected = 0;  // --shard: the whole selection, every shard together; else 0
  std::size_t shard_benchmarks = 0;
  // Every pair listed first: a budget is shared among the pairs by their benchmarks.
  std::vector<BenchmarkSets> all_sets;
  std::size_t compared = 0;
  // Which pairs are Google Benchmark binaries (both builds of one target are of one kind).
  std::vector<bool> gbench;
  for (const BinaryPair& pair : request.binaries) {
    gbench.push_back(process::links_google_benchmark(pair.candidate));
    if (process::links_google_benchmark(pair.baseline) != gbench.back()) {
      return model::Error{
          fmt::format("{} and {}: one links Google Benchmark and the other does not; ab compares "
                      "two builds of one kind of bench binary",
                      pair.baseline, pair.candidate),
          model::ErrorKind::usage};
    }
    outcome.gbench = outcome.gbench || gbench.back();
    if (gbench.back() && request.counted) {
      return model::Error{fmt::format("{} links Google Benchmark: --mode instructions counts "
                                      "benchkit bench binaries; leave it out to compare the "
                                      "builds side by side in time",
                                      pair.candidate),
                          model::ErrorKind::usage};
    }
    std::array<double, 2> start_s = {0.0, 0.0};
    const auto theirs = names_of(pair.baseline, gbench.back(), request.bench_flags, start_s[0]);
    if (!theirs) return theirs.error();
    const auto ours = names_of(pair.candidate, gbench.back(), request.bench_flags, start_s[1]);
    if (!ours) return ours.error();
    auto sets = split_benchmarks(*theirs, *ours, request.bench_regex);
    if (!sets) return sets.error();
    sets->start_s = start_s;
    if (request.shard) selected += keep_shard(*sets, *request.shard, shard_benchmarks);
    compared += sets->both.size();
    all_sets.push_back(std::move(*sets));
  }
  clock::Clock& clock = *process_clock().clock;
  const std::int64_t budget_start = clock.now_ns();
  std::int64_t spent_in_rounds = 0;
  std::size_t rounds_taken_in_all = 0;
  std::vector<std::string> budget_notes;
  for (std::size_t k = 0; k < request.binaries.size(); ++k) {
    const BinaryPair& pair = request.binaries[k];
    const BenchmarkSets* sets = &all_sets[k];
    // This pair's share of what is left of the budget: its part of the benchmarks left.
    std::int64_t share = 0;
    if (request.budget_ns > 0 && compared > 0) {
      const std::int64_t left = request.budget_ns - (clock.now_ns() - budget_start);
      share = std::max<std::int64_t>(1, left / static_cast<std::int64_t>(compared) *
                                            static_cast<std::int64_t>(sets->both.size()));
    }
    compared -= sets->both.size();
    SuiteBudget budget(share, clock);
    auto runs = request.counted ? count_pair(request, pair, *sets, *folder)
                                : run_pair_side_by_side(request, pair, gbench[k], *sets, several,
                                                        budget, selected);
    if (!runs) return runs.error();
    spent_in_rounds += budget.spent_ns();
    rounds_taken_in_all += budget.rounds_taken();
    if (share > 0 && !sets->both.empty()) {
      budget_notes.push_back(several ? pair.target + ": " + budget.summary() : budget.summary());
    }
    for (auto [side, into] : {std::pair{&runs->baseline, &outcome.baseline},
                              std::pair{&runs->candidate, &outcome.candidate}}) {
      if (into->benchmarks.empty()) into->context = side->context;
      for (BenchmarkResult& result : side->benchmarks) {
        result.name = prefixed(pair.target, result.name, several);
        into->benchmarks.push_back(std::move(result));
      }
    }
    if (runs->interrupted_in) {
      // The rounds before Ctrl-C, and no later pair.
      outcome.interrupted_note = interrupted_note(*runs);
      if (several) {
        const bool more = k + 1 < request.binaries.size();
        outcome.interrupted_note += fmt::format(" (of {}{})", pair.target,
                                                more ? "; the targets after it did not run" : "");
      }
      break;
    }
  }
  analysis::compute_estimates(outcome.baseline);
  analysis::compute_estimates(outcome.candidate);
  if (request.shard) {
    outcome.baseline.context.shard = shard_record(*request.shard, shard_benchmarks, selected);
    outcome.candidate.context.shard = outcome.baseline.context.shard;
  }
  outcome.rounds = rounds_taken(outcome.candidate);
  if (!request.counted && rounds_taken_in_all > 0) {
    outcome.round_cost_ns =
        static_cast<double>(spent_in_rounds) / static_cast<double>(rounds_taken_in_all);
  }
  if (!budget_notes.empty()) {
    outcome.budget_note = several ? fmt::format(
                                        "the --budget shared among the bench targets by "
                                        "their benchmarks ({})",
                                        fmt::join(budget_notes, "; "))
                                  : budget_notes.front();
  }
  return outcome;
}

model::Result<AbOutcome> run_ab(const AbRequest& request) {
  auto runs = measure_ab(request);
  if (!runs) return runs.error();
  if (!runs->interrupted_note.empty()) {
    return model::Error{"interrupted while the two builds ran side by side: nothing compared",
                        model::ErrorKind::interrupted};
  }
  AbOutcome outcome;
  outcome.comparison = judge(runs->baseline, runs->candidate, request.compare, {},
                             /*measured_together=*/true);
  if (runs->round_cost_ns) analysis::note_settle_estimates(outcome.comparison, runs->round_cost_ns);
  outcome.baseline = std::move(runs->baseline);
  outcome.candidate = std::move(runs->candidate);
  outcome.rounds = std::move(runs->rounds);
  return outcome;
}

std::string rounds_taken(const RunResult& run) {
  std::size_t fewest = 0;
  std::size_t most = 0;
  for (const BenchmarkResult& result : run.benchmarks) {
    std::set<std::uint32_t> rounds;
    for (const Sample& sample : result.samples) {
      if (sample.round) rounds.insert(*sample.round);
    }
    if (rounds.empty()) continue;
    fewest = fewest == 0 ? rounds.size() : std::min(fewest, rounds.size());
    most = std::max(most, rounds.size());
  }
  return fewest == most ? fmt::format("{}", most) : fmt::format("{}-{}", fewest, most);
}

namespace {

double basis_ratio(const analysis::BenchmarkComparison* basis) {
  return basis ? basis->ratio : 1.0;
}

}  // namespace

Summary summarise(const analysis::Comparison& comparison, analysis::Verdict sought) {
  using analysis::Verdict;
  Summary summary;
  summary.verdict = Verdict::unchanged;
  const analysis::BenchmarkComparison* basis = nullptr;
  auto rank = [sought](Verdict v) {
    if (v == sought) return 2;
    if (v == Verdict::inconclusive || v == Verdict::invalid) return 1;
    return 0;
  };
  bool any = false;
  for (const auto& benchmark : comparison.benchmarks) {
    if (benchmark.verdict == Verdict::added || benchmark.verdict == Verdict::removed) continue;
    any = true;
    const Verdict as = rank(benchmark.verdict) == 2   ? sought
                       : rank(benchmark.verdict) == 1 ? Verdict::inconclusive
                                                      : Verdict::unchanged;
    // The largest change in the direction sought.
    const bool further = sought == Verdict::improved ? benchmark.ratio < basis_ratio(basis)
                                                     : benchmark.ratio > basis_ratio(basis);
    if (!basis || rank(as) > rank(summary.verdict) ||
        (rank(as) == rank(summary.verdict) && further)) {
      summary.verdict = as;
      basis = &benchmark;
    }
  }
  if (!any) summary.verdict = Verdict::inconclusive;
  if (basis) {
    summary.benchmark = basis->name;
    summary.ratio = basis->ratio;
    summary.ratio_lower = basis->ratio_lower;
    summary.ratio_upper = basis->ratio_upper;
  }
  return summary;
}

}  // namespace benchkit::session
