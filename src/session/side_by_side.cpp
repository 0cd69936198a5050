#include "session/side_by_side.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <optional>

#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "model/merge.hpp"
#include "process/interrupt.hpp"
#include "process/placement.hpp"
#include "process/temporary_folder.hpp"
#include "process/turns.hpp"
#include "process/worker_protocol.hpp"
#include "session/isolated.hpp"
#include "session/result_files.hpp"

#include <signal.h>

namespace benchkit::session {

bool TurnGate::next_sample() {
  return process::await_turn(fd_);
}

namespace {

constexpr std::array<const char*, 2> kSideNames = {"baseline", "new"};

std::vector<std::string> worker_argv(const SideBySide& plan, const std::string& executable,
                                     const std::string& name, const std::string& out) {
  std::vector<std::string> argv =
      process::worker::turns_worker_argv(executable, name, plan.round_budget_ns, out);
  argv.insert(argv.end(), plan.worker_flags.begin(), plan.worker_flags.end());
  return argv;
}

}  // namespace

std::optional<model::Error> copy_builds(const std::string& folder, std::size_t round,
                                        const std::array<std::string, 2>& sources,
                                        process::PlacementShuffle& shuffle,
                                        std::array<std::string, 2>& copies) {
  // Fresh copies of both builds, made while the shuffle holds memory, so that where their code
  // lies in memory is drawn anew each round. The same bytes in two files measured apart: the
  // test binary that the build had written hours before ran copy_string 8-12% slower than a
  // fresh copy of itself in 6 of 7 A/A comparisons, while fresh copies of it measured within
  // 1-2% of each other (and so did the binary itself once relinked). Where a file's pages lie
  // belongs to the file, not to the code, and lasts as long as the file stays cached.
  shuffle.hold(std::size_t{64} << 20);
  for (std::size_t side = 0; side < 2; ++side) {
    const std::string copy = fmt::format("{}/{}-{}.bin", folder, kSideNames[side], round);
    std::error_code error;
    std::filesystem::copy_file(sources[side], copy,
                               std::filesystem::copy_options::overwrite_existing, error);
    if (!error) {
      std::filesystem::permissions(copy, std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::replace, error);
    }
    if (error) {
      shuffle.release();
      return model::Error{fmt::format("cannot copy the {} build's executable {} to {}: {}",
                                      kSideNames[side], sources[side], copy, error.message())};
    }
    if (!copies[side].empty()) std::filesystem::remove(copies[side], error);
    copies[side] = copy;
  }
  shuffle.release();
  return std::nullopt;
}

void keep_recurring_diagnostics(RunResult& merged, const std::vector<RunResult>& rounds) {
  for (BenchmarkResult& result : merged.benchmarks) {
    std::map<std::string, std::size_t> fired;
    std::size_t ran = 0;
    for (const RunResult& round : rounds) {
      for (const BenchmarkResult& one : round.benchmarks) {
        if (one.name != result.name) continue;
        ++ran;
        for (const Diagnostic& d : one.diagnostics) ++fired[d.code];
      }
    }
    std::erase_if(result.diagnostics, [&](const Diagnostic& d) { return 2 * fired[d.code] < ran; });
  }
}

namespace {

// A round whose worker failed: `fatal` stops the comparison (Ctrl-C, nothing can be started);
// otherwise the benchmark is recorded as failed on `side` and the others go on.
struct PairFailure {
  std::string message;
  bool fatal = false;
  std::size_t side = 0;
  Failure failure;
};

// The failed benchmarks in the merged runs: on both sides a failed result in place of what they
// measured (the message names the build whose worker failed), so that the comparison lists the
// benchmark as failed, not compared, and the new run's results say so too.
void mark_failed(SideBySideRuns& runs, const std::vector<std::string>& names,
                 const std::map<std::size_t, PairFailure>& failed) {
  for (const auto& [index, failure] : failed) {
    for (RunResult* side : {&runs.baseline, &runs.candidate}) {
      BenchmarkResult record = failed_benchmark(names[index], failure.failure, failure.message);
      auto found = std::find_if(side->benchmarks.begin(), side->benchmarks.end(),
                                [&](const BenchmarkResult& b) { return b.name == names[index]; });
      if (found == side->benchmarks.end()) {
        side->benchmarks.push_back(std::move(record));
      } else {
        record.kind = found->kind;
        record.params = found->params;
        *found = std::move(record);
      }
    }
  }
}

// The merge of every round so far, one side at a time, with estimates.
SideBySideRuns merge_rounds(const std::array<std::vector<RunResult>, 2>& rounds) {
  SideBySideRuns runs;
  std::array<RunResult*, 2> merged = {&runs.baseline, &runs.candidate};
  for (std::size_t side = 0; side < 2; ++side) {
    *merged[side] = model::merge_processes(rounds[side]);
    keep_recurring_diagnostics(*merged[side], rounds[side]);
    for (BenchmarkResult& result : merged[side]->benchmarks) {
      for (Sample& sample : result.samples) sample.round = sample.process;
    }
    analysis::compute_estimates(*merged[side]);
    analysis::note_machine_speed(*merged[side]);
  }
  return runs;
}

}  // namespace

model::Result<SideBySideRuns> run_side_by_side(const SideBySide& plan, const Undecided& undecided) {
  if (!plan.clock) return model::Error{"run_side_by_side needs a clock"};
  // Ctrl-C stops the workers and still removes the temporary folder below (a second Ctrl-C
  // ends this process at once).
  process::install_interrupt_handler();
  struct RestoreInterrupts {
    ~RestoreInterrupts() { process::restore_default_interrupt_action(); }
  } restore_interrupts;
  const auto made = process::make_temporary_folder("benchkit-side-by-side");
  if (!made) return made.error();
  const std::string folder = *made;
  const process::FolderRemover cleanup(folder);

  const std::vector<int> cpus = plan.cpus.empty() ? process::allowed_cpus() : plan.cpus;
  std::array<std::vector<RunResult>, 2> rounds;
  process::PlacementShuffle shuffle;
  // The largest resident set a worker of each benchmark reached so far (0: not run yet). The
  // shuffle takes up to twice that, at least 16 MiB and at most 256 MiB, and up to 128 MiB until
  // a round has shown it. A shift much smaller than the benchmark's memory would leave most of
  // its pages where they were.
  std::vector<std::int64_t> footprint(plan.benchmarks.size(), 0);
  auto shuffle_bytes = [&](std::size_t index) -> std::size_t {
    constexpr std::int64_t kMiB = 1 << 20;
    if (footprint[index] <= 0) return 128 * kMiB;
    return static_cast<std::size_t>(std::clamp(2 * footprint[index], 16 * kMiB, 256 * kMiB));
  };
  std::array<std::string, 2> executables;
  auto copy_executables = [&](std::size_t round) -> std::optional<model::Error> {
    return copy_builds(folder, round, {plan.baseline_executable, plan.candidate_executable},
                       shuffle, executables);
  };
  // Benchmark `index` (of plan.benchmarks) in `round` of `planned`: one process pair taking
  // turns. Its results are appended to this_round.
  auto run_pair = [&](std::size_t round, std::size_t planned, std::size_t index,
                      std::array<RunResult, 2>& this_round) -> std::optional<PairFailure> {
    const std::optional<int> cpu =
        cpus.empty() ? std::nullopt : std::optional<int>(cpus[round % cpus.size()]);
    const std::string& name = plan.benchmarks[index];
    // Who starts alternates by benchmark and, once every CPU had a round, by round: neither
    // build always samples first or warms up while the other waits, on any CPU.
    const std::size_t cycle = round / std::max<std::size_t>(1, cpus.size());
    const std::size_t first = (cycle + index) % 2;
    const std::array<std::size_t, 2> order = {first, 1 - first};
    std::array<std::string, 2> outs;
    std::array<std::optional<process::TurnTaker>, 2> workers;
    std::array<bool, 2> taking_turns = {false, false};
    std::array<process::Exit, 2> exits;
    auto failure = [&](std::size_t side, const std::string& what) {
      PairFailure failed;
      failed.side = side;
      if (process::interrupt_requested()) {
        failed.fatal = true;
        failed.message = fmt::format(
            "interrupted in round {} of {} (at {}): the workers were stopped and nothing was "
            "compared",
            round + 1, planned, name);
        return failed;
      }
      if (workers[side] && workers[side]->timed_out()) {
        failed.failure.cause = Failure::Cause::timed_out;
        failed.failure.signal = SIGKILL;
        failed.message = fmt::format(
            "the {} build's worker (round {} of {}) did not answer within {} s and was killed: "
            "the benchmark hangs, or one of its iterations or its set-up takes longer than that "
            "(raise --worker-timeout if it is only slow)",
            kSideNames[side], round + 1, planned,
            plan.worker_timeout ? plan.worker_timeout->count() / 1000.0 : 0.0);
        return failed;
      }
      if (exits[side].signal != 0) {
        failed.failure.cause = Failure::Cause::crashed;
        failed.failure.signal = exits[side].signal;
      } else {
        failed.failure.cause = Failure::Cause::exited;
        if (exits[side].exit_code >= 0) failed.failure.exit_code = exits[side].exit_code;
      }
      failed.message = fmt::format("the {} build's worker (round {} of {}) {}", kSideNames[side],
                                   round + 1, planned, what);
      return failed;
    };
    // One at a time: each worker sets up and warms up while the other waits in a read. Its
    // memory lands at a random place in the free lists (process/placement.hpp), so that no
    // build keeps the same physical pages round after round.
    for (const std::size_t side : order) {
      outs[side] = fmt::format("{}/{}-{}-{}.json", folder, kSideNames[side], round, index);
      shuffle.hold(shuffle_bytes(index));
      auto spawned =
          process::TurnTaker::spawn(worker_argv(plan, executables[side], name, outs[side]), cpu);
      if (!spawned) return PairFailure{spawned.error().message, true, side, {}};
      workers[side].emplace(std::move(*spawned));
      workers[side]->set_timeout(plan.worker_timeout);
      taking_turns[side] = workers[side]->wait_ready();
      shuffle.release();
      // A worker that does not ask for turns ran to its end (a scenario, which runs once per
      // process; or a failure, which its exit status tells).
      if (!taking_turns[side]) exits[side] = workers[side]->finish();
    }
    // Turns in the order A B, B A, A B, ...: a drift within the round hits both alike.
    std::array<std::int64_t, 2> spent = {0, 0};
    std::array<std::size_t, 2> turns = {0, 0};
    // Both take the same number of turns, so that sample k of one side and sample k of the
    // other were taken next to each other (the comparison pairs them).
    auto wants_more = [&](std::size_t side) {
      return taking_turns[side] &&
             (spent[side] < plan.round_budget_ns || turns[side] < plan.min_turns);
    };
    for (std::size_t pair = 0; wants_more(0) || wants_more(1); ++pair) {
      const std::array<std::size_t, 2> turn_order =
          pair % 2 == 0 ? order : std::array<std::size_t, 2>{order[1], order[0]};
      for (const std::size_t side : turn_order) {
        if (!taking_turns[side]) continue;
        const std::int64_t start = plan.clock->now_ns();
        if (!workers[side]->give_turn()) {
          exits[side] = workers[side]->finish();
          taking_turns[side] = false;
          return failure(side, fmt::format("stopped in the middle of sampling: it {}",
                                           exits[side].describe()));
        }
        spent[side] += plan.clock->now_ns() - start;
        ++turns[side];
      }
    }
    for (const std::size_t side : order) {
      if (taking_turns[side]) exits[side] = workers[side]->finish();
    }
    for (const std::size_t side : order) {
      // Exit status 1 with a result: the benchmark threw in the worker, which recorded it.
      if (!exits[side].ok() && exits[side].exit_code != 1) {
        return failure(side, exits[side].describe());
      }
      auto loaded = load_result_file(outs[side]);
      if (!loaded) {
        return failure(side, exits[side].ok()
                                 ? "left no readable result: " + loaded.error().message
                                 : exits[side].describe() + " and left no readable result");
      }
      for (const BenchmarkResult& result : loaded->benchmarks) {
        if (result.failure) {
          PairFailure failed{
              fmt::format("the {} build's worker (round {} of {}) {}", kSideNames[side], round + 1,
                          planned, result.failures.front()),
              false, side, *result.failure};
          return failed;
        }
      }
      if (this_round[side].benchmarks.empty()) this_round[side].context = loaded->context;
      footprint[index] =
          std::max(footprint[index], loaded->context.process_peak_rss_bytes.value_or(0));
      for (BenchmarkResult& result : loaded->benchmarks) {
        this_round[side].benchmarks.push_back(std::move(result));
      }
    }
    return std::nullopt;
  };

  // Every benchmark for `plan.rounds` rounds; then, `plan.rounds` at a time, the ones still
  // undecided, up to plan.max_rounds.
  std::vector<std::size_t> active(plan.benchmarks.size());
  for (std::size_t i = 0; i < active.size(); ++i) active[i] = i;
  const std::size_t batch = std::max<std::size_t>(1, plan.rounds);
  const std::size_t most = std::max(plan.max_rounds, batch);
  // Benchmarks whose worker failed in some round: they leave the comparison, recorded as failed
  // on the side that failed.
  std::map<std::size_t, PairFailure> failed;
  auto result = [&]() {
    SideBySideRuns runs = merge_rounds(rounds);
    mark_failed(runs, plan.benchmarks, failed);
    return runs;
  };
  if (active.empty()) return result();
  for (std::size_t done = 0;;) {
    const std::size_t planned = std::min(most, done + batch);
    for (std::size_t round = done; round < planned; ++round) {
      if (auto failed = copy_executables(round)) return *failed;
      std::array<RunResult, 2> this_round;
      for (std::size_t k = 0; k < active.size(); ++k) {
        if (plan.progress) {
          plan.progress(round, planned, k, active.size(), plan.benchmarks[active[k]]);
        }
        if (failed.count(active[k])) continue;
        auto pair_failed = run_pair(round, planned, active[k], this_round);
        if (!pair_failed) continue;
        if (pair_failed->fatal) return model::Error{pair_failed->message};
        if (plan.failed) plan.failed(plan.benchmarks[active[k]], pair_failed->message);
        failed.emplace(active[k], std::move(*pair_failed));
      }
      for (std::size_t side = 0; side < 2; ++side)
        rounds[side].push_back(std::move(this_round[side]));
    }
    done = planned;
    // One merge serves both the question and the answer: when nothing is left undecided, the
    // runs that decided it are the result.
    std::erase_if(active, [&](std::size_t index) { return failed.count(index) > 0; });
    SideBySideRuns merged = result();
    if (done >= most || !undecided || active.empty()) return merged;
    const std::vector<std::string> open = undecided(merged);
    std::erase_if(active, [&](std::size_t index) {
      return std::find(open.begin(), open.end(), plan.benchmarks[index]) == open.end();
    });
    if (active.empty()) return merged;
  }
}

}  // namespace benchkit::session
