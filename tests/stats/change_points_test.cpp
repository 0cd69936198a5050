#include "stats/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "history_simulation.hpp"
#include "otava_reference.hpp"
#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using simulation::Score;
using simulation::Step;

// A point with a ±1% interval around `value`.
IntervalPoint point(double value, double half_width = 0.01) {
  return {value, value * (1.0 - half_width), value * (1.0 + half_width)};
}

std::vector<std::size_t> indices(const std::vector<ChangePoint>& changes) {
  std::vector<std::size_t> out;
  for (const auto& c : changes) out.push_back(c.index);
  return out;
}

// The real runs' noise scaled to 1% from run to run, a CI runner of its own (the fixture's
// loaded VM scattered 3-12%; the study in bench/ has the other levels).
const std::vector<simulation::NoisePool>& noise() {
  static const auto pools = simulation::rescaled(
      simulation::load_noise(std::string(BENCHKIT_TEST_FIXTURES) + "/stats/history_noise.csv"),
      0.01);
  return pools;
}

TEST(ChangePoints, EdgeCases) {
  EXPECT_TRUE(detect_change_points({}).empty());
  const std::vector<IntervalPoint> short_series = {point(1), point(2), point(3)};
  EXPECT_TRUE(detect_change_points(short_series).empty());
  const std::vector<IntervalPoint> flat(40, point(5.0, 0.0));
  EXPECT_TRUE(detect_change_points(flat).empty());
  std::vector<IntervalPoint> with_nan(20, point(1.0));
  with_nan[3].value = NAN;
  EXPECT_THROW(detect_change_points(with_nan), std::invalid_argument);
  ChangePointSettings bad;
  bad.min_segment = 0;
  EXPECT_THROW(detect_change_points(flat, bad), std::invalid_argument);
  bad = {};
  bad.max_p_value = 1.5;
  EXPECT_THROW(detect_change_points(flat, bad), std::invalid_argument);
}

TEST(ChangePoints, FindsAStepWithItsLevelsAndPValue) {
  testing::Draw draw(21);
  std::vector<IntervalPoint> series;
  for (int i = 0; i < 80; ++i) {
    const double level = i < 47 ? 100.0 : 105.0;
    series.push_back(point(level * draw.lognormal(0.0, 0.01)));
  }
  const auto changes = detect_change_points(series);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].index, 47u);
  EXPECT_NEAR(changes[0].before, 100.0, 1.0);
  EXPECT_NEAR(changes[0].after, 105.0, 1.0);
  EXPECT_LT(changes[0].p_value, 1e-6);
  // Pure: the same series gives the same answer.
  const auto again = detect_change_points(series);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].p_value, changes[0].p_value);
}

TEST(ChangePoints, ADeterministicMetricChangesExactlyWhereItsValueDoes) {
  // Instruction counts: no interval, no noise; a step from 1000 to 1010 at 30.
  std::vector<IntervalPoint> series;
  for (int i = 0; i < 60; ++i) {
    const double v = i < 30 ? 1000.0 : 1010.0;
    series.push_back({v, v, v});
  }
  const auto changes = detect_change_points(series);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].index, 30u);
}

TEST(ChangePoints, NegativeValuesAreAnalysedOnTheirOwnScale) {
  testing::Draw draw(22);
  std::vector<IntervalPoint> series;
  for (int i = 0; i < 60; ++i) {
    const double v = (i < 25 ? -1.0 : 1.0) + draw.normal(0.0, 0.1);
    series.push_back({v, v - 0.1, v + 0.1});
  }
  EXPECT_EQ(indices(detect_change_points(series)), std::vector<std::size_t>{25});
}

TEST(ChangePoints, ThreeDisturbedRunsInARowAreNotALevel) {
  // A quiet history (±0.5%) with runs 70-72 40% slow, as when another job shared the machine.
  testing::Draw draw(23);
  std::vector<IntervalPoint> series;
  for (int i = 0; i < 150; ++i) {
    const double slow = (i >= 70 && i < 73) ? 1.4 : 1.0;
    series.push_back(point(100.0 * slow * draw.lognormal(0.0, 0.005), 0.004));
  }
  EXPECT_TRUE(detect_change_points(series).empty());
  // Four in a row are: min_segment.
  for (int i = 73; i < 77; ++i) series[static_cast<std::size_t>(i)] = point(140.0, 0.004);
  EXPECT_EQ(detect_change_points(series).size(), 2u);
}

TEST(ChangePoints, ANarrowIntervalDoesNotHideTheSpreadBetweenRuns) {
  // Each run's interval says ±0.1%, but runs scatter ±2% (layout, machine state): a model that
  // trusted the intervals alone would see changes everywhere.
  testing::Draw draw(24);
  std::size_t false_changes = 0;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<IntervalPoint> series;
    for (int i = 0; i < 200; ++i) series.push_back(point(100.0 * draw.lognormal(0.0, 0.02), 0.001));
    false_changes += detect_change_points(series).size();
  }
  EXPECT_EQ(false_changes, 0u);
}

TEST(ChangePoints, ANewLevelAtTheEndIsNamedOnceItHasLastedMinSegmentRuns) {
  for (const std::size_t after : {2u, 4u}) {
    testing::Draw draw(26);
    std::vector<IntervalPoint> series;
    for (std::size_t i = 0; i < 100 + after; ++i) {
      series.push_back(point((i < 100 ? 100.0 : 110.0) * draw.lognormal(0.0, 0.01), 0.005));
    }
    const auto found = indices(detect_change_points(series));
    if (after < 4) {
      EXPECT_TRUE(found.empty()) << after;
    } else {
      EXPECT_EQ(found, std::vector<std::size_t>{100}) << after;
    }
  }
}

TEST(ChangePoints, MinRelativeChangeDropsTheSmallerChanges) {
  testing::Draw draw(27);
  std::vector<IntervalPoint> series;
  for (int i = 0; i < 180; ++i) {
    const double level = i < 60 ? 100.0 : (i < 120 ? 103.0 : 113.3);
    series.push_back(point(level * draw.lognormal(0.0, 0.003), 0.002));
  }
  EXPECT_EQ(indices(detect_change_points(series)), (std::vector<std::size_t>{60, 120}));
  ChangePointSettings settings;
  settings.min_relative_change = 0.05;
  EXPECT_EQ(indices(detect_change_points(series, settings)), std::vector<std::size_t>{120});
}

TEST(OtavaReference, FindsTwoClearSteps) {
  testing::Draw draw(25);
  std::vector<double> series;
  for (int i = 0; i < 120; ++i) {
    const double level = i < 40 ? 100.0 : (i < 80 ? 110.0 : 104.0);
    series.push_back(level + draw.normal(0.0, 1.0));
  }
  const auto changes = reference::otava_change_points(series);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_NEAR(static_cast<double>(changes[0].index), 40.0, 1.0);
  EXPECT_NEAR(static_cast<double>(changes[1].index), 80.0, 1.0);
  EXPECT_LT(changes[0].p_value, 0.001);
}

// The simulation of the issue, smaller: real run-to-run noise, 200 points, steps of 3%, 5% and
// 10%, benchkit's method and the Otava reference side by side. The study in bench/ runs the same
// with more series and prints the table of docs/change-points.md.
struct Tally {
  Score ours, otava;
};

Tally simulate(double size, std::size_t series_count, std::uint64_t seed,
               std::size_t tolerance = 1) {
  Xoshiro256 generator(seed);
  Tally tally;
  const auto& pools = noise();
  for (std::size_t s = 0; s < series_count; ++s) {
    const auto& pool = pools[s % pools.size()];
    const std::vector<Step> steps =
        size == 0.0 ? std::vector<Step>{} : simulation::three_steps(size, generator);
    const auto series = simulation::make_series(pool, 200, steps, generator);
    tally.ours.add(simulation::score(steps, indices(detect_change_points(series)), tolerance));
    std::vector<std::size_t> theirs;
    for (const auto& c : reference::otava_change_points(simulation::values_of(series)))
      theirs.push_back(c.index);
    tally.otava.add(simulation::score(steps, theirs, tolerance));
  }
  return tally;
}

TEST(ChangePointSimulation, NoFalseChangeInStepFreeHistoriesOfRealNoise) {
  const std::size_t count = testing::sanitized ? 20 : 100;
  const Tally tally = simulate(0.0, count, 31);
  std::printf("step-free, %zu series of 200: benchkit %zu false change points, Otava %zu%s\n",
              count, tally.ours.detections, tally.otava.detections,
              testing::sanitized ? " (fewer series under sanitizers)" : "");
  EXPECT_EQ(tally.ours.detections, 0u);
}

TEST(ChangePointSimulation, FindsStepsWithinOneCommitAndAtLeastAsWellAsOtava) {
  const std::size_t count = testing::sanitized ? 10 : 40;
  for (const double size : {0.03, 0.05, 0.10}) {
    const Tally tally = simulate(size, count, 32);
    std::printf(
        "%2.0f%% steps, %zu series: benchkit recall %.3f precision %.3f; Otava recall %.3f "
        "precision %.3f\n",
        size * 100, count, tally.ours.recall(), tally.ours.precision(), tally.otava.recall(),
        tally.otava.precision());
    // At least as good as Otava: as precise, and finding as many steps (within two series'
    // worth of steps at 3%, where both miss some and a seed can tip one or the other).
    EXPECT_GE(tally.ours.precision(), tally.otava.precision()) << size;
    EXPECT_GE(tally.ours.recall(), tally.otava.recall() - (size < 0.05 ? 0.05 : 0.0)) << size;
    if (size >= 0.05) {
      // Every step found; within ±1 run all but one in a hundred (a step found 2 runs early
      // when the runs just before it were in the machine's slow state).
      EXPECT_GE(tally.ours.recall(), 0.99) << size;
      EXPECT_EQ(simulate(size, count, 32, 2).ours.found, tally.ours.steps) << size;
    }
  }
}

}  // namespace
}  // namespace benchkit::stats
