// Side-by-side comparisons with real processes: the turn-taking protocol between the controller
// and a real bench binary, and the rounds of process pairs the controller runs.
#include "session/side_by_side.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "clock/clock.hpp"
#include "process/turns.hpp"
#include "session/result_files.hpp"
#include "support/sanitizers.hpp"
#include "support/test_programs.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using benchkit::testing::kSampleBench;
using benchkit::testing::kScenarioBench;

std::string temp_file(const std::string& name) {
  return ::testing::TempDir() + "/benchkit-side-by-side-" + name;
}

TEST(TurnTaker, ABenchBinaryTakesExactlyTheTurnsItIsGiven) {
  const std::string out = temp_file("turns.json");
  std::filesystem::remove(out);
  auto worker = process::TurnTaker::spawn({kSampleBench, "--quiet", "--processes", "1", "--filter",
                                           "add/amount=1", "--exact", "--time-budget", "10ms",
                                           "--warm-up", "1ms", "--no-machine-warnings", "--out",
                                           out, "--turns-fd", std::to_string(process::kTurnFd)});
  ASSERT_TRUE(worker) << worker.error().message;
  ASSERT_TRUE(worker->wait_ready()) << "a micro benchmark asks for its first turn";
  for (int turn = 0; turn < 7; ++turn) ASSERT_TRUE(worker->give_turn()) << "turn " << turn;
  const process::Exit exit = worker->finish();
  EXPECT_TRUE(exit.ok()) << exit.describe();
  const auto loaded = load_result_file(out);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->benchmarks.size(), 1u);
  // Seven turns, seven samples: neither the 30-sample minimum nor the budget applies.
  EXPECT_EQ(loaded->benchmarks[0].samples.size(), 7u);
  // A worker of a round leaves the run's context to its controller: no machine checks, no git,
  // no executable hash, only its clock and build facts (and its peak RSS, for placement).
  EXPECT_TRUE(loaded->context.checks.empty());
  EXPECT_TRUE(loaded->context.executable_sha256.empty());
  EXPECT_FALSE(loaded->context.clock.empty());
  EXPECT_TRUE(loaded->context.process_peak_rss_bytes.has_value());
  std::filesystem::remove(out);
}

TEST(TurnTaker, AProgramThatTakesNoTurnsIsSeenToEnd) {
  auto quiet = process::TurnTaker::spawn({"/bin/true"});
  ASSERT_TRUE(quiet) << quiet.error().message;
  EXPECT_FALSE(quiet->wait_ready());
  EXPECT_TRUE(quiet->finish().ok());

  auto killed = process::TurnTaker::spawn({"/bin/sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(killed);
  EXPECT_FALSE(killed->wait_ready());
  const process::Exit exit = killed->finish();
  EXPECT_EQ(exit.signal, SIGKILL) << exit.describe();

  const auto missing = process::TurnTaker::spawn({"/no/such/program"});
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message, HasSubstr("/no/such/program"));
}

TEST(TurnTaker, APinnedWorkerRunsOnItsCpuOnly) {
  const std::vector<int> cpus = process::allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  // The worker writes down the CPUs it may run on.
  const std::string out = temp_file("mask.txt");
  auto worker = process::TurnTaker::spawn(
      {"/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status > " + out}, cpus.back());
  ASSERT_TRUE(worker) << worker.error().message;
  EXPECT_FALSE(worker->wait_ready());
  ASSERT_TRUE(worker->finish().ok());
  std::ifstream in(out);
  std::string line;
  std::getline(in, line);
  EXPECT_THAT(line, ::testing::EndsWith("\t" + std::to_string(cpus.back())));
  EXPECT_EQ(process::allowed_cpus(), cpus) << "the controller's own mask is restored";
  std::filesystem::remove(out);
}

SideBySide plan_for(const std::string& baseline, const std::string& candidate,
                    std::vector<std::string> benchmarks, std::size_t rounds) {
  SideBySide plan;
  plan.baseline_executable = baseline;
  plan.candidate_executable = candidate;
  plan.benchmarks = std::move(benchmarks);
  plan.rounds = rounds;
  plan.round_budget_ns = 5'000'000;
  plan.worker_flags = {"--warm-up", "1ms", "--no-machine-warnings"};
  plan.clock = &clock::steady_clock();
  return plan;
}

TEST(SideBySide, EachRoundRunsOnTheNextCpuUnlessTheBenchmarkRunsThreads) {
  const std::vector<int> cpus = {2, 5};
  EXPECT_EQ(round_cpu(cpus, 0, "sum/size=64"), 2);
  EXPECT_EQ(round_cpu(cpus, 1, "sum/size=64"), 5);
  EXPECT_EQ(round_cpu(cpus, 4, "BM_sum/64"), 2);
  EXPECT_EQ(round_cpu({}, 3, "sum"), std::nullopt);  // no CPUs known: not narrowed
  // Several threads on one CPU would run one at a time: such a benchmark keeps every CPU.
  EXPECT_EQ(round_cpu(cpus, 0, "shared_counter/threads=4"), std::nullopt);
  EXPECT_EQ(round_cpu(cpus, 1, "BM_shared_sum/threads:2"), std::nullopt);
  EXPECT_EQ(round_cpu(cpus, 1, "BM_x/64/threads:2/real_time"), std::nullopt);
  // ->MeasureProcessCPUTime(): its own threads' CPU time counts, so it has threads of its own.
  EXPECT_EQ(round_cpu(cpus, 1, "BM_pool/8/process_time/real_time"), std::nullopt);
  EXPECT_EQ(round_cpu(cpus, 1, "BM_pool/process_timer"), 5);
  // One thread, or a name that only looks like a count, is narrowed as any other.
  EXPECT_EQ(round_cpu(cpus, 1, "shared_counter/threads=1"), 5);
  EXPECT_EQ(round_cpu(cpus, 1, "BM_x/threads:1"), 5);
  EXPECT_EQ(round_cpu(cpus, 0, "BM_x/threads:many"), 2);
  EXPECT_EQ(round_cpu(cpus, 0, "parse_threads=4"), 2);
}

TEST(SideBySide, EachRoundIsAProcessPairWithSamplesTakenInTurns) {
  std::vector<std::string> seen;
  SideBySide plan = plan_for(kSampleBench, kSampleBench, {"add/amount=1", "copy_string"}, 3);
  plan.progress = [&](std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                      const std::string& name) {
    EXPECT_EQ(planned, 3u);
    EXPECT_EQ(count, 2u);
    seen.push_back(std::to_string(round) + ":" + std::to_string(index) + ":" + name);
  };
  const auto runs = run_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_THAT(seen, ElementsAre("0:0:add/amount=1", "0:1:copy_string", "1:0:add/amount=1",
                                "1:1:copy_string", "2:0:add/amount=1", "2:1:copy_string"));
  for (const RunResult* run : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(run->benchmarks.size(), 2u);
    EXPECT_EQ(run->benchmarks[0].name, "add/amount=1");
    EXPECT_EQ(run->benchmarks[1].name, "copy_string");
    EXPECT_GT(run->benchmarks[0].estimates.median.value, 0.0) << "estimates are computed";
  }
  // The workers ran fresh copies of the two executables, made for the round.
  EXPECT_THAT(runs->baseline.context.command_line, HasSubstr("/old-0.bin --quiet"));
  EXPECT_THAT(runs->candidate.context.command_line, HasSubstr("/new-0.bin --quiet"));
  // Both sides' processes got command lines of one length, so the same stack layout: with
  // "baseline" and "new" in their paths, the new side ran copy_string 1.5-3% faster in A/A runs.
  EXPECT_EQ(runs->baseline.context.command_line.size(), runs->candidate.context.command_line.size())
      << runs->baseline.context.command_line << "\n"
      << runs->candidate.context.command_line;
  for (std::size_t b = 0; b < 2; ++b) {
    std::map<std::uint32_t, std::size_t> base_counts;
    std::map<std::uint32_t, std::size_t> new_counts;
    for (const Sample& s : runs->baseline.benchmarks[b].samples) {
      ASSERT_TRUE(s.round.has_value());
      EXPECT_EQ(*s.round, s.process);
      ++base_counts[*s.round];
    }
    for (const Sample& s : runs->candidate.benchmarks[b].samples) {
      ASSERT_TRUE(s.round.has_value());
      ++new_counts[*s.round];
    }
    EXPECT_EQ(base_counts.size(), 3u) << "three rounds";
    // Turns are given in pairs: both sides of a round hold the same number of samples, at
    // least the minimum of 3.
    EXPECT_EQ(base_counts, new_counts);
    for (const auto& [round, count] : base_counts) EXPECT_GE(count, plan.min_turns);
  }
}

std::map<std::string, std::set<std::uint32_t>> rounds_by_benchmark(const RunResult& run) {
  std::map<std::string, std::set<std::uint32_t>> rounds;
  for (const BenchmarkResult& result : run.benchmarks) {
    for (const Sample& s : result.samples) rounds[result.name].insert(s.round.value());
  }
  return rounds;
}

TEST(SideBySide, UndecidedBenchmarksGetMoreRoundsABatchAtATime) {
  SideBySide plan = plan_for(kSampleBench, kSampleBench, {"add/amount=1", "copy_string"}, 2);
  plan.max_rounds = 6;
  std::vector<std::string> seen;
  plan.progress = [&](std::size_t round, std::size_t planned, std::size_t, std::size_t,
                      const std::string& name) {
    seen.push_back(std::to_string(round) + "/" + std::to_string(planned) + ":" + name);
  };
  std::size_t asked = 0;
  // After the first batch only copy_string is undecided; after the second, nothing.
  const auto runs = run_side_by_side(plan, [&](const SideBySideRuns& so_far) {
    ++asked;
    EXPECT_EQ(so_far.candidate.benchmarks.size(), 2u) << "the runs so far hold both benchmarks";
    return asked == 1 ? std::vector<std::string>{"copy_string"} : std::vector<std::string>{};
  });
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(asked, 2u);
  EXPECT_THAT(seen, ElementsAre("0/2:add/amount=1", "0/2:copy_string", "1/2:add/amount=1",
                                "1/2:copy_string", "2/4:copy_string", "3/4:copy_string"));
  for (const RunResult* run : {&runs->baseline, &runs->candidate}) {
    const auto rounds = rounds_by_benchmark(*run);
    EXPECT_EQ(rounds.at("add/amount=1"), (std::set<std::uint32_t>{0, 1}));
    EXPECT_EQ(rounds.at("copy_string"), (std::set<std::uint32_t>{0, 1, 2, 3}));
  }
}

TEST(SideBySide, LookingEveryRoundGivesUndecidedBenchmarksOneRoundAtATime) {
  // Sequential looks (analysis::unsettled): after the first `rounds`, a look after every round.
  SideBySide plan = plan_for(kSampleBench, kSampleBench, {"add/amount=1", "copy_string"}, 2);
  plan.max_rounds = 6;
  plan.look_every = 1;
  std::vector<std::size_t> looked_at;
  const auto runs = run_side_by_side(plan, [&](const SideBySideRuns& so_far) {
    const auto rounds = rounds_by_benchmark(so_far.candidate);
    looked_at.push_back(rounds.at("copy_string").size());
    // add settles at the first look; copy_string after its fourth round.
    return rounds.at("copy_string").size() < 4 ? std::vector<std::string>{"copy_string"}
                                               : std::vector<std::string>{};
  });
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_THAT(looked_at, ElementsAre(2u, 3u, 4u));
  const auto rounds = rounds_by_benchmark(runs->candidate);
  EXPECT_EQ(rounds.at("add/amount=1").size(), 2u);
  EXPECT_EQ(rounds.at("copy_string").size(), 4u);
}

TEST(SideBySide, MoreRoundsStopAtTheMaximum) {
  SideBySide plan = plan_for(kSampleBench, kSampleBench, {"add/amount=1"}, 2);
  plan.max_rounds = 5;  // batches of 2: rounds 0-1, 2-3, then only 4
  std::size_t asked = 0;
  const auto runs = run_side_by_side(plan, [&](const SideBySideRuns&) {
    ++asked;
    return std::vector<std::string>{"add/amount=1"};  // never decided
  });
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(asked, 2u) << "asked after rounds 2 and 4, not after the last";
  EXPECT_EQ(rounds_by_benchmark(runs->candidate).at("add/amount=1").size(), 5u);
}

// The failed result of `name` on either side of `runs` (the side whose worker failed first).
const BenchmarkResult* failed_in(const SideBySideRuns& runs, const std::string& name) {
  for (const RunResult* side : {&runs.baseline, &runs.candidate}) {
    for (const BenchmarkResult& b : side->benchmarks) {
      if (b.name == name && b.failure) return &b;
    }
  }
  return nullptr;
}

// Long enough for a healthy worker to start and answer: a sanitizer build of the bench binary
// takes 0.6-0.7 s to start on a machine whose page faults are slow (its 200 MB of relocations),
// so 0.5 s there killed healthy workers too.
#if BENCHKIT_TEST_ASAN
constexpr std::chrono::milliseconds kWorkerTimeout{3000};
#else
constexpr std::chrono::milliseconds kWorkerTimeout{500};
#endif

TEST(SideBySide, AHangingWorkerIsKilledAndRecordedAsFailed) {
  for (const char* where : {"setup", "sample"}) {
    setenv("SAMPLE_BENCH_HANG", where, 1);
    SideBySide plan = plan_for(kSampleBench, kSampleBench, {"may_fail", "add/amount=1"}, 2);
    plan.worker_timeout = kWorkerTimeout;
    std::vector<std::string> told;
    plan.failed = [&](const std::string& name, const std::string&) { told.push_back(name); };
    const auto runs = run_side_by_side(plan);
    unsetenv("SAMPLE_BENCH_HANG");
    ASSERT_TRUE(runs) << where << ": " << runs.error().message;
    const BenchmarkResult* hung = failed_in(*runs, "may_fail");
    ASSERT_NE(hung, nullptr) << where;
    EXPECT_EQ(hung->failure->cause, Failure::Cause::timed_out);
    EXPECT_THAT(hung->failures.front(), HasSubstr("(round 1 of 2)")) << where;
    EXPECT_THAT(hung->failures.front(),
                HasSubstr(fmt::format("did not answer within {:g} s and was killed",
                                      kWorkerTimeout.count() / 1000.0)));
    EXPECT_THAT(hung->failures.front(), HasSubstr("--worker-timeout"));
    EXPECT_THAT(told, ElementsAre("may_fail"));
    // The healthy benchmark is compared as usual: both sides, both rounds.
    for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
      const auto healthy =
          std::find_if(side->benchmarks.begin(), side->benchmarks.end(),
                       [](const BenchmarkResult& b) { return b.name == "add/amount=1"; });
      ASSERT_NE(healthy, side->benchmarks.end());
      EXPECT_TRUE(healthy->valid());
      std::set<std::uint32_t> rounds;
      for (const Sample& sample : healthy->samples) rounds.insert(sample.round.value());
      EXPECT_EQ(rounds, (std::set<std::uint32_t>{0, 1}));
    }
  }
}

TEST(SideBySide, AScenarioRunsOnceASideInEachRound) {
  SideBySide plan = plan_for(kScenarioBench, kScenarioBench, {"pipeline/items=200000"}, 2);
  const auto runs = run_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->candidate.benchmarks.size(), 3u) << "its three phases";
  for (const BenchmarkResult& phase : runs->candidate.benchmarks) {
    std::set<std::uint32_t> rounds;
    for (const Sample& s : phase.samples) rounds.insert(s.round.value());
    EXPECT_EQ(rounds, (std::set<std::uint32_t>{0, 1})) << phase.name;
    EXPECT_EQ(phase.samples.size(), 2u) << phase.name;
  }
}

TEST(SideBySide, AFailingWorkerIsRecordedWithItsBuildAndRound) {
  const auto failed = run_side_by_side(plan_for("/bin/false", kSampleBench, {"copy_string"}, 2));
  ASSERT_TRUE(failed) << failed.error().message;
  ASSERT_EQ(failed->baseline.benchmarks.size(), 1u);
  const BenchmarkResult& result = failed->baseline.benchmarks.front();
  ASSERT_TRUE(result.failure);
  EXPECT_EQ(result.failure->cause, Failure::Cause::exited);
  EXPECT_EQ(result.failure->exit_code, 1);
  EXPECT_THAT(result.failures.front(), HasSubstr("the baseline build's worker (round 1 of 2)"));
  EXPECT_THAT(result.failures.front(), HasSubstr("exited with status 1"));

  // A benchmark the new build cannot run: its worker finds no match and exits with status 2.
  const auto unknown =
      run_side_by_side(plan_for(kSampleBench, kSampleBench, {"no_such_benchmark"}, 2));
  ASSERT_TRUE(unknown);
  const BenchmarkResult* missing = failed_in(*unknown, "no_such_benchmark");
  ASSERT_NE(missing, nullptr);
  EXPECT_THAT(missing->failures.front(), HasSubstr("exited with status 2"));
}

TEST(SideBySide, ACrashingBenchmarkLeavesTheComparisonAndTheOthersGoOn) {
  setenv("SAMPLE_BENCH_CRASH", "1", 1);
  const auto runs = run_side_by_side(
      plan_for(kSampleBench, kSampleBench, {"add/amount=1", "may_fail", "copy_string"}, 2));
  unsetenv("SAMPLE_BENCH_CRASH");
  ASSERT_TRUE(runs) << runs.error().message;
  const BenchmarkResult* crashed = failed_in(*runs, "may_fail");
  ASSERT_NE(crashed, nullptr);
  EXPECT_EQ(crashed->failure->cause, Failure::Cause::crashed);
  EXPECT_EQ(crashed->failure->signal, SIGABRT);
  EXPECT_THAT(crashed->failures.front(), HasSubstr("killed by signal 6 (SIGABRT)"));
  for (const char* healthy : {"add/amount=1", "copy_string"}) {
    for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
      const auto found = std::find_if(side->benchmarks.begin(), side->benchmarks.end(),
                                      [&](const BenchmarkResult& b) { return b.name == healthy; });
      ASSERT_NE(found, side->benchmarks.end()) << healthy;
      EXPECT_TRUE(found->valid()) << healthy;
      EXPECT_FALSE(found->samples.empty()) << healthy;
    }
  }
}

RunResult round_with(const std::vector<std::pair<std::string, std::vector<std::string>>>& flags) {
  RunResult run;
  for (const auto& [name, codes] : flags) {
    BenchmarkResult result;
    result.name = name;
    for (const std::string& code : codes) result.diagnostics.push_back({code, "warning", code});
    run.benchmarks.push_back(result);
  }
  return run;
}

TEST(SideBySide, OnlyFlagsThatCameUpInHalfTheRoundsAreKept) {
  // Four rounds: drift in all four (a defect of the code), multimodal in one (a passing state
  // of the machine), unstable in exactly two.
  std::vector<RunResult> rounds = {
      round_with({{"a", {"drift", "multimodal", "unstable"}}, {"b", {}}}),
      round_with({{"a", {"drift", "unstable"}}, {"b", {"cold_start"}}}),
      round_with({{"a", {"drift"}}, {"b", {"cold_start"}}}),
      round_with({{"a", {"drift"}}, {"b", {"cold_start"}}}),
  };
  RunResult merged =
      round_with({{"a", {"drift", "multimodal", "unstable"}}, {"b", {"cold_start"}}});  // the union
  keep_recurring_diagnostics(merged, rounds);
  std::vector<std::string> kept_a;
  for (const Diagnostic& d : merged.benchmarks[0].diagnostics) kept_a.push_back(d.code);
  EXPECT_THAT(kept_a, ElementsAre("drift", "unstable"));
  ASSERT_EQ(merged.benchmarks[1].diagnostics.size(), 1u);
  EXPECT_EQ(merged.benchmarks[1].diagnostics[0].code, "cold_start");
}

}  // namespace
}  // namespace benchkit::session
