// Checks against reference values computed by SciPy/NumPy (tests/fixtures/stats/make_fixtures.py;
// the script is run by hand, its output committed). Tolerances: 1e-9 relative for closed forms
// (only summation order differs), 1e-6 for p-values (distribution functions of two libraries).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/intervals.hpp"
#include "stats/modes.hpp"
#include "stats/multiple.hpp"
#include "stats/paired.hpp"
#include "stats/power.hpp"
#include "stats/summary.hpp"
#include "stats/trend.hpp"
#include "stats/two_sample.hpp"

namespace benchkit::stats {
namespace {

using nlohmann::json;

json load(const std::string& name) {
  const std::string path = std::string(BENCHKIT_TEST_FIXTURES) + "/stats/" + name;
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open fixture " + path);
  return json::parse(file);
}

const json& inputs() {
  static const json data = load("inputs.json");
  return data;
}
const json& reference() {
  static const json data = load("reference.json");
  return data;
}

void expect_relative(double actual, double expected, double tolerance, const std::string& what) {
  EXPECT_NEAR(actual, expected, tolerance * std::max(1.0, std::fabs(expected))) << what;
}

class Reference : public ::testing::TestWithParam<std::string> {
 protected:
  std::vector<double> x() const { return inputs()[GetParam()]["x"].get<std::vector<double>>(); }
  std::vector<double> y() const { return inputs()[GetParam()]["y"].get<std::vector<double>>(); }
  const json& expected() const { return reference()["sets"][GetParam()]; }
};

TEST_P(Reference, OneSampleSummaries) {
  for (const char* side : {"x", "y"}) {
    const auto values = std::string(side) == "x" ? x() : y();
    const json& ref = expected()[side];
    const std::string where = GetParam() + "." + side;
    expect_relative(mean(values), ref["mean"], 1e-12, where + " mean");
    expect_relative(variance(values), ref["variance"], 1e-9, where + " variance");
    const auto ps = ref["quantile_p"].get<std::vector<double>>();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      expect_relative(quantile(values, ps[i]), ref["quantile"][i], 1e-12, where + " quantile");
    }
    expect_relative(mad(values), ref["mad"], 1e-12, where + " mad");
    expect_relative(iqr(values), ref["iqr"], 1e-12, where + " iqr");
    expect_relative(mdape(values), ref["mdape"], 1e-12, where + " mdape");
    const Interval ci = median_ci(values);
    EXPECT_EQ(ci.lower, ref["median_ci"][0].get<double>()) << where;
    EXPECT_EQ(ci.upper, ref["median_ci"][1].get<double>()) << where;
    EXPECT_NEAR(ci.confidence, ref["median_ci"][2].get<double>(), 1e-9) << where;
    const TukeyCounts tukey = tukey_outliers(values);
    EXPECT_EQ(tukey.low_severe, ref["tukey"][0].get<std::size_t>()) << where;
    EXPECT_EQ(tukey.low_mild, ref["tukey"][1].get<std::size_t>()) << where;
    EXPECT_EQ(tukey.high_mild, ref["tukey"][2].get<std::size_t>()) << where;
    EXPECT_EQ(tukey.high_severe, ref["tukey"][3].get<std::size_t>()) << where;
    expect_relative(outlier_variance(values), ref["outlier_variance"], 1e-9, where + " outvar");
  }
}

TEST_P(Reference, TrendAndShape) {
  for (const char* side : {"x", "y"}) {
    const auto values = std::string(side) == "x" ? x() : y();
    const json& ref = expected()[side];
    const std::string where = GetParam() + "." + side;
    std::vector<double> index(values.size());
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<double>(i);
    const CorrelationResult rho = spearman(index, values);
    expect_relative(rho.coefficient, ref["spearman"][0], 1e-9, where + " spearman rho");
    expect_relative(rho.p_value, ref["spearman"][1], 1e-6, where + " spearman p");
    const TrendResult trend = mann_kendall(values);
    expect_relative(trend.tau, ref["kendall_tau"], 1e-9, where + " kendall tau");
    expect_relative(trend.s, ref["mann_kendall"][0], 1e-12, where + " MK S");
    expect_relative(trend.p_value, ref["mann_kendall"][1], 1e-6, where + " MK p");
    expect_relative(sen_slope(values), ref["sen_slope"], 1e-9, where + " Sen slope");
    // The bimodality coefficient from SciPy's bias-corrected skewness and kurtosis.
    const double g = ref["skewness"];
    const double k = ref["excess_kurtosis"];
    const auto n = static_cast<double>(values.size());
    const double expected_bc = (g * g + 1.0) / (k + 3.0 * (n - 1) * (n - 1) / ((n - 2) * (n - 3)));
    expect_relative(bimodality_coefficient(values), expected_bc, 1e-9, where + " bimodality");
  }
}

TEST_P(Reference, TwoSampleTests) {
  const auto baseline = x();
  const auto candidate = y();
  const json& ref = expected()["two_sample"];
  const std::string where = GetParam();
  const MannWhitneyResult mw = mann_whitney(baseline, candidate);
  EXPECT_EQ(mw.exact, ref["mann_whitney"][2].get<bool>()) << where;
  expect_relative(mw.u, ref["mann_whitney"][0], 1e-12, where + " U");
  expect_relative(mw.p_value, ref["mann_whitney"][1], 1e-6, where + " MW p");
  const WelchResult welch = welch_t_test(baseline, candidate);
  expect_relative(welch.t, ref["welch"][0], 1e-9, where + " Welch t");
  expect_relative(welch.degrees_of_freedom, ref["welch"][1], 1e-9, where + " Welch df");
  expect_relative(welch.p_value, ref["welch"][2], 1e-6, where + " Welch p");
  const BrunnerMunzelResult bm = brunner_munzel(baseline, candidate);
  expect_relative(bm.statistic, ref["brunner_munzel"][0], 1e-9, where + " BM W");
  expect_relative(bm.p_value, ref["brunner_munzel"][1], 1e-6, where + " BM p");
  const ShiftEstimate hl = hodges_lehmann_shift(baseline, candidate);
  expect_relative(hl.shift, ref["hl_shift"], 1e-12, where + " HL shift");
  EXPECT_EQ(hl.interval.lower, ref["hl_interval"][0].get<double>()) << where;
  EXPECT_EQ(hl.interval.upper, ref["hl_interval"][1].get<double>()) << where;
  EXPECT_NEAR(hl.interval.confidence, ref["hl_interval"][2].get<double>(), 1e-9) << where;
  EXPECT_GE(hl.interval.confidence, 0.95) << where;
  expect_relative(ratio_of_medians(baseline, candidate).ratio, ref["ratio_of_medians"], 1e-12,
                  where + " ratio");
}

TEST_P(Reference, PairedTests) {
  if (!expected().contains("paired")) GTEST_SKIP() << "sizes differ: not a paired set";
  const json& ref = expected()["paired"];
  const std::string where = GetParam();
  const auto ratios = log_ratios(x(), y());
  const WilcoxonResult w = wilcoxon_signed_rank(ratios);
  EXPECT_EQ(w.exact, ref["wilcoxon"][2].get<bool>()) << where;
  const double total = static_cast<double>(w.nonzero * (w.nonzero + 1) / 2);
  expect_relative(std::min(w.statistic, total - w.statistic), ref["wilcoxon"][0], 1e-12,
                  where + " W");
  expect_relative(w.p_value, ref["wilcoxon"][1], 1e-6, where + " Wilcoxon p");
  expect_relative(sign_test(ratios).p_value, ref["sign_test"], 1e-9, where + " sign p");
  const PairedComparison paired = paired_ratio(x(), y());
  expect_relative(std::log(paired.ratio), ref["median_log_ratio"], 1e-12, where + " median");
  expect_relative(std::log(paired.pseudo_median_ratio), ref["pseudo_median"], 1e-12,
                  where + " pseudo-median");
}

TEST_P(Reference, BootstrapMeanAgreesWithScipyWithinMonteCarloError) {
  // Different generators, so only agreement within resampling noise can be asked: each BCa bound
  // within 10% of the interval's width of SciPy's (10,000 resamples each).
  const auto values = x();
  BootstrapOptions options;
  options.method = BootstrapMethod::bca;
  const BootstrapResult ours = bootstrap_mean(values, options);
  const double low = expected()["bootstrap_mean_bca_x"][0];
  const double high = expected()["bootstrap_mean_bca_x"][1];
  EXPECT_NEAR(ours.interval.lower, low, 0.1 * (high - low)) << GetParam();
  EXPECT_NEAR(ours.interval.upper, high, 0.1 * (high - low)) << GetParam();
}

std::vector<std::string> set_names() {
  std::vector<std::string> names;
  for (const auto& [name, value] : inputs().items()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Reference, ::testing::ValuesIn(set_names()),
                         [](const auto& info) { return info.param; });

TEST(ReferenceAdjust, HolmAndBenjaminiHochberg) {
  const json& ref = reference()["adjust"];
  const auto p = ref["p"].get<std::vector<double>>();
  const auto holm = holm_adjusted(p);
  const auto bh = benjamini_hochberg_adjusted(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_NEAR(holm[i], ref["holm"][i].get<double>(), 1e-15);
    EXPECT_NEAR(bh[i], ref["benjamini_hochberg"][i].get<double>(), 1e-15);
  }
}

TEST(ReferenceDetectableChange, MatchesNoncentralTInversion) {
  for (const auto& row : reference()["detectable_change"]) {
    const DetectableChange change = minimum_detectable_change(
        row[0].get<double>(), row[1].get<std::size_t>(), row[2].get<double>(),
        row[3].get<std::size_t>(), row[4].get<double>(), row[5].get<double>());
    EXPECT_NEAR(change.log_change, row[6].get<double>(), 1e-6 * row[6].get<double>());
  }
}

TEST(ReferenceLinearFit, MatchesLinregress) {
  const json& ref = reference()["linear_fit"];
  const auto fit =
      least_squares(ref["x"].get<std::vector<double>>(), ref["y"].get<std::vector<double>>());
  expect_relative(fit.slope, ref["slope"], 1e-12, "slope");
  expect_relative(fit.intercept, ref["intercept"], 1e-12, "intercept");
  expect_relative(fit.slope_standard_error, ref["slope_stderr"], 1e-9, "stderr");
  expect_relative(fit.r_squared, ref["r_squared"], 1e-12, "r2");
}

}  // namespace
}  // namespace benchkit::stats
