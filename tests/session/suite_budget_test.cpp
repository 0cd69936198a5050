// The suite budget (session/suite_budget.hpp) driving the round loop (session/round_loop.hpp):
// a fake round runner makes each benchmark's paired rounds, a fake clock moves one second per
// benchmark-round, no process is started.
#include "session/suite_budget.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/estimates.hpp"
#include "analysis/round_budget.hpp"
#include "fakes/fake_clock.hpp"
#include "session/round_loop.hpp"

namespace benchkit::session {
namespace {

using ::testing::HasSubstr;

constexpr std::int64_t kSecond = 1'000'000'000;

// Benchmarks whose new build is as fast as the old, round ratios scattered by `spread` (the
// same pattern for each, scaled): "steady" settles as unchanged at the first look, "mid" and
// "wide" do not, and "wide" is the furthest from settled.
class FakeRounds {
 public:
  explicit FakeRounds(benchkit::testing::FakeClock& clock) : clock_(clock) {}

  const std::vector<std::string> names = {"mid", "steady", "wide"};
  std::map<std::string, double> spread = {{"mid", 0.05}, {"steady", 0.001}, {"wide", 0.12}};
  // The log of the change each benchmark's new build makes (none unless set).
  std::map<std::string, double> change;
  // The benchmarks of a round run together (a Google Benchmark suite slow to start): a round
  // costs one second however many benchmarks it holds.
  bool together = false;

  RoundSteps steps() {
    RoundSteps steps;
    steps.run_round = [this](
                          std::size_t round, std::size_t,
                          const std::vector<std::size_t>& active) -> std::optional<model::Error> {
      for (const std::size_t index : active) {
        add(names[index], round);
        if (!together) clock_.advance(kSecond);  // a benchmark's round: one second of wall time
      }
      if (together) clock_.advance(kSecond);
      return std::nullopt;
    };
    steps.failed = [](std::size_t) { return false; };
    steps.result = [this] { return result(); };
    return steps;
  }

  std::map<std::string, std::set<std::uint32_t>> rounds_of;

 private:
  void add(const std::string& name, std::size_t round) {
    // Alternating signs, growing and shrinking: centred on 1, never the same twice in a row.
    static const double kPattern[] = {1.0, -0.7, 0.4, -1.0, 0.8, -0.3, 0.6, -0.5, 0.2, -0.9};
    const double ratio = std::exp((change.contains(name) ? change.at(name) : 0.0) +
                                  spread.at(name) * kPattern[round % 10]);
    for (const int sample : {0, 1, 2}) {
      Sample base;
      base.ns = 1000.0 + sample;
      base.round = static_cast<std::uint32_t>(round);
      base.process = static_cast<std::uint32_t>(round);
      Sample candidate = base;
      candidate.ns = base.ns * ratio;
      samples_[0][name].push_back(base);
      samples_[1][name].push_back(candidate);
    }
    rounds_of[name].insert(static_cast<std::uint32_t>(round));
  }

  SideBySideRuns result() const {
    SideBySideRuns runs;
    runs.together = together;
    RunResult* sides[] = {&runs.baseline, &runs.candidate};
    for (std::size_t side = 0; side < 2; ++side) {
      for (const auto& [name, samples] : samples_[side]) {
        BenchmarkResult result;
        result.name = name;
        result.samples = samples;
        sides[side]->benchmarks.push_back(std::move(result));
      }
      analysis::compute_estimates(*sides[side]);
    }
    return runs;
  }

  benchkit::testing::FakeClock& clock_;
  std::map<std::string, std::vector<Sample>> samples_[2];
};

analysis::CompareSettings settings() {
  analysis::CompareSettings settings;
  settings.adjustment = analysis::Adjustment::none;
  return settings;
}

RoundLoop loop_of(const FakeRounds& rounds, std::size_t max_rounds) {
  return RoundLoop{rounds.names, /*rounds=*/8, max_rounds, /*look_every=*/1};
}

TEST(SuiteBudget, WithoutABudgetEveryUndecidedBenchmarkGetsEachRound) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  SuiteBudget budget(0, clock);
  const auto runs = run_round_loop(loop_of(rounds, 12), rounds.steps(), budget.looks(settings()));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u) << "settled at the first look";
  EXPECT_EQ(rounds.rounds_of["mid"].size(), 12u);
  EXPECT_EQ(rounds.rounds_of["wide"].size(), 12u);
  EXPECT_FALSE(budget.ran_out());
}

TEST(SuiteBudget, TheNextRoundGoesToTheBenchmarkFurthestFromSettled) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  // The first 8 rounds of 3 benchmarks cost 24 s; 25.5 s leaves room for one more round.
  SuiteBudget budget(25 * kSecond + kSecond / 2, clock);
  const auto runs = run_round_loop(loop_of(rounds, 50), rounds.steps(), budget.looks(settings()));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(rounds.rounds_of["wide"].size(), 9u) << "the furthest got the one round";
  EXPECT_EQ(rounds.rounds_of["mid"].size(), 8u);
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u);
  EXPECT_EQ(rounds.rounds_of["wide"].count(8), 1u) << "in the next round, number 8";
  EXPECT_TRUE(budget.ran_out());
  EXPECT_NEAR(budget.round_cost_ns().value(), 1e9, 1.0);
  EXPECT_THAT(budget.summary(), HasSubstr("ran out"));
  EXPECT_THAT(budget.summary(), HasSubstr("2 benchmarks still inconclusive"));
}

TEST(SuiteBudget, TheBudgetStopsTheLoopLongBeforeTheMaximum) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  SuiteBudget budget(40 * kSecond, clock);
  const auto runs = run_round_loop(loop_of(rounds, 200), rounds.steps(), budget.looks(settings()));
  ASSERT_TRUE(runs) << runs.error().message;
  std::size_t taken = 0;
  for (const auto& [name, numbers] : rounds.rounds_of) taken += numbers.size();
  // One second a benchmark-round: 40 of them in all, the first 24 shared by all three.
  EXPECT_EQ(taken, 40u);
  EXPECT_LE(clock.now() - 1'000'000'000, 40 * kSecond);
  // While the budget affords a round for each undecided benchmark, each gets one.
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u);
  EXPECT_EQ(rounds.rounds_of["mid"].size(), 16u);
  EXPECT_EQ(rounds.rounds_of["wide"].size(), 16u);
  EXPECT_TRUE(budget.ran_out());
}

TEST(SuiteBudget, RoundsOfBenchmarksTogetherCostARoundAndGoToEveryUndecidedOne) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  rounds.together = true;
  // The first 8 rounds cost 8 s, one a round; 10.5 s leaves room for two more rounds, each of
  // both undecided benchmarks. Counted by benchmark-round (a third of a second each) the budget
  // would give three more, and overrun.
  SuiteBudget budget(10 * kSecond + kSecond / 2, clock);
  const std::int64_t start = clock.now();
  const auto runs = run_round_loop(loop_of(rounds, 50), rounds.steps(), budget.looks(settings()));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u);
  EXPECT_EQ(rounds.rounds_of["mid"].size(), 10u);
  EXPECT_EQ(rounds.rounds_of["wide"].size(), 10u);
  EXPECT_LE(clock.now() - start, 10 * kSecond + kSecond / 2);
  EXPECT_NEAR(budget.round_cost_ns().value(), 1e9, 1.0);
  EXPECT_TRUE(budget.ran_out());
  EXPECT_THAT(budget.summary(), HasSubstr("about 1 s a round"));
}

TEST(SuiteBudget, TheBenchmarksLeftUndecidedSayWhatWouldSettleThem) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  SuiteBudget budget(30 * kSecond, clock);
  const auto runs = run_round_loop(loop_of(rounds, 200), rounds.steps(), budget.looks(settings()));
  ASSERT_TRUE(runs) << runs.error().message;
  budget.ended(*runs);
  analysis::Comparison comparison = analysis::compare(runs->baseline, runs->candidate, settings());
  analysis::note_settle_estimates(comparison, budget.round_cost_ns());
  std::size_t undecided = 0;
  for (const analysis::BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict != analysis::Verdict::inconclusive) {
      EXPECT_FALSE(row.more_rounds) << row.name;
      continue;
    }
    ++undecided;
    ASSERT_TRUE(row.more_rounds) << row.name;
    ASSERT_TRUE(row.more_time_ns) << row.name;
    EXPECT_DOUBLE_EQ(*row.more_time_ns, static_cast<double>(*row.more_rounds) * 1e9);
    EXPECT_THAT(row.note, HasSubstr("more round"));
    EXPECT_THAT(row.note, HasSubstr("at 1 s a round"));
  }
  EXPECT_EQ(undecided, 2u);
}

TEST(SuiteBudget, ABenchmarkThatMoreRoundsWouldNotSettleStopsBeforeItsLastRound) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  // "wide" now changes by exactly the noise threshold, +2%, its rounds scattered 1%: no number of
  // rounds settles it. Under a sequential design up to 60 rounds it stops once even a favourable
  // reading needs more than 60 (4 n > 60, analysis::beyond_reach); "mid" (centred, 5%) goes on.
  rounds.change["wide"] = std::log1p(0.02);
  rounds.spread["wide"] = 0.01;
  SuiteBudget budget(0, clock);
  analysis::CompareSettings sequential = settings();
  sequential.sequential_alpha = analysis::sequential_levels(8, 60);
  const auto runs = run_round_loop(loop_of(rounds, 60), rounds.steps(), budget.looks(sequential));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u);
  EXPECT_GT(rounds.rounds_of["wide"].size(), 8u);
  EXPECT_LT(rounds.rounds_of["wide"].size(), 30u);
  EXPECT_GT(rounds.rounds_of["mid"].size(), 8u);
  analysis::Comparison comparison = analysis::compare(runs->baseline, runs->candidate, sequential);
  analysis::note_settle_estimates(comparison, std::nullopt);
  bool seen = false;
  for (const analysis::BenchmarkComparison& row : comparison.benchmarks) {
    if (row.name != "wide") continue;
    seen = true;
    EXPECT_EQ(row.verdict, analysis::Verdict::inconclusive);
    EXPECT_THAT(row.note, HasSubstr(fmt::format("it stopped at {} of up to 60 rounds",
                                                rounds.rounds_of["wide"].size())));
  }
  EXPECT_TRUE(seen);
  // Without the design's maximum to judge against, the same benchmark has every round.
  benchkit::testing::FakeClock again_clock;
  FakeRounds again(again_clock);
  again.change["wide"] = std::log1p(0.02);
  again.spread["wide"] = 0.01;
  SuiteBudget no_design(0, again_clock);
  ASSERT_TRUE(run_round_loop(loop_of(again, 60), again.steps(), no_design.looks(settings())));
  EXPECT_EQ(again.rounds_of["wide"].size(), 60u);
}

TEST(RoundLoop, AWaitingBenchmarkComesBackAtALaterLook) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  std::size_t looks = 0;
  // Both stay undecided; the first look funds only mid, the second only wide, then none.
  const Undecided undecided = [&](const SideBySideRuns&) {
    Look look(std::vector<std::string>{"mid", "wide"});
    ++looks;
    look.next = looks == 1   ? std::vector<std::string>{"mid"}
                : looks == 2 ? std::vector<std::string>{"wide"}
                             : std::vector<std::string>{};
    return look;
  };
  const auto runs = run_round_loop(loop_of(rounds, 20), rounds.steps(), undecided);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(looks, 3u);
  EXPECT_EQ(rounds.rounds_of["mid"], (std::set<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(rounds.rounds_of["wide"], (std::set<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 9}));
  EXPECT_EQ(rounds.rounds_of["steady"].size(), 8u);
}

TEST(RoundLoop, EachBenchmarkStopsAtItsOwnMaximum) {
  benchkit::testing::FakeClock clock;
  FakeRounds rounds(clock);
  // wide waits the first look out, then both are funded until each had 10 of its own.
  std::size_t looks = 0;
  const Undecided undecided = [&](const SideBySideRuns&) {
    Look look(std::vector<std::string>{"mid", "wide"});
    if (++looks == 1) look.next = std::vector<std::string>{"mid"};
    return look;
  };
  const auto runs = run_round_loop(loop_of(rounds, 10), rounds.steps(), undecided);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(rounds.rounds_of["mid"].size(), 10u);
  EXPECT_EQ(rounds.rounds_of["wide"].size(), 10u);
}

// Ctrl-C in round 6: the rounds before it are the result, marked interrupted; in the first
// round, before any finished, it is the loop's error.
TEST(RoundLoop, CtrlCAfterTheFirstRoundKeepsTheRoundsBeforeIt) {
  for (const std::size_t stop : {std::size_t{5}, std::size_t{0}}) {
    benchkit::testing::FakeClock clock;
    FakeRounds rounds(clock);
    RoundSteps steps = rounds.steps();
    const auto each_round = steps.run_round;
    steps.run_round = [&](std::size_t round, std::size_t planned,
                          const std::vector<std::size_t>& active) -> std::optional<model::Error> {
      if (round == stop) return model::Error{"stopped", model::ErrorKind::interrupted};
      return each_round(round, planned, active);
    };
    const Undecided undecided = [](const SideBySideRuns&) {
      return Look(std::vector<std::string>{"mid", "steady", "wide"});
    };
    const auto runs = run_round_loop(loop_of(rounds, 20), steps, undecided);
    if (stop == 0) {
      ASSERT_FALSE(runs);
      EXPECT_EQ(runs.error().kind, model::ErrorKind::interrupted);
      continue;
    }
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_TRUE(runs->interrupted_in.has_value());
    EXPECT_EQ(*runs->interrupted_in, stop);
    for (const BenchmarkResult& result : runs->candidate.benchmarks) {
      EXPECT_EQ(result.samples.size(), 3 * stop) << result.name << ": three samples a round";
    }
    EXPECT_EQ(interrupted_note(*runs),
              "; Ctrl-C stopped it in round 6: the verdicts rest on the rounds that finished "
              "before it");
  }
  EXPECT_EQ(interrupted_note(SideBySideRuns{}), "");
}

}  // namespace
}  // namespace benchkit::session
