#include "session/suite_budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/round_budget.hpp"

namespace benchkit::session {

using analysis::describe_duration;

namespace {

// The rounds each benchmark of the new side had, summed: what the time so far bought. Of
// benchmarks that ran together, the rounds.
std::size_t benchmark_rounds(const SideBySideRuns& runs) {
  std::size_t rounds = 0;
  std::set<std::uint32_t> all;
  for (const BenchmarkResult& result : runs.candidate.benchmarks) {
    std::set<std::uint32_t> seen;
    for (const Sample& sample : result.samples) {
      if (sample.round) seen.insert(*sample.round);
    }
    rounds += seen.size();
    all.insert(seen.begin(), seen.end());
  }
  return runs.together ? all.size() : rounds;
}

}  // namespace

SuiteBudget::SuiteBudget(std::int64_t budget_ns, clock::Clock& clock)
    : budget_ns_(budget_ns), clock_(clock), start_ns_(clock.now_ns()) {}

Look SuiteBudget::look(const SideBySideRuns& so_far, const analysis::CompareSettings& settings,
                       std::size_t batch) {
  analysis::Comparison comparison = analysis::compare(so_far.baseline, so_far.candidate, settings);
  // A benchmark whose estimate puts a verdict far beyond the design's last round stops here
  // (analysis::beyond_reach): those rounds go to the others, or are not spent.
  const std::size_t most = analysis::design_max_rounds(settings);
  std::erase_if(comparison.benchmarks, [&](const analysis::BenchmarkComparison& row) {
    return analysis::beyond_reach(row, settings, most);
  });
  Look look;
  for (const analysis::BenchmarkComparison& row : comparison.benchmarks) {
    if (analysis::wants_more_rounds(row)) look.undecided.push_back(row.name);
  }
  ended(so_far);
  if (budget_ns_ <= 0) return look;
  const auto spent = static_cast<double>(spent_ns());
  const double left = static_cast<double>(budget_ns_) - spent;
  const double cost =
      round_cost_ns_.value_or(0.0) * static_cast<double>(std::max<std::size_t>(1, batch));
  // No round yet to learn the cost from: nothing is affordable (the first rounds come first).
  std::size_t slots =
      left <= 0.0 || !(cost > 0.0) ? 0 : static_cast<std::size_t>(std::floor(left / cost));
  // Together, a round costs the same for one benchmark as for all.
  if (together_ && slots > 0) slots = comparison.benchmarks.size();
  look.next = analysis::allocate_next_round(comparison.benchmarks, settings, slots);
  left_undecided_ = look.undecided.size();
  ran_out_ = !look.undecided.empty() && look.next->empty();
  return look;
}

void SuiteBudget::ended(const SideBySideRuns& runs) {
  together_ = runs.together;
  taken_ = benchmark_rounds(runs);
  last_look_ns_ = clock_.now_ns();
  if (taken_ > 0) round_cost_ns_ = static_cast<double>(spent_ns()) / static_cast<double>(taken_);
}

Undecided SuiteBudget::looks(const analysis::CompareSettings& settings) {
  return [this, settings](const SideBySideRuns& so_far) { return look(so_far, settings); };
}

std::string SuiteBudget::summary() const {
  const double spent = static_cast<double>(last_look_ns_ - start_ns_);
  if (ran_out_) {
    return fmt::format(
        "the --budget of {} ran out ({} spent, about {} a {}round): {} "
        "benchmark{} still inconclusive got no more rounds",
        describe_duration(static_cast<double>(budget_ns_)), describe_duration(spent),
        describe_duration(round_cost_ns_.value_or(0.0)), together_ ? "" : "benchmark's ",
        left_undecided_, left_undecided_ == 1 ? "" : "s");
  }
  return fmt::format(
      "within the --budget of {}, rounds going first to the benchmarks furthest "
      "from settled",
      describe_duration(static_cast<double>(budget_ns_)));
}

}  // namespace benchkit::session
