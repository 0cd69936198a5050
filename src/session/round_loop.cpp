#include "session/round_loop.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "clock/phase_trace.hpp"

namespace benchkit::session {
namespace {

bool named_in(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string interrupted_note(const SideBySideRuns& runs) {
  if (!runs.interrupted_in) return {};
  return fmt::format(
      "; Ctrl-C stopped it in round {}: the verdicts rest on the rounds that finished before it",
      *runs.interrupted_in + 1);
}

model::Result<SideBySideRuns> run_round_loop(const RoundLoop& loop, const RoundSteps& steps,
                                             const Undecided& undecided) {
  const std::size_t first = std::max<std::size_t>(1, loop.rounds);
  const std::size_t batch = loop.look_every > 0 ? loop.look_every : first;
  const std::size_t most = std::max(loop.max_rounds, first);
  // Benchmarks still in the comparison, those that run in the next batch, and the rounds each had.
  std::vector<std::size_t> open(loop.benchmarks.size());
  for (std::size_t i = 0; i < open.size(); ++i) open[i] = i;
  std::vector<std::size_t> running = open;
  std::vector<std::size_t> had(loop.benchmarks.size(), 0);
  if (open.empty()) return steps.result();
  for (std::size_t done = 0;;) {
    std::size_t fewest = most;
    for (const std::size_t index : running) fewest = std::min(fewest, had[index]);
    const std::size_t planned = done + std::min(done == 0 ? first : batch, most - fewest);
    for (std::size_t round = done; round < planned; ++round) {
      std::vector<std::size_t> active;
      for (const std::size_t index : running) {
        if (had[index] < most && !steps.failed(index)) active.push_back(index);
      }
      if (auto failed = steps.run_round(round, planned, active)) {
        // Ctrl-C once a round has finished: the comparison of the rounds so far, not nothing.
        if (failed->kind != model::ErrorKind::interrupted || round == 0) return *failed;
        SideBySideRuns so_far = steps.result();
        so_far.interrupted_in = round;
        return so_far;
      }
      for (const std::size_t index : active) ++had[index];
    }
    done = planned;
    std::erase_if(open,
                  [&](std::size_t index) { return steps.failed(index) || had[index] >= most; });
    // One merge serves both the question and the answer: when nothing is left undecided, the
    // runs that decided it are the result.
    clock::TracedPhase merging("merge", fmt::format("rounds={}", done));
    SideBySideRuns merged = steps.result();
    if (!undecided || open.empty()) return merged;
    const Look look = undecided(merged);
    merging.end();
    std::erase_if(
        open, [&](std::size_t index) { return !named_in(look.undecided, loop.benchmarks[index]); });
    running = open;
    if (look.next) {
      std::erase_if(running, [&](std::size_t index) {
        return !named_in(*look.next, loop.benchmarks[index]);
      });
    }
    if (running.empty()) return merged;
  }
}

}  // namespace benchkit::session
