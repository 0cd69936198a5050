#include "session/side_by_side.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "clock/phase_trace.hpp"
#include "model/merge.hpp"
#include "process/interrupt.hpp"
#include "process/placement.hpp"
#include "process/temporary_folder.hpp"
#include "process/turns.hpp"
#include "process/worker_invocation.hpp"
#include "session/isolated.hpp"
#include "session/launcher.hpp"
#include "session/result_files.hpp"
#include "store/atomic_file.hpp"

#include <signal.h>

namespace benchkit::session {

bool TurnGate::next_sample() {
  return process::await_turn(fd_);
}

namespace {

std::vector<std::string> worker_argv(const SideBySide& plan, const std::string& executable,
                                     const std::string& name, const std::string& out) {
  process::WorkerInvocation invocation = plan.worker;
  invocation.quiet = true;
  invocation.processes = 1;
  invocation.filter = name;
  invocation.exact = true;
  invocation.time_budget_ns = plan.round_budget_ns;
  invocation.out = out;
  invocation.turns_fd = process::kTurnFd;
  std::vector<std::string> argv = invocation.command(executable);
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
    const std::string copy = fmt::format("{}/{}-{}.bin", folder, kSideFileNames[side], round);
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

std::optional<std::string_view> name_part(std::string_view name, std::string_view key) {
  std::size_t from = 0;
  while (from < name.size()) {
    std::size_t end = name.find('/', from);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view part = name.substr(from, end - from);
    if (part.starts_with(key)) return part.substr(key.size());
    from = end + 1;
  }
  return std::nullopt;
}

std::optional<int> round_cpu(const std::vector<int>& cpus, std::size_t round,
                             std::string_view name) {
  if (cpus.empty()) return std::nullopt;
  // Google Benchmark's ->MeasureProcessCPUTime() ("/process_time"): the CPU time of every thread
  // of the process, which says the benchmark starts threads of its own.
  if (const auto process_time = name_part(name, "process_time");
      process_time && process_time->empty()) {
    return std::nullopt;
  }
  for (const std::string_view key : {"threads=", "threads:"}) {
    const auto count = name_part(name, key);
    if (!count) continue;
    std::size_t threads = 0;
    const auto [at, error] = std::from_chars(count->data(), count->data() + count->size(), threads);
    if (error == std::errc() && at == count->data() + count->size() && threads > 1) {
      return std::nullopt;
    }
  }
  return cpus[round % cpus.size()];
}

namespace {

// A round whose worker failed: `fatal` stops the comparison (Ctrl-C, nothing can be started);
// otherwise the benchmark is recorded as failed on `side` and the others go on.
struct PairFailure {
  std::string message;
  bool fatal = false;
  std::size_t side = 0;
  Failure failure;
  model::ErrorKind kind = model::ErrorKind::input;  // of a fatal one: interrupted for Ctrl-C
};

// The failed benchmarks in the merged runs: on both sides a failed result in place of what they
// measured (the message names the build whose worker failed), so that the comparison lists the
// benchmark as failed, not compared, and the new run's results say so too.
void mark_failed(SideBySideRuns& runs, const std::vector<std::string>& names,
                 const std::map<std::size_t, PairFailure>& failed) {
  for (const auto& [index, failure] : failed) {
    for (RunResult* side : {&runs.baseline, &runs.candidate}) {
      const std::string& name = names[index];
      BenchmarkResult record = failed_benchmark(name, failure.failure, failure.message);
      auto found = std::find_if(side->benchmarks.begin(), side->benchmarks.end(),
                                [&](const BenchmarkResult& b) { return b.name == name; });
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
    analysis::diagnose_processes(*merged[side]);
    analysis::note_machine_speed(*merged[side]);
  }
  return runs;
}

}  // namespace

namespace {

// The worker's standard error, written to a file while it runs: passed on to this process's
// standard error once the worker ended, and its last lines kept with a failure.
std::string take_stderr(const std::string& path) {
  auto text = store::read_file(path);
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  if (!text || text->empty()) return {};
  std::fwrite(text->data(), 1, text->size(), stderr);
  return stderr_tail(*text);
}

// One process pair of one round: the two workers of one benchmark taking turns.
struct Pair {
  std::size_t round = 0;
  std::size_t planned = 0;
  std::size_t index = 0;
  std::array<std::size_t, 2> order = {0, 1};  // who sets up, and samples, first
  std::array<std::string, 2> outs;
  std::array<std::string, 2> errs;
  std::array<std::optional<process::TurnTaker>, 2> workers;
  std::array<bool, 2> taking_turns = {false, false};
  std::array<process::Exit, 2> exits;
};

// What a traced phase of `pair` names (clock/phase_trace.hpp): its round, benchmark, side (2:
// both) and worker process.
std::string pair_detail(const Pair& pair, std::size_t side, long pid) {
  return fmt::format("round={} bench={} side={} pid={}", pair.round, pair.index,
                     side < 2 ? kSideNames[side] : "both", pid);
}

// The state of one side-by-side comparison across its rounds.
class Session {
 public:
  Session(const SideBySide& plan, std::string folder)
      : plan_(plan),
        folder_(std::move(folder)),
        cpus_(plan.cpus.empty() ? process::allowed_cpus() : plan.cpus),
        footprint_(plan.benchmarks.size(), 0) {}

  model::Result<SideBySideRuns> run(const Undecided& undecided);

 private:
  std::size_t shuffle_bytes(std::size_t index) const;
  std::optional<model::Error> copy_executables(std::size_t round);
  std::optional<PairFailure> run_pair(Pair& pair, std::array<RunResult, 2>& this_round);
  std::optional<PairFailure> start_workers(Pair& pair);
  std::optional<PairFailure> take_turns(Pair& pair);
  std::optional<PairFailure> collect(Pair& pair, std::array<RunResult, 2>& this_round);
  PairFailure failure(const Pair& pair, std::size_t side, const std::string& what) const;
  SideBySideRuns result() const {
    SideBySideRuns runs = merge_rounds(rounds_);
    mark_failed(runs, plan_.benchmarks, failed_);
    return runs;
  }

  const SideBySide& plan_;
  const std::string folder_;
  const std::vector<int> cpus_;
  std::array<std::vector<RunResult>, 2> rounds_;
  process::PlacementShuffle shuffle_;
  // The largest resident set a worker of each benchmark reached so far (0: not run yet).
  std::vector<std::int64_t> footprint_;
  // The executables the workers of this round run (copy_executables).
  std::array<std::string, 2> executables_;
  // Benchmarks whose worker failed in some round: they leave the comparison, recorded as failed
  // on the side that failed.
  std::map<std::size_t, PairFailure> failed_;
};

// The shuffle takes up to twice the benchmark's footprint, at least 16 MiB and at most 256 MiB,
// and up to 128 MiB until a round has shown it. A shift much smaller than the benchmark's memory
// would leave most of its pages where they were.
std::size_t Session::shuffle_bytes(std::size_t index) const {
  constexpr std::int64_t kMiB = 1 << 20;
  if (footprint_[index] <= 0) return 128 * kMiB;
  return static_cast<std::size_t>(std::clamp(2 * footprint_[index], 16 * kMiB, 256 * kMiB));
}

// Fresh copies of both builds for the workers of this round (copy_builds says why).
std::optional<model::Error> Session::copy_executables(std::size_t round) {
  const clock::TracedPhase traced("copy", fmt::format("round={}", round));
  return copy_builds(folder_, round, {plan_.baseline_executable, plan_.candidate_executable},
                     shuffle_, executables_);
}

PairFailure Session::failure(const Pair& pair, std::size_t side, const std::string& what) const {
  PairFailure failed;
  failed.side = side;
  const std::string& name = plan_.benchmarks[pair.index];
  if (process::interrupt_requested()) {
    failed.fatal = true;
    failed.kind = model::ErrorKind::interrupted;
    failed.message = fmt::format(
        "interrupted in round {} of {} (at {}): the workers were stopped and nothing was "
        "compared",
        pair.round + 1, pair.planned, name);
    return failed;
  }
  // The failed worker has ended: what it wrote is complete.
  failed.failure.stderr_tail = take_stderr(pair.errs[side]);
  if (pair.workers[side] && pair.workers[side]->timed_out()) {
    failed.failure.cause = Failure::Cause::timed_out;
    failed.failure.signal = SIGKILL;
    failed.message = fmt::format(
        "the {} build's worker (round {} of {}) did not answer within {} s and was killed: "
        "the benchmark hangs, or one of its iterations or its set-up takes longer than that "
        "(raise --worker-timeout if it is only slow)",
        kSideNames[side], pair.round + 1, pair.planned,
        plan_.worker_timeout ? plan_.worker_timeout->count() / 1000.0 : 0.0);
    return failed;
  }
  if (pair.exits[side].signal != 0) {
    failed.failure.cause = Failure::Cause::crashed;
    failed.failure.signal = pair.exits[side].signal;
  } else {
    failed.failure.cause = Failure::Cause::exited;
    if (pair.exits[side].exit_code >= 0) failed.failure.exit_code = pair.exits[side].exit_code;
  }
  failed.message = fmt::format("the {} build's worker (round {} of {}) {}", kSideNames[side],
                               pair.round + 1, pair.planned, what);
  return failed;
}

// One at a time: each worker sets up and warms up while the other waits in a read. Its memory
// lands at a random place in the free lists (process/placement.hpp), so that no build keeps the
// same physical pages round after round.
std::optional<PairFailure> Session::start_workers(Pair& pair) {
  const std::string& name = plan_.benchmarks[pair.index];
  const std::optional<int> cpu = round_cpu(cpus_, pair.round, name);
  for (const std::size_t side : pair.order) {
    const std::string stem =
        fmt::format("{}/{}-{}-{}", folder_, kSideFileNames[side], pair.round, pair.index);
    pair.outs[side] = stem + ".json";
    pair.errs[side] = stem + ".err";
    const std::int64_t hold_start = clock::trace_now_ns();
    shuffle_.hold(shuffle_bytes(pair.index));
    const std::int64_t spawn_start = clock::trace_now_ns();
    auto spawned = process::TurnTaker::spawn(
        worker_argv(plan_, executables_[side], name, pair.outs[side]), cpu, pair.errs[side]);
    if (!spawned) return PairFailure{spawned.error().message, true, side, {}};
    pair.workers[side].emplace(std::move(*spawned));
    pair.workers[side]->set_timeout(plan_.worker_timeout);
    const std::string traced = pair_detail(pair, side, pair.workers[side]->pid());
    clock::trace_phase("shuffle_hold", hold_start, spawn_start, traced);
    pair.taking_turns[side] = pair.workers[side]->wait_ready();
    const std::int64_t ready = clock::trace_now_ns();
    clock::trace_phase("start_worker", spawn_start, ready, traced);
    shuffle_.release();
    clock::trace_phase("shuffle_release", ready, clock::trace_now_ns(), traced);
    // A worker that does not ask for turns ran to its end (a scenario, which runs once per
    // process; or a failure, which its exit status tells).
    if (!pair.taking_turns[side]) pair.exits[side] = pair.workers[side]->finish();
  }
  return std::nullopt;
}

// Turns in the order A B, B A, A B, ...: a drift within the round hits both alike. Both take the
// same number of turns, so that sample k of one side and sample k of the other were taken next
// to each other (the comparison pairs them).
std::optional<PairFailure> Session::take_turns(Pair& pair) {
  clock::TracedPhase traced("turns", pair_detail(pair, 2, -1));
  std::array<std::int64_t, 2> spent = {0, 0};
  std::array<std::size_t, 2> turns = {0, 0};
  auto wants_more = [&](std::size_t side) {
    return pair.taking_turns[side] &&
           (spent[side] < plan_.round_budget_ns || turns[side] < plan_.min_turns);
  };
  for (std::size_t round_trip = 0; wants_more(0) || wants_more(1); ++round_trip) {
    const std::array<std::size_t, 2> turn_order =
        round_trip % 2 == 0 ? pair.order : std::array<std::size_t, 2>{pair.order[1], pair.order[0]};
    for (const std::size_t side : turn_order) {
      if (!pair.taking_turns[side]) continue;
      const std::int64_t start = plan_.clock->now_ns();
      if (!pair.workers[side]->give_turn()) {
        pair.exits[side] = pair.workers[side]->finish();
        pair.taking_turns[side] = false;
        return failure(
            pair, side,
            fmt::format("stopped in the middle of sampling: it {}", pair.exits[side].describe()));
      }
      spent[side] += plan_.clock->now_ns() - start;
      ++turns[side];
    }
  }
  if (clock::phase_trace_enabled()) {
    traced.set_detail(fmt::format("{} turns={},{} spent_ms={:.1f},{:.1f}", pair_detail(pair, 2, -1),
                                  turns[0], turns[1], static_cast<double>(spent[0]) / 1e6,
                                  static_cast<double>(spent[1]) / 1e6));
  }
  traced.end();
  for (const std::size_t side : pair.order) {
    if (!pair.taking_turns[side]) continue;
    const clock::TracedPhase finishing("finish_worker",
                                       pair_detail(pair, side, pair.workers[side]->pid()));
    pair.exits[side] = pair.workers[side]->finish();
  }
  return std::nullopt;
}

// The results both workers wrote, appended to this_round.
std::optional<PairFailure> Session::collect(Pair& pair, std::array<RunResult, 2>& this_round) {
  const clock::TracedPhase traced("collect", pair_detail(pair, 2, -1));
  for (const std::size_t side : pair.order) {
    const process::Exit& exit = pair.exits[side];
    // Exit status 1 with a result: the benchmark threw in the worker, which recorded it.
    if (!exit.ok() && exit.exit_code != 1) return failure(pair, side, exit.describe());
    auto loaded = load_result_file(pair.outs[side]);
    if (!loaded) {
      return failure(pair, side,
                     exit.ok() ? "left no readable result: " + loaded.error().message
                               : exit.describe() + " and left no readable result");
    }
    for (const BenchmarkResult& result : loaded->benchmarks) {
      if (!result.failure) continue;
      PairFailure failed{fmt::format("the {} build's worker (round {} of {}) {}", kSideNames[side],
                                     pair.round + 1, pair.planned, result.failures.front()),
                         false, side, *result.failure};
      failed.failure.stderr_tail = take_stderr(pair.errs[side]);
      return failed;
    }
    take_stderr(pair.errs[side]);
    if (this_round[side].benchmarks.empty()) this_round[side].context = loaded->context;
    footprint_[pair.index] =
        std::max(footprint_[pair.index], loaded->context.process_peak_rss_bytes.value_or(0));
    for (BenchmarkResult& result : loaded->benchmarks) {
      this_round[side].benchmarks.push_back(std::move(result));
    }
  }
  return std::nullopt;
}

std::optional<PairFailure> Session::run_pair(Pair& pair, std::array<RunResult, 2>& this_round) {
  // Who starts alternates by benchmark and, once every CPU had a round, by round: neither build
  // always samples first or warms up while the other waits, on any CPU.
  const std::size_t cycle = pair.round / std::max<std::size_t>(1, cpus_.size());
  const std::size_t first = (cycle + pair.index) % 2;
  pair.order = {first, 1 - first};
  if (auto failed = start_workers(pair)) return failed;
  if (auto failed = take_turns(pair)) return failed;
  return collect(pair, this_round);
}

// The rounds of session/round_loop.hpp: each round, fresh copies of both executables, then a
// process pair per benchmark.
model::Result<SideBySideRuns> Session::run(const Undecided& undecided) {
  RoundLoop loop{plan_.benchmarks, plan_.rounds, plan_.max_rounds, plan_.look_every};
  RoundSteps steps;
  steps.run_round = [&](std::size_t round, std::size_t planned,
                        const std::vector<std::size_t>& active) -> std::optional<model::Error> {
    if (auto failed = copy_executables(round)) return *failed;
    std::array<RunResult, 2> this_round;
    for (std::size_t k = 0; k < active.size(); ++k) {
      const std::string& name = plan_.benchmarks[active[k]];
      if (plan_.progress) plan_.progress(round, planned, k, active.size(), name);
      Pair pair;
      pair.round = round;
      pair.planned = planned;
      pair.index = active[k];
      auto pair_failed = run_pair(pair, this_round);
      if (!pair_failed) continue;
      if (pair_failed->fatal) return model::Error{pair_failed->message, pair_failed->kind};
      if (plan_.failed) plan_.failed(name, pair_failed->message);
      failed_.emplace(active[k], std::move(*pair_failed));
    }
    for (std::size_t side = 0; side < 2; ++side)
      rounds_[side].push_back(std::move(this_round[side]));
    return std::nullopt;
  };
  steps.failed = [&](std::size_t index) { return failed_.count(index) > 0; };
  steps.result = [&] { return result(); };
  return run_round_loop(loop, steps, undecided);
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
  const process::FolderRemover cleanup(*made);
  Session session(plan, *made);
  return session.run(undecided);
}

}  // namespace benchkit::session
