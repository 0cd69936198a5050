#include "stats/bootstrap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "stats/summary.hpp"
#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;
using testing::Shape;

TEST(Random, MatchesPublishedReferenceOutputs) {
  // SplitMix64 from state 0 (Vigna's reference implementation) and xoshiro256** from state
  // {1, 2, 3, 4} (first outputs of the reference C code).
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFULL);
  auto generator = Xoshiro256::from_state(1, 2, 3, 4);
  EXPECT_EQ(generator.next(), 11520u);
  EXPECT_EQ(generator.next(), 0u);
  EXPECT_EQ(generator.next(), 1509978240u);
  EXPECT_EQ(generator.next(), 1215971899390074240u);
}

TEST(Random, BelowIsUniformAndInRange) {
  Xoshiro256 generator(42);
  std::vector<int> counts(7, 0);
  const int draws = 70'000;
  for (int i = 0; i < draws; ++i) {
    const auto value = generator.below(7);
    ASSERT_LT(value, 7u);
    ++counts[value];
  }
  // Each count is Binomial(70000, 1/7): mean 10000, sd 92.6; 5 sd is a loose but real bound.
  for (int count : counts) EXPECT_NEAR(count, 10'000, 463);
}

std::vector<double> some_values() {
  Draw draw(3);
  return testing::sample(draw, Shape::lognormal, 200);
}

TEST(Bootstrap, SameSeedGivesBitIdenticalResults) {
  const auto values = some_values();
  for (auto method :
       {BootstrapMethod::percentile, BootstrapMethod::bca, BootstrapMethod::studentized}) {
    BootstrapOptions options;
    options.method = method;
    options.seed = 12345;
    const BootstrapResult first = bootstrap_mean(values, options);
    const BootstrapResult second = bootstrap_mean(values, options);
    EXPECT_EQ(std::memcmp(&first.interval.lower, &second.interval.lower, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&first.interval.upper, &second.interval.upper, sizeof(double)), 0);
    EXPECT_EQ(first.standard_error, second.standard_error);
    options.seed = 12346;
    const BootstrapResult other = bootstrap_mean(values, options);
    EXPECT_NE(first.interval.lower, other.interval.lower) << "a different seed must differ";
  }
  const Statistic median_of = [](std::span<const double> v) { return median(v); };
  const auto a = bootstrap(values, median_of);
  const auto b = bootstrap(values, median_of);
  EXPECT_EQ(a.interval.lower, b.interval.lower);
  EXPECT_EQ(a.interval.upper, b.interval.upper);
}

TEST(Bootstrap, PinnedOutputGuardsAgainstSilentChangesOfTheStream) {
  // The values of one seeded bootstrap, recorded when this test was written. A change here means
  // results stored with a seed no longer reproduce: change the generator only on purpose.
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  BootstrapOptions options;
  options.method = BootstrapMethod::percentile;
  options.resamples = 1000;
  options.seed = 7;
  const BootstrapResult result = bootstrap_mean(values, options);
  EXPECT_DOUBLE_EQ(result.interval.lower, 3.8);
  EXPECT_DOUBLE_EQ(result.interval.upper, 7.2);
}

TEST(Bootstrap, EdgeCases) {
  const std::vector<double> empty;
  EXPECT_THROW(bootstrap_mean(empty), std::invalid_argument);
  const std::vector<double> with_nan = {1.0, NAN};
  EXPECT_THROW(bootstrap_mean(with_nan), std::invalid_argument);
  const std::vector<double> one = {3.0};
  const auto single = bootstrap_mean(one);
  EXPECT_EQ(single.interval.lower, 3.0);
  EXPECT_EQ(single.interval.upper, 3.0);
  EXPECT_EQ(single.interval.confidence, 0.0);
  const std::vector<double> same(20, 2.5);
  const auto flat = bootstrap_mean(same);
  EXPECT_EQ(flat.interval.lower, 2.5);
  EXPECT_EQ(flat.interval.upper, 2.5);
  EXPECT_EQ(flat.interval.confidence, 0.95);
  BootstrapOptions bad;
  bad.confidence = 1.0;
  EXPECT_THROW(bootstrap_mean(some_values(), bad), std::invalid_argument);
  BootstrapOptions studentized;
  studentized.method = BootstrapMethod::studentized;
  const Statistic median_of = [](std::span<const double> v) { return median(v); };
  EXPECT_THROW(bootstrap(some_values(), median_of, studentized), std::invalid_argument);
  const Statistic broken = [](std::span<const double>) { return NAN; };
  EXPECT_THROW(bootstrap(some_values(), broken), std::invalid_argument);
}

TEST(Bootstrap, GenericStatisticAgreesWithTheMeanFastPath) {
  // Same generator stream: the mean through the generic path gives the same percentile
  // interval up to summation order.
  const auto values = some_values();
  BootstrapOptions options;
  options.method = BootstrapMethod::percentile;
  const Statistic mean_of = [](std::span<const double> v) { return mean(v); };
  const auto fast = bootstrap_mean(values, options);
  const auto generic = bootstrap(values, mean_of, options);
  EXPECT_NEAR(fast.interval.lower, generic.interval.lower, 1e-12);
  EXPECT_NEAR(fast.interval.upper, generic.interval.upper, 1e-12);
  EXPECT_NEAR(fast.standard_error, generic.standard_error, 1e-12);
  // And the standard error is close to s/√n, as it must be for the mean.
  EXPECT_NEAR(fast.standard_error, stddev(values) / std::sqrt(200.0),
              0.05 * stddev(values) / std::sqrt(200.0));
}

TEST(Bootstrap, BcaShiftsTheIntervalTowardsTheLongTail) {
  // For right-skewed data the BCa interval of the mean sits to the right of the percentile one.
  Draw draw(11);
  const auto values = testing::sample(draw, Shape::pareto, 100);
  BootstrapOptions options;
  options.method = BootstrapMethod::percentile;
  const auto percentile = bootstrap_mean(values, options);
  options.method = BootstrapMethod::bca;
  const auto bca = bootstrap_mean(values, options);
  EXPECT_GT(bca.interval.upper, percentile.interval.upper);
  EXPECT_GT(bca.interval.lower, percentile.interval.lower);
}

// Coverage of the 95% bootstrap CI of the mean over seeded Monte Carlo trials.
double mean_coverage(Shape shape, std::size_t n, std::size_t trials, BootstrapMethod method,
                     std::uint64_t seed) {
  Draw draw(seed);
  BootstrapOptions options;
  options.method = method;
  options.resamples = 1000;  // per trial; the endpoints' own Monte Carlo error is small at 1,000
  std::size_t covered = 0;
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const auto values = testing::sample(draw, shape, n);
    options.seed = seed + trial;
    const auto result = bootstrap_mean(values, options);
    const double truth = testing::true_mean(shape);
    if (result.interval.lower <= truth && truth <= result.interval.upper) ++covered;
  }
  return static_cast<double>(covered) / static_cast<double>(trials);
}

TEST(BootstrapCalibration, MeanIntervalCoversNinetyFivePercent) {
  // Sample sizes: 50 for normal and lognormal; 1,000 for Pareto(3), whose infinite third moment
  // makes every bootstrap interval of the mean under-cover at small n (measured: 93.4% at
  // n = 50 for the studentized interval, ~91% for BCa; printed below, not asserted).
  const std::size_t trials = testing::sanitized ? 200 : 2000;
  struct Case {
    Shape shape;
    std::size_t n;
    bool asserted;
  };
  const Case cases[] = {{Shape::normal, 50, true},
                        {Shape::lognormal, 50, true},
                        {Shape::pareto, 50, false},
                        {Shape::pareto, testing::sanitized ? 200 : 1000, true}};
  for (const Case& c : cases) {
    const double coverage =
        mean_coverage(c.shape, c.n, trials, BootstrapMethod::automatic, 1000 + c.n);
    std::printf(
        "[calibration] bootstrap mean CI (studentized), %s, n=%zu: coverage %.1f%% over "
        "%zu trials%s\n",
        testing::name(c.shape), c.n, 100.0 * coverage, trials,
        testing::sanitized ? " (fewer trials under the sanitizer)" : "");
    if (c.asserted && !testing::sanitized) {
      EXPECT_GE(coverage, 0.93) << testing::name(c.shape);
      EXPECT_LE(coverage, 0.97) << testing::name(c.shape);
    }
  }
  for (auto method : {BootstrapMethod::percentile, BootstrapMethod::bca}) {
    const double coverage = mean_coverage(Shape::lognormal, 50, trials / 2, method, 77);
    std::printf(
        "[calibration] bootstrap mean CI (%s), %s, n=50: coverage %.1f%% over %zu "
        "trials\n",
        method == BootstrapMethod::bca ? "BCa" : "percentile", testing::name(Shape::lognormal),
        100.0 * coverage, trials / 2);
  }
}

}  // namespace
}  // namespace benchkit::stats
