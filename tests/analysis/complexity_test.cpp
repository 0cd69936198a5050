#include "analysis/complexity.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "formats/gbench_json.hpp"
#include "stats/complexity.hpp"
#include "stats/random.hpp"

namespace benchkit::analysis {
namespace {

using ::testing::HasSubstr;

// A benchmark of size n of `family` with `count` samples of 1000 iterations whose time per
// iteration is `per_iteration` × (1 ± 2%).
BenchmarkResult sized(const std::string& family, double n, double per_iteration, std::size_t count,
                      stats::Xoshiro256& random) {
  BenchmarkResult b;
  b.name = fmt::format("{}/size={}", family, n);
  b.complexity = ComplexityPoint{family, "size", n, "auto", std::nullopt};
  for (std::size_t i = 0; i < count; ++i) {
    const double noise = 1.0 + 0.04 * (random.uniform() - 0.5);
    b.samples.push_back(Sample{1000, 1000 * per_iteration * noise, {}, 0, {}, {}, {}, {}});
  }
  return b;
}

TEST(FitComplexity, FitsEachSweepOfTheRun) {
  stats::Xoshiro256 random(1);
  RunResult run;
  for (double n = 16; n <= 16384; n *= 4)
    run.benchmarks.push_back(sized("sum", n, 0.5 * n, 10, random));
  for (double n = 16; n <= 1024; n *= 2) {
    run.benchmarks.push_back(sized("pairs", n, 0.25 * n * n, 10, random));
  }
  fit_complexity(run);
  ASSERT_EQ(run.complexity.size(), 2u);
  const ComplexityResult& sum = run.complexity[0];
  EXPECT_EQ(sum.family, "sum");
  EXPECT_EQ(sum.param, "size");
  EXPECT_EQ(sum.big_o, "N");
  EXPECT_EQ(sum.best, "N");
  EXPECT_EQ(sum.sizes, 6u);
  EXPECT_EQ(sum.interval_method, "bootstrap");
  EXPECT_LT(sum.coefficient.lower, 0.5);
  EXPECT_GT(sum.coefficient.upper, 0.5);
  EXPECT_EQ(sum.candidates.size(), 6u);
  EXPECT_EQ(run.complexity[1].big_o, "N^2");
  EXPECT_NEAR(fitted_value(run.complexity[1], 100, std::nullopt),
              run.complexity[1].coefficient.value * 1e4, 1e-9);

  fit_complexity(run);  // refitting replaces, it does not add
  EXPECT_EQ(run.complexity.size(), 2u);
}

TEST(FitComplexity, ARequestedClassIsReportedWithTheBestBesideIt) {
  stats::Xoshiro256 random(2);
  RunResult run;
  for (double n = 16; n <= 16384; n *= 4) {
    BenchmarkResult b = sized("sum", n, 0.5 * n, 6, random);
    b.complexity->fit = "N^2";
    run.benchmarks.push_back(std::move(b));
  }
  fit_complexity(run);
  ASSERT_EQ(run.complexity.size(), 1u);
  EXPECT_EQ(run.complexity[0].requested, "N^2");
  EXPECT_EQ(run.complexity[0].big_o, "N^2");
  EXPECT_EQ(run.complexity[0].best, "N");
}

TEST(FitComplexity, ASweepOfOneSizeGetsNoFitAndSaysWhy) {
  stats::Xoshiro256 random(3);
  RunResult run;
  run.benchmarks.push_back(sized("sum", 64, 32, 5, random));
  fit_complexity(run);
  EXPECT_TRUE(run.complexity.empty());
  ASSERT_EQ(run.benchmarks[0].diagnostics.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].diagnostics[0].code, "complexity_not_fitted");
  EXPECT_THAT(run.benchmarks[0].diagnostics[0].message, HasSubstr("at least 2 are needed"));
}

TEST(FitComplexity, NamesRoundTrip) {
  for (stats::Growth growth : stats::kBuiltInGrowths) {
    EXPECT_EQ(growth_named(big_o_name(growth)), growth);
  }
  EXPECT_EQ(growth_named("f(N)"), stats::Growth::custom);
  EXPECT_FALSE(growth_named("N^4"));
  EXPECT_EQ(big_o_words("NlgN"), "O(n log n)");
}

// ---- Agreement with Google Benchmark's own fits ---------------------------------------------
//
// tests/fixtures/interop/gbench_complexity.json is real Google Benchmark 1.7.1 output
// (regenerate_complexity.sh): five workloads of known class and one fitted against a user's
// function, 3 repetitions of each size, and Google Benchmark's BigO and RMS rows. Google
// Benchmark chooses the class on CPU time over every repetition; the same points are used here.

struct GbenchRows {
  std::map<std::string, std::vector<std::pair<double, double>>> points;  // family: (n, cpu ns)
  std::map<std::string, nlohmann::json> big_o;
  std::map<std::string, double> rms;
};

GbenchRows gbench_rows() {
  std::ifstream in(std::string(BENCHKIT_TEST_FIXTURES) + "/interop/gbench_complexity.json");
  const nlohmann::json root = nlohmann::json::parse(in);
  GbenchRows rows;
  for (const nlohmann::json& row : root.at("benchmarks")) {
    const std::string name = row.at("name");
    const std::string run_type = row.at("run_type");
    if (run_type == "iteration") {
      const auto slash = name.find('/');
      rows.points[name.substr(0, slash)].emplace_back(std::stod(name.substr(slash + 1)),
                                                      row.at("cpu_time").get<double>());
    } else if (row.value("aggregate_name", "") == "BigO") {
      rows.big_o[row.at("run_name")] = row;
    } else if (row.value("aggregate_name", "") == "RMS") {
      rows.rms[row.at("run_name")] = row.at("rms");
    }
  }
  return rows;
}

TEST(GbenchAgreement, GoogleBenchmarksFitIsReproducedFromItsDocumentedAlgorithm) {
  const GbenchRows rows = gbench_rows();
  ASSERT_EQ(rows.big_o.size(), 6u);
  for (const auto& [family, big_o] : rows.big_o) {
    const std::string name = big_o.at("big_o");
    std::vector<double> sizes, times, terms;
    for (const auto& [n, cpu] : rows.points.at(family)) {
      sizes.push_back(n);
      times.push_back(cpu);
      // The user's function of BM_sum_lambda is n.
      terms.push_back(name == "f(N)" ? n : stats::growth_term(*growth_named(name), n));
    }
    if (name != "f(N)") {
      EXPECT_EQ(big_o_name(stats::gbench_choice(sizes, times)), name) << family;
    }
    const stats::GbenchFit fit = stats::gbench_fit(terms, times);
    EXPECT_NEAR(fit.coefficient, big_o.at("cpu_coefficient").get<double>(), 1e-9 * fit.coefficient)
        << family;
    EXPECT_NEAR(fit.rms, rows.rms.at(family), 1e-9) << family;
  }
}

TEST(GbenchAgreement, BenchkitsChoiceOnTheSameSamplesIsGoogleBenchmarks) {
  const GbenchRows rows = gbench_rows();
  for (const auto& [family, big_o] : rows.big_o) {
    std::map<double, std::vector<double>> by_size;
    for (const auto& [n, cpu] : rows.points.at(family)) by_size[n].push_back(cpu);
    std::vector<stats::SizeSamples> sizes;
    for (const auto& [n, values] : by_size) sizes.push_back({n, values, n});
    stats::ComplexityRequest request;
    const std::string name = big_o.at("big_o");
    if (name == "f(N)") request.fixed = stats::Growth::custom;
    const stats::ComplexityFit fit = stats::fit_complexity(sizes, request);
    if (name == "f(N)") {
      EXPECT_EQ(fit.selected().growth, stats::Growth::custom);
    } else {
      // The custom candidate (n) is the O(n) class under another name: either is the same fit.
      const std::string best = big_o_name(fit.best().growth);
      EXPECT_TRUE(best == name || (name == "N" && best == "f(N)")) << family << ": " << best;
    }
    // Weighted on medians against unweighted on every repetition: the coefficients agree to
    // within the spread of the repetitions.
    EXPECT_NEAR(fit.coefficient, big_o.at("cpu_coefficient").get<double>(),
                0.15 * big_o.at("cpu_coefficient").get<double>())
        << family;
  }
}

TEST(GbenchAgreement, AnImportedFileKeepsGoogleBenchmarksFitsAndGetsBenchkitsBesideThem) {
  std::ifstream in(std::string(BENCHKIT_TEST_FIXTURES) + "/interop/gbench_complexity.json");
  std::stringstream text;
  text << in.rdbuf();
  auto run = formats::from_gbench_json(text.str(), "gbench_complexity.json");
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->complexity.size(), 6u);
  for (const ComplexityResult& fit : run->complexity) EXPECT_EQ(fit.source, "Google Benchmark");
  EXPECT_EQ(run->complexity[2].family, "BM_sum");
  EXPECT_EQ(run->complexity[2].big_o, "N");
  ASSERT_TRUE(run->benchmarks[0].complexity);
  EXPECT_EQ(run->benchmarks[0].complexity->family, "BM_constant");
  EXPECT_DOUBLE_EQ(run->benchmarks[0].complexity->n, 16.0);
  fit_complexity(*run);
  EXPECT_EQ(run->complexity.size(), 12u);  // Google Benchmark's six, and benchkit's six
}

}  // namespace
}  // namespace benchkit::analysis
