#include "session/compare_options.hpp"

#include <fmt/format.h>

#include "session/shard.hpp"

namespace benchkit::session {

model::Result<Plan> plan_for(const CompareOptions& o) {
  const bool base_runs = is_program(o.base);
  const bool candidate_runs = is_program(o.candidate);
  if (base_runs != candidate_runs) {
    // A path to nothing beside an executable: what is wrong is the path.
    for (const std::string* path : {&o.base, &o.candidate}) {
      if (names_nothing(*path)) {
        return usage_error(fmt::format("{}: no such file; check the path", *path));
      }
    }
    return usage_error(fmt::format(
        "{} and {}: give two executables, or two result files or baselines, not one of each",
        o.base, o.candidate));
  }
  Steps then;
  then.compare = comparison_settings(o.comparison);
  then.fail_on_regression = o.fail_on_regression;
  // Two files: the status answers for the comparison, a benchmark that failed before is an
  // invalid verdict. Two executables: a benchmark that failed as they ran (crashed, hung, exited)
  // is a failure of this run as well, exit status 1, as in ab.
  then.fail_on_failed_benchmark = base_runs;
  auto shard = optional_shard(o.shard);
  if (!shard) return shard.error();
  const auto budget = parse_budget(o.budget);
  if (!budget) return budget.error();
  if (!base_runs) {
    if (o.together) {
      return usage_error(
          "--together chooses how two Google Benchmark executables run now; two result files are "
          "compared as they are (leave --together out)");
    }
    if (*budget > 0) {
      return usage_error(
          "--budget limits the rounds of two executables run now; two result files are compared "
          "as they are (leave --budget out)");
    }
    if (*shard) {
      return usage_error(
          "--shard splits the benchmarks of two executables run now; two result files are "
          "compared whole (join shards' files with benchkit merge first)");
    }
    return Plan{FilesPlan{o.base, o.candidate}, then};
  }
  if (o.max_rounds > 0 && o.max_rounds < o.rounds) {
    return usage_error(fmt::format("--max-rounds {} is below --rounds {}", o.max_rounds, o.rounds));
  }
  BinariesPlan binaries;
  binaries.base = o.base;
  binaries.candidate = o.candidate;
  binaries.flags = o.trailing;
  binaries.filter = o.filter;
  binaries.rounds = o.rounds;
  binaries.shard = *shard;
  binaries.budget_ns = *budget;
  binaries.together = o.together;
  std::int64_t timeout_ns = 0;
  if (auto error = duration_flag(o.worker_timeout, "--worker-timeout", timeout_ns)) return *error;
  if (timeout_ns > 0) binaries.worker_timeout = std::chrono::milliseconds(timeout_ns / 1'000'000);
  // As a bench binary's --baseline does (session/bench_options.hpp).
  look_after_every_round(binaries, then, o.max_rounds);
  return Plan{std::move(binaries), then};
}

}  // namespace benchkit::session
