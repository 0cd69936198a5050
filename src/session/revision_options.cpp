#include "session/revision_options.hpp"

#include <fmt/format.h>

#include "session/shard.hpp"

#include <algorithm>
#include <chrono>

#include "analysis/compare.hpp"
#include "model/duration.hpp"
#include "session/bench_options.hpp"
#include "session/counted.hpp"

namespace benchkit::session {

model::Result<PairSettings> pair_settings(const RevisionOptions& o) {
  if (o.rounds == 0) return usage_error("--rounds must be at least 1");
  if (o.max_rounds > 0 && o.max_rounds < o.rounds) {
    return usage_error(fmt::format("--max-rounds {} is below --rounds {}", o.max_rounds, o.rounds));
  }
  // Without --time-budget: side by side's default for bench binaries, a second for a --cmd.
  std::int64_t time_budget_ns = o.commands.empty() ? kSideBySideBudgetNs : 1'000'000'000;
  if (auto error = duration_flag(o.time_budget, "--time-budget", time_budget_ns)) return *error;
  // As compare's --worker-timeout: an empty value keeps the default.
  std::int64_t timeout_ns = 120'000'000'000;
  if (auto error = duration_flag(o.worker_timeout, "--worker-timeout", timeout_ns)) return *error;
  const auto rounds_budget = parse_budget(o.budget);
  if (!rounds_budget) return rounds_budget.error();
  if (*rounds_budget > 0 && !o.commands.empty()) {
    return usage_error(
        "--budget shares the rounds of bench binaries among their benchmarks; a --cmd is timed "
        "with --time-budget instead");
  }
  if (o.together && !o.commands.empty()) {
    return usage_error(
        "--together runs a round's benchmarks of Google Benchmark binaries in one process a "
        "build; a --cmd is one command already (leave --together out)");
  }
  if (o.commands.size() > 1) {
    return usage_error(
        "give one --cmd: benchkit ab compares one command's two builds (run it once per "
        "command)");
  }
  PairSettings pairs;
  pairs.bench_regex = o.bench;
  pairs.bench_flags = o.trailing;
  pairs.together = o.together;
  pairs.rounds = o.rounds;
  // The bench binary's --baseline default (session/bench_options.hpp), for the same reason.
  pairs.max_rounds = o.max_rounds > 0 ? o.max_rounds : kMaxRoundsFactor * o.rounds;
  pairs.time_budget_ns = time_budget_ns;
  pairs.budget_ns = *rounds_budget;
  pairs.worker_timeout = std::chrono::milliseconds(timeout_ns / 1'000'000);
  pairs.compare = comparison_settings(o.comparison);
  // Bench binaries side by side are looked at after every round (analysis::sequential_levels);
  // a command's rounds are taken without looking, and read at the fixed level.
  if (o.commands.empty()) {
    pairs.compare.sequential_alpha =
        analysis::sequential_levels(pairs.rounds, pairs.max_rounds, pairs.compare.alpha);
  }
  return pairs;
}

std::optional<model::Error> check_ab(const RevisionOptions& o) {
  for (const std::string& word : o.trailing) {
    if (word == "--mode" || word.starts_with("--mode=")) {
      return usage_error(
          "--mode goes before --, to ab itself: benchkit ab BASE NEW --mode instructions "
          "(after --, the bench binaries would get it while taking turns)");
    }
  }
  if (o.mode == Mode::instructions) {
    if (!o.commands.empty()) {
      return usage_error(
          "ab --mode instructions counts the builds' bench binaries; a whole command is "
          "counted with benchkit run --mode instructions -- CMD (in each build folder)");
    }
    for (const char* flag : {"--rounds", "--max-rounds", "--budget", "--time-budget",
                             "--worker-timeout", "--together"}) {
      if (std::find(o.given.begin(), o.given.end(), flag) != o.given.end()) {
        return usage_error(fmt::format(
            "{} is for --mode time (samples taken in turns); --mode instructions counts each "
            "build once, since counts repeat exactly (give --sample-size N after -- for fewer "
            "samples)",
            flag));
      }
    }
    // valgrind missing is found now, not after the builds.
    if (const auto valgrind = find_valgrind(); !valgrind) return valgrind.error();
  }
  // A history that cannot be opened is found now, not after the builds and the rounds.
  return check_record_flags(o.record, o.store);
}

model::Result<Plan> ab_plan(const RevisionOptions& o) {
  auto pairs = pair_settings(o);
  if (!pairs) return pairs.error();
  RevisionsPlan revisions;
  revisions.base = o.base;
  revisions.candidate = o.candidate;
  revisions.build = o.build;
  revisions.mode = o.mode;
  revisions.pairs = std::move(*pairs);
  if (!o.commands.empty()) revisions.command = o.commands.front();
  revisions.command_line = o.command_line;
  auto shard = optional_shard(o.shard);
  if (!shard) return shard.error();
  if (*shard && (!o.commands.empty() || o.mode != Mode::time)) {
    return usage_error(
        "ab --shard splits the bench binaries' benchmarks measured side by side (--mode time); "
        "a --cmd is one command and --mode instructions is not split yet: drop --shard");
  }
  revisions.pairs.shard = *shard;
  Steps then;
  then.compare = revisions.pairs.compare;
  then.fail_on_regression = o.fail_on_regression;
  // Whole commands are compared, not kept: --record keeps the bench binaries' runs.
  then.record = o.record && o.commands.empty();
  then.record_baseline = true;
  then.record_store = o.store;
  then.group = o.group;
  then.both_sides_measured = o.commands.empty();
  return Plan{std::move(revisions), then};
}

model::Result<BisectPlan> bisect_plan(const RevisionOptions& o) {
  if (!o.commands.empty()) return usage_error("bisect compares bench binaries; --cmd is for ab");
  auto pairs = pair_settings(o);
  if (!pairs) return pairs.error();
  return BisectPlan{o.good, o.bad, o.build, std::move(*pairs), o.log, o.faster};
}

}  // namespace benchkit::session
