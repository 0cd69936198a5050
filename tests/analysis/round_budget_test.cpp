#include "analysis/round_budget.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace benchkit::analysis {
namespace {

using ::testing::ElementsAre;

// A paired row as compare() would leave it after `pairs` rounds.
BenchmarkComparison row(const std::string& name, double ratio, double lower, double upper,
                        Verdict verdict = Verdict::inconclusive, std::size_t pairs = 10) {
  BenchmarkComparison c;
  c.name = name;
  c.design = Design::paired;
  c.pairs = pairs;
  c.ratio = ratio;
  c.ratio_lower = lower;
  c.ratio_upper = upper;
  c.verdict = verdict;
  return c;
}

TEST(RoundBudget, RemotenessIsTheWidthOverTheDistanceToTheNearestEdge) {
  const CompareSettings settings;  // ±2%
  // Centred on 1, ±3%: the half-width (0.0300 in logs) over the distance to ln 1.02 (0.0198);
  // ten rounds of it would need 10 × 1.515² = 23 in all: 13 more.
  const SettleEstimate same = settle_estimate(row("same", 1.0, 0.97, 1.03), settings);
  EXPECT_NEAR(same.remoteness, 1.5154, 1e-3);
  EXPECT_EQ(same.more_rounds, 13u);
  // 5% slower, 1.01-1.09: the edge it must clear is the upper one.
  const SettleEstimate slower = settle_estimate(row("slower", 1.05, 1.01, 1.09), settings);
  EXPECT_NEAR(slower.remoteness, 1.3148, 1e-3);
  EXPECT_EQ(slower.more_rounds, 8u);
  // 4% faster, 0.90-1.02: the lower edge, ln(1 - 0.02).
  const SettleEstimate faster = settle_estimate(row("faster", 0.96, 0.90, 1.02), settings);
  EXPECT_NEAR(faster.remoteness, 3.0351, 1e-3);
  EXPECT_EQ(faster.more_rounds, 83u);
}

TEST(RoundBudget, ACentreOnTheEdgeOrARowThatIsNotPairedHasNoEstimate) {
  const CompareSettings settings;
  const SettleEstimate edge = settle_estimate(row("edge", 1.02, 0.99, 1.05), settings);
  EXPECT_TRUE(std::isinf(edge.remoteness));
  EXPECT_FALSE(edge.more_rounds);
  BenchmarkComparison independent = row("independent", 1.05, 1.01, 1.09);
  independent.design = Design::independent;
  EXPECT_FALSE(settle_estimate(independent, settings).more_rounds);
  EXPECT_FALSE(
      settle_estimate(row("one round", 1.05, 1.01, 1.09, Verdict::inconclusive, 1), settings)
          .more_rounds);
}

// A centre all but on an edge: the estimate grows without bound as the distance shrinks, and
// past kMostRoundsEstimated the row is on the edge (an A/A row at ±0.1% with its centre at
// -0.0996% once said 2,259,031,019 more rounds; closer still, more than a count can hold).
TEST(RoundBudget, ACentreAllButOnTheEdgeHasNoEstimateBeyondTheMostRounds) {
  CompareSettings settings;
  settings.noise_threshold = 0.001;
  const double edge = std::log1p(-0.001);
  // 19 rounds, 0.925-1.007 as measured, the centre 4e-7 (in logs) inside the lower edge.
  const SettleEstimate close =
      settle_estimate(row("close", std::exp(edge + 4e-7), 0.9248745731643353, 1.0068834533459103,
                          Verdict::inconclusive, 19),
                      settings);
  EXPECT_GT(close.remoteness, 1e5);
  EXPECT_FALSE(close.more_rounds);
  for (const double inside : {1e-9, 1e-11, 2e-12}) {
    EXPECT_FALSE(
        settle_estimate(row("closer", std::exp(edge + inside), 0.92, 1.01), settings).more_rounds)
        << inside;
  }
  // The same interval centred on no change, as far from both edges as the band allows: a number
  // (19 × (0.0425 / 0.0010)² in all, about 34,000 more), at most kMostRoundsEstimated.
  const SettleEstimate near = settle_estimate(
      row("near", 1.0, 0.9248745731643353, 1.0068834533459103, Verdict::inconclusive, 19),
      settings);
  ASSERT_TRUE(near.more_rounds);
  EXPECT_GT(*near.more_rounds, 30000u);
  EXPECT_LE(*near.more_rounds, kMostRoundsEstimated);
  Comparison comparison;
  comparison.settings = settings;
  comparison.benchmarks = {row("close", std::exp(edge + 4e-7), 0.9248745731643353,
                               1.0068834533459103, Verdict::inconclusive, 19)};
  note_settle_estimates(comparison, 1e8);
  EXPECT_FALSE(comparison.benchmarks[0].more_rounds);
  EXPECT_THAT(comparison.benchmarks[0].note,
              ::testing::HasSubstr("no practical number of rounds would settle it"));
}

TEST(RoundBudget, AnUnsettledRowNarrowEnoughStillNeedsARound) {
  // Narrow enough already (remoteness below 1) but inconclusive, as when the look's level or
  // the adjusted p-value is what is missing: one more round, not zero.
  const SettleEstimate narrow = settle_estimate(row("narrow", 1.05, 1.04, 1.06), CompareSettings{});
  EXPECT_LT(narrow.remoteness, 1.0);
  EXPECT_EQ(narrow.more_rounds, 1u);
  EXPECT_EQ(settle_estimate(row("settled", 1.05, 1.04, 1.06, Verdict::regressed), CompareSettings{})
                .more_rounds,
            0u);
}

TEST(RoundBudget, TheNextRoundGoesToTheFurthestFromSettledWithinTheSlots) {
  const std::vector<BenchmarkComparison> rows = {
      row("same", 1.0, 0.97, 1.03),                        // 1.52
      row("slower", 1.05, 1.01, 1.09),                     // 1.31
      row("edge", 1.02, 0.99, 1.05),                       // infinite
      row("done", 1.0, 0.995, 1.005, Verdict::unchanged),  // settled: none
      row("faster", 0.96, 0.90, 1.02),                     // 3.04
  };
  const CompareSettings settings;
  EXPECT_THAT(allocate_next_round(rows, settings, 2), ElementsAre("edge", "faster"));
  EXPECT_THAT(allocate_next_round(rows, settings, 10),
              ElementsAre("edge", "faster", "same", "slower"));
  EXPECT_TRUE(allocate_next_round(rows, settings, 0).empty());
}

TEST(RoundBudget, InconclusiveRowsSayHowManyMoreRoundsAndHowLongWouldSettleThem) {
  Comparison comparison;
  comparison.benchmarks = {row("same", 1.0, 0.97, 1.03), row("edge", 1.02, 0.99, 1.05),
                           row("settled", 1.0, 0.99, 1.01, Verdict::unchanged)};
  comparison.benchmarks[0].note = "why";
  note_settle_estimates(comparison, 2.5e8);
  const BenchmarkComparison& same = comparison.benchmarks[0];
  EXPECT_EQ(same.more_rounds, 13u);
  EXPECT_DOUBLE_EQ(same.more_time_ns.value(), 13 * 2.5e8);
  EXPECT_EQ(same.note,
            "why; about 13 more rounds would settle it (about 3.25 s more, at 250 ms a "
            "round)");
  const BenchmarkComparison& edge = comparison.benchmarks[1];
  EXPECT_FALSE(edge.more_rounds);
  EXPECT_EQ(edge.note,
            "no practical number of rounds would settle it: its change lies on the edge of the ±2% "
            "noise threshold");
  EXPECT_FALSE(comparison.benchmarks[2].more_rounds);
  EXPECT_TRUE(comparison.benchmarks[2].note.empty());
  // Without a cost: the rounds alone.
  Comparison uncosted;
  uncosted.benchmarks = {row("same", 1.0, 0.97, 1.03)};
  note_settle_estimates(uncosted, std::nullopt);
  EXPECT_EQ(uncosted.benchmarks[0].note, "about 13 more rounds would settle it");
  EXPECT_FALSE(uncosted.benchmarks[0].more_time_ns);
}

// A change near an edge makes the estimate large, not the width: the note says so, and how many
// rounds would settle it were there no change (nlohmann/json's Dump/canada, an A/A comparison of
// 31 rounds: -1.9% [-5.3%, +0.7%]).
TEST(RoundBudget, AChangeNearAnEdgeSaysItIsWhatMakesTheEstimateLarge) {
  Comparison comparison;
  comparison.benchmarks = {row("canada", 0.98096, 0.94718, 1.00728, Verdict::inconclusive, 31)};
  note_settle_estimates(comparison, std::nullopt);
  const BenchmarkComparison& canada = comparison.benchmarks[0];
  ASSERT_TRUE(canada.more_rounds);
  EXPECT_GT(*canada.more_rounds, 30000u);
  EXPECT_THAT(canada.note,
              ::testing::EndsWith("more rounds would settle it, more than --max-rounds can be set "
                                  "to (3000), as long as its change stays at "
                                  "-1.9%, near the edge of the ±2% noise threshold; were there no "
                                  "change, about 44 more would"));
  // Centred on no change: the width is what it needs, and nothing is added.
  Comparison centred;
  centred.benchmarks = {row("same", 1.0, 0.97, 1.03)};
  note_settle_estimates(centred, std::nullopt);
  EXPECT_EQ(centred.benchmarks[0].note, "about 13 more rounds would settle it");
  // Centred, but so wide that more rounds than --max-rounds allows would settle it: out of reach
  // at ±2% here, not a --max-rounds to try.
  Comparison wide;
  wide.benchmarks = {row("wide", 1.0, 0.7, 1.3, Verdict::inconclusive, 30)};
  note_settle_estimates(wide, std::nullopt);
  ASSERT_TRUE(wide.benchmarks[0].more_rounds);
  EXPECT_GT(*wide.benchmarks[0].more_rounds + 30, kMostRoundsAllowed);
  EXPECT_THAT(wide.benchmarks[0].note,
              ::testing::EndsWith("more rounds would settle it, more than --max-rounds can be set "
                                  "to (3000): on this machine ±2% is out of its reach; a wider "
                                  "--noise-threshold, or a quieter machine, would settle it"));
}

TEST(RoundBudget, ARowStopsWhenEvenAFavourableEstimateNeedsMoreThanTheLastRound) {
  const CompareSettings settings;  // ±2%
  // "faster", 0.96 (0.90-1.02) after 10 rounds: log centre -0.0408, half-width 0.0626. Half a
  // half-width from the centre, -0.0721 lies 0.0519 beyond the lower edge (-0.0202): 10 rounds x
  // (0.0626 / 0.0519)² = 14.5 in all (the centre itself would need 93).
  const BenchmarkComparison faster = row("faster", 0.96, 0.90, 1.02);
  EXPECT_TRUE(beyond_reach(faster, settings, 14));
  EXPECT_FALSE(beyond_reach(faster, settings, 15));
  // "same", 1.0 (0.97-1.03): the span holds no change at all, 0.0198 from the nearest edge, as
  // its centre: 22.96 in all.
  EXPECT_TRUE(beyond_reach(row("same", 1.0, 0.97, 1.03), settings, 22));
  EXPECT_FALSE(beyond_reach(row("same", 1.0, 0.97, 1.03), settings, 23));
  // A centre on an edge: the favourable changes lie half a half-width off it (r = 2), 4 x 10 = 40
  // rounds; one on an edge with a tenth of the width would be a hundredth as far: 10 x 4.
  EXPECT_TRUE(beyond_reach(row("edge", 1.02, 0.99, 1.05), settings, 39));
  EXPECT_FALSE(beyond_reach(row("edge", 1.02, 0.99, 1.05), settings, 41));
  // An unchanged benchmark whose first rounds put it beyond an edge by chance (from an A/A
  // comparison of a 64 MiB sum, 10 rounds: 1.0256, 0.9869-1.0761) goes on under 90: 25.5.
  EXPECT_FALSE(beyond_reach(row("by chance", 1.0256, 0.9869, 1.0761), settings, 90));
}

TEST(RoundBudget, OnlyAnUndecidedPairedRowBeforeItsLastRoundCanStopEarly) {
  const CompareSettings settings;
  const BenchmarkComparison edge = row("edge", 1.02, 0.99, 1.05);
  EXPECT_FALSE(beyond_reach(edge, settings, 0)) << "no design: no maximum to judge against";
  EXPECT_FALSE(beyond_reach(row("edge", 1.02, 0.99, 1.05, Verdict::inconclusive, 90), settings, 90))
      << "at its last round already";
  EXPECT_FALSE(beyond_reach(row("done", 1.02, 1.021, 1.05, Verdict::regressed), settings, 90));
  BenchmarkComparison independent = edge;
  independent.design = Design::independent;
  EXPECT_FALSE(beyond_reach(independent, settings, 90));
  EXPECT_FALSE(beyond_reach(row("one", 1.02, 0.99, 1.05, Verdict::inconclusive, 1), settings, 90));
  EXPECT_FALSE(beyond_reach(row("no bounds", 1.02, 0.0, 1.05), settings, 90));
  // Not before a quarter of the maximum, however far: 1.0 (0.5-2.0) after 10 rounds needs 45,
  // beyond 40 and 41 alike, but 10 rounds are not a quarter of 41.
  const BenchmarkComparison wide = row("wide", 1.0, 0.5, 2.0);
  EXPECT_TRUE(beyond_reach(wide, settings, 40));
  EXPECT_FALSE(beyond_reach(wide, settings, 41));
  EXPECT_FALSE(beyond_reach(row("wide", 1.0, 0.5, 2.0, Verdict::inconclusive, 22), settings, 90));
  EXPECT_TRUE(beyond_reach(row("wide", 1.0, 0.5, 2.0, Verdict::inconclusive, 23), settings, 90));
}

TEST(RoundBudget, TheMostRoundsOfTheDesignAreItsLevelsLessOne) {
  CompareSettings settings;
  EXPECT_EQ(design_max_rounds(settings), 0u);
  settings.sequential_alpha = sequential_levels(10, 90);
  EXPECT_EQ(design_max_rounds(settings), 90u);
}

TEST(RoundBudget, ARowThatStoppedEarlySaysWhereAndWhy) {
  Comparison comparison;
  comparison.settings.sequential_alpha = sequential_levels(10, 20);
  comparison.benchmarks = {row("faster", 0.96, 0.90, 1.02), row("same", 1.0, 0.97, 1.03)};
  note_settle_estimates(comparison, std::nullopt);
  EXPECT_EQ(comparison.benchmarks[0].note, "about 83 more rounds would settle it");
  EXPECT_EQ(comparison.benchmarks[1].note,
            "about 13 more rounds would settle it; it stopped at 10 of up to 20 rounds, since "
            "what it needs is beyond them");
}

}  // namespace
}  // namespace benchkit::analysis
