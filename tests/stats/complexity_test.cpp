#include "stats/complexity.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "test_data.hpp"

namespace benchkit::stats {
namespace {

using testing::Draw;

// Sizes 8, 16, ..., 32768 (13 sizes, a range of 4096), as RangeMultiplier(2)->Range(8, 1 << 15).
std::vector<double> doubling_sizes(double low = 8, double high = 32768) {
  std::vector<double> sizes;
  for (double n = low; n <= high; n *= 2) sizes.push_back(n);
  return sizes;
}

// A sweep of `growth` with coefficient `coefficient` plus a constant 0: each size gets `samples`
// values with multiplicative normal noise of relative size `noise`.
std::vector<SizeSamples> sweep(Draw& draw, Growth growth, const std::vector<double>& sizes,
                               std::size_t samples, double noise, double coefficient = 3.0) {
  std::vector<SizeSamples> out;
  for (double n : sizes) {
    SizeSamples size;
    size.n = n;
    const double truth = coefficient * growth_term(growth, n);
    for (std::size_t i = 0; i < samples; ++i) {
      size.values.push_back(std::max(0.0, truth * (1.0 + noise * draw.normal())));
    }
    out.push_back(std::move(size));
  }
  return out;
}

// The share of `trials` seeded sweeps of `growth` whose best class is `growth`.
double identified(Growth growth, std::size_t samples, std::size_t trials, std::uint64_t seed) {
  Draw draw(seed);
  ComplexityRequest request;
  request.resamples = 0;  // the choice alone
  std::size_t right = 0;
  for (std::size_t t = 0; t < trials; ++t) {
    const auto sizes = sweep(draw, growth, doubling_sizes(), samples, 0.05);
    right += fit_complexity(sizes, request).best().growth == growth ? 1 : 0;
  }
  return static_cast<double>(right) / static_cast<double>(trials);
}

class EveryClass : public ::testing::TestWithParam<Growth> {};

TEST_P(EveryClass, IdentifiedAtFivePercentNoiseWithThirtySamplesPerSize) {
  // 200 seeded sweeps per class; the issue asks for at least 95% identified.
  const double share = identified(GetParam(), 30, 200, 37 + static_cast<int>(GetParam()));
  EXPECT_GE(share, 0.95) << "class " << static_cast<int>(GetParam());
}

TEST_P(EveryClass, IdentifiedAtFivePercentNoiseWithOneSamplePerSize) {
  // One time per size, as Google Benchmark's fit gets without repetitions: the weights are then
  // the relative errors alone.
  const double share = identified(GetParam(), 1, 200, 1037 + static_cast<int>(GetParam()));
  EXPECT_GE(share, 0.95) << "class " << static_cast<int>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Complexity, EveryClass,
                         ::testing::Values(Growth::constant, Growth::log_n, Growth::n,
                                           Growth::n_log_n, Growth::n_squared, Growth::n_cubed));

TEST(Complexity, RecoversTheCoefficientWithAnIntervalThatCoversIt) {
  Draw draw(5);
  std::size_t covered = 0;
  const std::size_t trials = 40;
  for (std::size_t t = 0; t < trials; ++t) {
    const auto sizes = sweep(draw, Growth::n_log_n, doubling_sizes(), 20, 0.05, 0.75);
    ComplexityRequest request;
    request.resamples = 300;
    request.seed = t;
    const ComplexityFit fit = fit_complexity(sizes, request);
    ASSERT_EQ(fit.selected().growth, Growth::n_log_n);
    EXPECT_TRUE(fit.bootstrapped);
    EXPECT_NEAR(fit.coefficient, 0.75, 0.75 * 0.03);
    EXPECT_LT(fit.lower, fit.coefficient);
    EXPECT_GT(fit.upper, fit.coefficient);
    covered += fit.lower <= 0.75 && 0.75 <= fit.upper ? 1 : 0;
  }
  // A 95% interval; 40 trials: at least 32 expected to cover even with some under-coverage of a
  // percentile bootstrap on medians of 20.
  EXPECT_GE(covered, 32u);
}

TEST(Complexity, NAndNLogNOverAShortRangeAreReportedAsIndistinguishable) {
  // Sizes 1000..1600: log₂ n changes by 7%, less than the noise of one sample (5%) can show.
  Draw draw(11);
  std::vector<double> sizes = {1000, 1100, 1200, 1300, 1400, 1500, 1600};
  const auto data = sweep(draw, Growth::n, sizes, 1, 0.05);
  ComplexityRequest request;
  const ComplexityFit fit = fit_complexity(data, request);
  const Growth best = fit.best().growth;
  const Growth other = best == Growth::n ? Growth::n_log_n : Growth::n;
  ASSERT_TRUE(best == Growth::n || best == Growth::n_log_n);
  EXPECT_NE(std::find(fit.indistinguishable.begin(), fit.indistinguishable.end(), other),
            fit.indistinguishable.end());
  EXPECT_FALSE(fit.bootstrapped);  // one sample per size: the regression's standard error
  EXPECT_LT(fit.lower, fit.coefficient);
}

TEST(Complexity, ANoisySizeDoesNotDecideTheFit) {
  // A linear sweep whose largest size is ten times noisier and reads 40% high: Google Benchmark's
  // unweighted fit follows that size (the largest dominates an absolute least squares); the
  // weighted fit keeps the shape the steady sizes show.
  Draw draw(3);
  auto data = sweep(draw, Growth::n, doubling_sizes(8, 4096), 30, 0.01);
  SizeSamples& last = data.back();
  for (double& value : last.values) value = 1.4 * 3.0 * last.n * (1.0 + 0.5 * draw.normal());
  for (double& value : last.values) value = std::max(value, 0.0);
  ComplexityRequest request;
  request.resamples = 0;
  EXPECT_EQ(fit_complexity(data, request).best().growth, Growth::n);
}

TEST(Complexity, FixedAndCustomGrowths) {
  Draw draw(8);
  auto data = sweep(draw, Growth::n_squared, doubling_sizes(8, 1024), 10, 0.02, 2.0);
  for (SizeSamples& size : data) size.custom_term = size.n * size.n / 2.0;  // = n²/2
  ComplexityRequest request;
  request.resamples = 200;
  request.fixed = Growth::custom;
  const ComplexityFit fit = fit_complexity(data, request);
  EXPECT_EQ(fit.selected().growth, Growth::custom);
  EXPECT_NEAR(fit.coefficient, 4.0, 0.1);  // 2 n² = 4 · (n²/2)
  // The custom candidate and n² are the same shape: indistinguishable.
  const Growth best = fit.best().growth;
  EXPECT_TRUE(best == Growth::custom || best == Growth::n_squared);

  request.fixed = Growth::n;
  const ComplexityFit forced = fit_complexity(data, request);
  EXPECT_EQ(forced.selected().growth, Growth::n);
  EXPECT_NE(forced.best().growth, Growth::n);  // the data say otherwise, and the fit keeps it
}

TEST(Complexity, GbenchFitFollowsItsDocumentedFormula) {
  // t = 2n exactly at n = 1, 2, 4: c = Σ t g / Σ g² = (2 + 8 + 32) / (1 + 4 + 16) = 2, RMS 0.
  const std::vector<double> terms = {1, 2, 4};
  const GbenchFit exact = gbench_fit(terms, std::vector<double>{2, 4, 8});
  EXPECT_DOUBLE_EQ(exact.coefficient, 2.0);
  EXPECT_DOUBLE_EQ(exact.rms, 0.0);
  // t = 3, 4, 8: c = (3 + 8 + 32) / 21 = 43/21; residuals 3 - c, 4 - 2c, 8 - 4c.
  const GbenchFit fit = gbench_fit(terms, std::vector<double>{3, 4, 8});
  const double c = 43.0 / 21.0;
  const double rms =
      std::sqrt((std::pow(3 - c, 2) + std::pow(4 - 2 * c, 2) + std::pow(8 - 4 * c, 2)) / 3.0) / 5.0;
  EXPECT_DOUBLE_EQ(fit.coefficient, c);
  EXPECT_DOUBLE_EQ(fit.rms, rms);
  const std::vector<double> sizes = {64, 128, 256, 512};
  EXPECT_EQ(gbench_choice(sizes, std::vector<double>{64, 128, 256, 512}), Growth::n);
  EXPECT_EQ(gbench_choice(sizes, std::vector<double>{5, 5, 5, 5}), Growth::constant);
}

TEST(Complexity, RefusesWhatItCannotFit) {
  ComplexityRequest request;
  std::vector<SizeSamples> one = {{64, {1.0, 2.0}, std::nullopt}};
  EXPECT_THROW(fit_complexity(one, request), std::invalid_argument);
  std::vector<SizeSamples> same = {{64, {1.0}, std::nullopt}, {64, {2.0}, std::nullopt}};
  EXPECT_THROW(fit_complexity(same, request), std::invalid_argument);
  std::vector<SizeSamples> empty = {{64, {}, std::nullopt}, {128, {2.0}, std::nullopt}};
  EXPECT_THROW(fit_complexity(empty, request), std::invalid_argument);
  std::vector<SizeSamples> zero = {{0, {1.0}, std::nullopt}, {128, {2.0}, std::nullopt}};
  EXPECT_THROW(fit_complexity(zero, request), std::invalid_argument);
  std::vector<SizeSamples> plain = {{64, {1.0}, std::nullopt}, {128, {2.0}, std::nullopt}};
  request.fixed = Growth::custom;
  EXPECT_THROW(fit_complexity(plain, request), std::invalid_argument);
}

}  // namespace
}  // namespace benchkit::stats
