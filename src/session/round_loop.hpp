// The loop of paired rounds that side by side comparisons share (bench binaries taking turns,
// session/side_by_side.hpp; Google Benchmark binaries, session/gbench_binary.hpp): every
// benchmark gets the first rounds, then a look at the runs so far says which benchmarks are still
// undecided, and of those which get the next batch of rounds, until none is undecided, each had
// the maximum, or none gets a round (a suite budget spent, session/suite_budget.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::session {

// The two runs of a side-by-side comparison, one round per process pair: each sample carries
// `round` and `process` equal to its round.
struct SideBySideRuns {
  RunResult baseline;
  RunResult candidate;
  // Google Benchmark binaries: each round ran its benchmarks together, one process a build (a
  // suite slow to start, GbenchSideBySide::together_from_s), not each in a process of its own.
  bool together = false;
  // Ctrl-C came in this round (from 0), after at least one round had finished: the runs hold the
  // rounds before it, nothing of this one.
  std::optional<std::size_t> interrupted_in;
};

// For the comparison's method note: "; Ctrl-C stopped it in round 8, ..." when `runs` were
// interrupted, else empty.
std::string interrupted_note(const SideBySideRuns& runs);

// What a look at the runs so far decides: the benchmarks whose comparison is not decided yet
// (for instance inconclusive), and, when not every one of them can have the next batch of
// rounds (a suite budget), the ones that do. A benchmark left out of `undecided` is done for
// good; one undecided but left out of `next` waits for a later look.
struct Look {
  Look() = default;
  // Every undecided benchmark gets the next batch (a look that knows no budget).
  Look(std::vector<std::string> open) : undecided(std::move(open)) {}  // NOLINT: implicit
  std::vector<std::string> undecided;
  std::optional<std::vector<std::string>> next;  // none: all of `undecided`
};

// Given the runs so far, the look that decides the next batch. Empty function: no looks.
using Undecided = std::function<Look(const SideBySideRuns&)>;

struct RoundLoop {
  std::vector<std::string> benchmarks;
  std::size_t rounds = 10;     // every benchmark's first rounds (0 counts as 1)
  std::size_t max_rounds = 0;  // the most a benchmark gets (below `rounds`: `rounds`)
  std::size_t look_every = 0;  // rounds between the looks after the first (0: `rounds`)
};

struct RoundSteps {
  // Runs benchmarks `active` (indices into RoundLoop::benchmarks, in order) in round `round`
  // (from 0) of the `planned` so far; an error stops the loop and is its result, except Ctrl-C
  // (an error of kind interrupted) after the first round: the loop's result is then the rounds
  // before it (SideBySideRuns::interrupted_in), so a round that was interrupted must leave
  // nothing in `result`.
  std::function<std::optional<model::Error>(std::size_t round, std::size_t planned,
                                            const std::vector<std::size_t>& active)>
      run_round;
  // Whether benchmark `index` failed (it then leaves the loop).
  std::function<bool(std::size_t index)> failed;
  // The runs so far.
  std::function<SideBySideRuns()> result;
};

// The loop above. Round numbers are global: a benchmark that waits a look out has no sample of
// that round, and the comparison pairs the rounds both sides have. A benchmark stops at
// `max_rounds` of its own.
model::Result<SideBySideRuns> run_round_loop(const RoundLoop& loop, const RoundSteps& steps,
                                             const Undecided& undecided);

}  // namespace benchkit::session
