// A wall-time budget for a whole side-by-side comparison (--budget DURATION on compare OLD NEW,
// a bench binary's --baseline and ab; issue 36, item 3).
//
// Every benchmark has the first --rounds. At each look after that, the benchmarks still
// inconclusive compete for what is left: a round of one benchmark is assumed to cost what the
// rounds so far cost on average (the time since the budget started, over the benchmark-rounds
// taken), so the budget left affords `slots` of them, and analysis::allocate_next_round gives
// those to the benchmarks furthest from settled. The comparison stops when every benchmark is
// settled, had --max-rounds, or no round is affordable. What the average hides: a benchmark
// whose rounds cost more than the others' may overrun the budget by up to one of its rounds.
// Rounds whose benchmarks ran together (SideBySideRuns::together: a Google Benchmark suite slow
// to start, one process a build a round) cost about the same however many benchmarks they hold:
// the cost is then a round's, and a round the budget affords goes to every undecided benchmark.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/compare.hpp"
#include "clock/clock.hpp"
#include "session/round_loop.hpp"

namespace benchkit::session {

class SuiteBudget {
 public:
  // The budget starts now, on `clock` (which must outlive it). 0: no budget; the looks then only
  // learn what a round costs (for the estimates of the benchmarks left undecided).
  SuiteBudget(std::int64_t budget_ns, clock::Clock& clock);

  // A look at the runs so far under `settings` (its sequential levels): the inconclusive
  // benchmarks, and (with a budget) those the budget left affords the next `batch` rounds of.
  Look look(const SideBySideRuns& so_far, const analysis::CompareSettings& settings,
            std::size_t batch = 1);
  // The comparison ended with `runs`: the cost of a round, counted again with its last rounds.
  void ended(const SideBySideRuns& runs);
  // The looks of a comparison under `settings`, one round at a time (this must outlive it).
  Undecided looks(const analysis::CompareSettings& settings);

  // The average cost of one benchmark's round so far (of a round, when the benchmarks ran
  // together), in ns; none before any look.
  std::optional<double> round_cost_ns() const { return round_cost_ns_; }
  // Whether a look found a benchmark undecided and no round affordable.
  bool ran_out() const { return ran_out_; }
  std::int64_t budget_ns() const { return budget_ns_; }
  // Benchmark-rounds taken and the time since the start, at the last look.
  std::size_t rounds_taken() const { return taken_; }
  std::int64_t spent_ns() const { return last_look_ns_ - start_ns_; }
  // How the budget went, for the comparison's method note: "the --budget of 30 s ran out after
  // 25.1 s; 12 benchmarks still undecided got no more rounds" or "... was not spent: ...".
  std::string summary() const;

 private:
  std::int64_t budget_ns_;
  clock::Clock& clock_;
  std::int64_t start_ns_;
  std::int64_t last_look_ns_ = 0;
  std::optional<double> round_cost_ns_;
  bool ran_out_ = false;
  std::size_t left_undecided_ = 0;
  std::size_t taken_ = 0;
  bool together_ = false;
};

}  // namespace benchkit::session
