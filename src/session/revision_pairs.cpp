#include "session/revision_pairs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "session/bench_options.hpp"
#include "session/gbench_binary.hpp"
#include "system/context.hpp"

namespace benchkit::session {

model::Result<Prepared> prepare_told(Workshop& workshop, const std::string& root,
                                     const Revision& revision, const vcs::Checkout& checkout,
                                     const vcs::BuildRecipe& recipe, Observer& observer) {
  const PrepareProgress progress = [&observer](const Revision& r, const std::string& step) {
    observer.revision_step(r.label(), step);
  };
  auto prepared = workshop.prepare(root, revision, checkout, recipe, progress);
  if (!prepared) return prepared.error();
  observer.revision_built(revision.label(), prepared->built.cached, prepared->built.seconds,
                          prepared->built.build_folder);
  return prepared;
}

vcs::BuildRecipe recipe_like(const vcs::BuildRecipe& recipe, const Prepared& built) {
  vcs::BuildRecipe same = recipe;
  if (same.cmake && same.targets.empty() && !same.all_targets) {
    for (const auto& e : built.built.executables) same.targets.push_back(e.name);
  }
  return same;
}

std::vector<BinaryPair> binary_pairs(const Prepared& base, const Prepared& candidate) {
  std::vector<BinaryPair> pairs;
  for (const auto& ours : candidate.built.executables) {
    for (const auto& theirs : base.built.executables) {
      if (theirs.name == ours.name) pairs.push_back({ours.name, theirs.artifact, ours.artifact});
    }
  }
  return pairs;
}

namespace {

// One side's executables (`binary` picks the side's path of a pair) as identify_builds says.
void identify_side(const std::vector<BinaryPair>& pairs, const std::string BinaryPair::*binary,
                   Context& context) {
  if (pairs.empty()) return;
  std::string lines;
  for (const BinaryPair& pair : pairs) {
    const std::string hash = system::sha256_of_file(pair.*binary);
    if (hash.empty()) return;
    if (pairs.size() == 1) {
      context.executable = pair.*binary;
      context.executable_sha256 = hash;
      return;
    }
    lines += pair.target + " " + hash + "\n";
  }
  context.executable.clear();
  context.executable_sha256 = system::sha256_of_text(lines);
}

}  // namespace

void identify_builds(const std::vector<BinaryPair>& pairs, Context& baseline, Context& candidate) {
  identify_side(pairs, &BinaryPair::baseline, baseline);
  identify_side(pairs, &BinaryPair::candidate, candidate);
}

AbRequest pair_request(const PairSettings& settings, Observer& observer) {
  AbRequest request;
  request.bench_regex = settings.bench_regex;
  request.bench_flags = settings.bench_flags;
  request.rounds = settings.rounds;
  request.max_rounds = settings.max_rounds;
  request.budget_ns = settings.budget_ns;
  // As the bench binary's --baseline does.
  request.round_budget_ns = turn_budget_ns(settings.time_budget_ns, settings.rounds);
  request.worker_timeout = settings.worker_timeout;
  request.compare = settings.compare;
  request.shard = settings.shard;
  request.together = settings.together;
  request.progress = [&observer](const std::string& target, std::size_t round, std::size_t planned,
                                 std::size_t index, std::size_t count, const std::string& name) {
    observer.pair_round_started(target, round, planned, index, count, name);
  };
  request.failed = [&observer](const std::string& name, const std::string& message) {
    observer.benchmark_failed(name, message);
  };
  return request;
}

std::string pairs_note(const Prepared& base, const Prepared& candidate,
                       const std::string& description, const std::string& rounds,
                       const PairSettings& settings, Mode mode, bool gbench) {
  if (mode == Mode::instructions) {
    return fmt::format(
        "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the "
        "same way ({}); each build's bench binary counted its benchmarks under valgrind's "
        "callgrind (--mode instructions: a fresh process per benchmark, pinned cache geometry, "
        "no address randomisation), one build after the other; counts repeat exactly, so a "
        "change beyond ±{:g}% is a verdict",
        candidate.revision.label(), base.revision.label(), description,
        100.0 * settings.compare.count_noise_threshold);
  }
  return fmt::format(
      "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the same "
      "way ({}); their bench binaries ran side by side, {} rounds of fresh process pairs {} "
      "{}, so both met the machine in the same state{}",
      candidate.revision.label(), base.revision.label(), description, rounds,
      gbench && settings.together ? "(each running the benchmarks left)" : "per benchmark",
      gbench ? fmt::format("(Google Benchmark binaries, as benchkit compare OLD NEW runs them: "
                           "unless the flags after -- set them, {} repetitions of {:g} ms a "
                           "process ({:g} ms for a benchmark of several threads); both "
                           "processes of a round on one CPU; {})",
                           kGbenchTurnRepetitions, 1000.0 * kGbenchTurnMinTimeS,
                           1000.0 * kThreadedTurnMinTimeS,
                           settings.together
                               ? std::string("a round's benchmarks together, one process a "
                                             "build, as --together asks")
                               : fmt::format("a suite whose process takes {:g} s or more to "
                                             "start runs a round's benchmarks together, one "
                                             "process a build (--together: every suite)",
                                             kSlowStartS))
             : std::string("taking samples in turns"),
      settings.max_rounds > settings.rounds
          ? fmt::format(
                "; benchmarks still inconclusive after {} get more, up to {}, one round at a "
                "time, each look read at its level of a sequential design (docs/verdicts.md)",
                settings.rounds, settings.max_rounds)
          : "");
}

}  // namespace benchkit::session
