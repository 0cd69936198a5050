// A side-by-side comparison: the baseline's bench binary (kept with the baseline) and the new
// one measured together, sample by sample in turns, in fresh process pairs.
//
// On a shared machine the speed of the same code changes by more than the changes people look
// for, from one second to the next (docs/verdicts.md); a baseline measured yesterday and a run
// measured now differ by that much even when nothing changed. Measured in turns, a millisecond
// apart, both builds see the machine in the same state, and their ratio keeps only what the
// change did.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "clock/clock.hpp"
#include "measure/engine.hpp"
#include "model/error.hpp"
#include "process/worker_invocation.hpp"
#include "session/round_loop.hpp"

namespace benchkit::process {
class PlacementShuffle;
}  // namespace benchkit::process

namespace benchkit::session {

// The worker's end: one sample per turn given over process::kTurnFd-style descriptor `fd`.
class TurnGate final : public measure::SampleGate {
 public:
  explicit TurnGate(int fd) : fd_(fd) {}
  bool next_sample() override;

 private:
  int fd_;
};

struct SideBySide {
  std::string baseline_executable;
  std::string candidate_executable;
  // Benchmark (instance) names, each run alone in its own process pair: --filter NAME --exact.
  std::vector<std::string> benchmarks;
  // Fresh process pairs per benchmark; the comparison pairs them (Design::paired).
  std::size_t rounds = 10;
  // Benchmarks that `undecided` names after the first `rounds` get more rounds, `rounds` at a
  // time, until `undecided` lets them go or they had max_rounds (below `rounds`: `rounds`).
  std::size_t max_rounds = 0;
  // Rounds between the looks after the first (0: `rounds`). One: a benchmark stops at the first
  // round its verdict is settled (analysis::unsettled reads each look at its own level).
  std::size_t look_every = 0;
  // Sampling time of each side in each round.
  std::int64_t round_budget_ns = 100'000'000;
  // Both workers of a round run on one CPU, so that they share its state (on a virtual machine,
  // two CPUs can run at different speeds for seconds: a neighbour on one physical core but not
  // the other). Round r uses cpus[r % size]; empty: the CPUs this process may use. A threaded
  // benchmark is not narrowed (round_cpu).
  std::vector<int> cpus;
  // How long a worker may take to set up, to take one sample, or to write its results and exit;
  // one that takes longer is killed and the comparison stops with an error. None: for ever.
  std::optional<std::chrono::milliseconds> worker_timeout;
  // At least this many samples a side in each round, whatever the budget.
  std::size_t min_turns = 3;
  // What both workers are told besides the benchmark, its budget and the turns, which this sets
  // (warm-up, params, seed, ...).
  process::WorkerInvocation worker;
  // Flags given to both workers after those, as a user wrote them (after `--` of compare or ab).
  std::vector<std::string> worker_flags;
  clock::Clock* clock = nullptr;  // times the turns against the budget; required
  // Called before each benchmark of each round: the round (from 0), the rounds planned so far,
  // the benchmark's place among this round's `count` and its name.
  std::function<void(std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                     const std::string& name)>
      progress;
  // Called when a benchmark's worker failed (crashed, hung, exited, threw): the benchmark leaves
  // the comparison, recorded as failed on both sides, and the others go on.
  std::function<void(const std::string& name, const std::string& message)> failed;
};

// The two runs (SideBySideRuns, session/round_loop.hpp), one round per process pair: each sample
// carries `round` and `process` equal to its round. Benchmarks keep their order. A benchmark whose
// worker failed in a round is a failed result (session/isolated.hpp's failed_benchmark) on that
// side. The error is for what stops the whole comparison: Ctrl-C, or a worker that cannot be
// started. `undecided` looks at the runs after the first `rounds` and every batch after
// (session/round_loop.hpp: the benchmarks still undecided, and those of them that get the next
// batch).
model::Result<SideBySideRuns> run_side_by_side(const SideBySide& plan,
                                               const Undecided& undecided = {});

// Copies the baseline's and the new build's executables (`sources`) into `folder` for `round`,
// while `shuffle` holds memory, so that each round's processes run from files whose pages lie
// somewhere new; `copies` gets their paths (the previous round's copies are removed).
std::optional<model::Error> copy_builds(const std::string& folder, std::size_t round,
                                        const std::array<std::string, 2>& sources,
                                        process::PlacementShuffle& shuffle,
                                        std::array<std::string, 2>& copies);

// The value of the first part of `name` (the parts lie between slashes) that begins with `key`:
// "8" for "threads:" in "BM_x/64/threads:8"; nothing when no part does. How a benchmark's name
// says what its registration set (benchkit's "threads=N"; Google Benchmark's "threads:N",
// "repeats:N", "iterations:N", "min_time:S").
std::optional<std::string_view> name_part(std::string_view name, std::string_view key);

// The CPU both processes of round `round` of the benchmark `name` run on: cpus[round % size];
// none (every CPU this process may use) when `cpus` is empty, or when `name` says the benchmark
// runs several threads (a part "threads=N" as benchkit names them, or Google Benchmark's
// "threads:N", N > 1, or its "process_time", the CPU time of threads the benchmark starts
// itself), which one CPU would run one at a time.
std::optional<int> round_cpu(const std::vector<int>& cpus, std::size_t round,
                             std::string_view name);

// Keeps a diagnostic of `merged` (the merge of `rounds`, which holds any round's flags) only when
// it came up in at least half of the rounds that ran the benchmark. A defect of the code
// (state growing between iterations, a cold start, memory growth) comes up in every process;
// a state the machine passed through during one round would otherwise flag the whole run.
void keep_recurring_diagnostics(RunResult& merged, const std::vector<RunResult>& rounds);

}  // namespace benchkit::session
