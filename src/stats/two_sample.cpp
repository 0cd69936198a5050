#include "stats/two_sample.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/distributions.hpp"
#include "stats/pairwise.hpp"
#include "stats/ranks.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// R's wilcox.test and our automatic choice: exact below 50 values a side.
constexpr std::size_t exact_size_limit = 50;
// Work budget of an explicitly requested exact distribution, (m·n)² cells
// (about 0.1 s); beyond it the normal approximation is accurate to well under 10⁻³ anyway.
constexpr double max_exact_cells = 4e7;

void check_confidence(double confidence, const char* what) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument(std::string(what) + ": confidence must lie in (0, 1), got " +
                                std::to_string(confidence));
  }
}

double t_upper_tail(double t, double degrees_of_freedom) {
  return boost::math::cdf(boost::math::complement(boost::math::students_t(degrees_of_freedom), t));
}

// The exact null distribution for sizes (m, n), remembered for the last pair of sizes asked on
// this thread: a suite compares many benchmarks with the same sample counts.
const std::vector<double>& cached_null_distribution(std::size_t m, std::size_t n) {
  thread_local std::size_t cached_m = 0;
  thread_local std::size_t cached_n = 0;
  thread_local std::vector<double> cached;
  if (cached.empty() || cached_m != m || cached_n != n) {
    cached = mann_whitney_null_distribution(m, n);
    cached_m = m;
    cached_n = n;
  }
  return cached;
}

bool use_exact(TestMethod method, std::size_t m, std::size_t n, bool ties) {
  if (ties) return false;
  switch (method) {
    case TestMethod::asymptotic:
      return false;
    case TestMethod::exact:
      return true;
    case TestMethod::automatic:
      return m < exact_size_limit && n < exact_size_limit;
  }
  return false;
}

// The 1-based rank k of the Hodges–Lehmann interval and its coverage.
struct ShiftRank {
  std::size_t k = 1;
  double coverage = 0.0;
};

ShiftRank shift_rank(std::size_t m, std::size_t n, double confidence) {
  const double tail = (1.0 - confidence) / 2.0;
  const std::size_t pairs = m * n;
  ShiftRank rank;
  if (m < exact_size_limit && n < exact_size_limit) {
    const auto& distribution = cached_null_distribution(m, n);
    // k = 1 ([min D, max D]) is the fallback whatever its coverage; a larger k is admissible
    // while P(U <= k - 1) <= tail.
    double cumulative = 0.0;  // P(U <= u)
    double accepted = distribution[0];
    rank.k = 1;
    for (std::size_t u = 0; u < pairs; ++u) {
      cumulative += distribution[u];
      if (cumulative > tail) break;
      rank.k = u + 1;
      accepted = cumulative;
    }
    rank.coverage = std::max(0.0, 1.0 - 2.0 * accepted);
    return rank;
  }
  const auto pairs_real = static_cast<double>(pairs);
  const double sigma =
      std::sqrt(pairs_real * static_cast<double>(m + n + 1) / 12.0);  // σ_U without ties
  const double z = normal_quantile(1.0 - tail);
  const double k = std::floor(pairs_real / 2.0 + 0.5 - z * sigma);
  rank.k = k < 1.0 ? 1 : static_cast<std::size_t>(k);
  const double lower_tail =
      1.0 - normal_upper_tail((static_cast<double>(rank.k) - 0.5 - pairs_real / 2.0) / sigma);
  rank.coverage = std::max(0.0, 1.0 - 2.0 * lower_tail);
  return rank;
}

}  // namespace

RatioEstimate ratio_of_medians(std::span<const double> baseline, std::span<const double> candidate,
                               double confidence) {
  require_finite(baseline, "ratio_of_medians (baseline)");
  require_finite(candidate, "ratio_of_medians (candidate)");
  check_confidence(confidence, "ratio_of_medians");
  auto log_sorted = [](std::span<const double> values) {
    std::vector<double> logs(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!(values[i] > 0.0)) {
        throw std::invalid_argument(
            "ratio_of_medians: values must be positive (durations); value at index " +
            std::to_string(i) + " is " + std::to_string(values[i]));
      }
      logs[i] = std::log(values[i]);
    }
    std::sort(logs.begin(), logs.end());
    return logs;
  };
  const auto base_logs = log_sorted(baseline);
  const auto candidate_logs = log_sorted(candidate);
  RatioEstimate result;
  result.ratio = median(candidate) / median(baseline);
  result.interval = Interval{result.ratio, result.ratio, 0.0};
  if (baseline.size() < 2 || candidate.size() < 2) return result;
  // Variance of a log median from the width of its order-statistic interval, whose exact
  // coverage γ says how many standard errors that width spans.
  auto median_variance = [&](const std::vector<double>& logs) {
    const std::size_t n = logs.size();
    const OrderStatisticRank rank = median_ci_rank(n, confidence);
    const double z = normal_quantile((1.0 + rank.coverage) / 2.0);
    const double se = (logs[n - rank.k] - logs[rank.k - 1]) / (2.0 * z);
    return se * se;
  };
  const double spread = std::sqrt(median_variance(base_logs) + median_variance(candidate_logs));
  const double half_width = normal_quantile((1.0 + confidence) / 2.0) * spread;
  const double log_ratio = std::log(result.ratio);
  result.interval =
      Interval{std::exp(log_ratio - half_width), std::exp(log_ratio + half_width), confidence};
  return result;
}

ShiftEstimate hodges_lehmann_shift(std::span<const double> baseline,
                                   std::span<const double> candidate, double confidence) {
  require_finite(baseline, "hodges_lehmann_shift (baseline)");
  require_finite(candidate, "hodges_lehmann_shift (candidate)");
  check_confidence(confidence, "hodges_lehmann_shift");
  const auto x = sorted_copy(baseline);
  const auto y = sorted_copy(candidate);
  const std::size_t pairs = x.size() * y.size();
  ShiftEstimate result;
  // Median of the differences: the middle one, or the mean of the two middle ones.
  const double lower_middle = kth_pairwise_difference(x, y, (pairs + 1) / 2);
  const double upper_middle =
      pairs % 2 == 1 ? lower_middle : kth_pairwise_difference(x, y, pairs / 2 + 1);
  result.shift = lower_middle + (upper_middle - lower_middle) / 2.0;
  const ShiftRank rank = shift_rank(x.size(), y.size(), confidence);
  result.interval = Interval{kth_pairwise_difference(x, y, rank.k),
                             kth_pairwise_difference(x, y, pairs - rank.k + 1), rank.coverage};
  return result;
}

MannWhitneyResult mann_whitney(std::span<const double> baseline, std::span<const double> candidate,
                               TestMethod method) {
  require_finite(baseline, "mann_whitney (baseline)");
  require_finite(candidate, "mann_whitney (candidate)");
  const std::size_t m = baseline.size();
  const std::size_t n = candidate.size();
  std::vector<double> pooled(baseline.begin(), baseline.end());
  pooled.insert(pooled.end(), candidate.begin(), candidate.end());
  const Ranking ranking = rank_with_ties(pooled);
  double candidate_rank_sum = 0.0;
  for (std::size_t j = 0; j < n; ++j) candidate_rank_sum += ranking.ranks[m + j];
  const auto count_m = static_cast<double>(m);
  const auto count_n = static_cast<double>(n);
  MannWhitneyResult result;
  result.u = candidate_rank_sum - count_n * (count_n + 1.0) / 2.0;
  result.probability_of_superiority = result.u / (count_m * count_n);
  result.exact = use_exact(method, m, n, ranking.has_ties());
  if (result.exact) {
    const double cells = static_cast<double>(std::min(m, n)) * count_m * count_n *
                         static_cast<double>(std::max(m, n));
    if (cells > max_exact_cells) {
      throw std::invalid_argument("mann_whitney: the exact distribution for " + std::to_string(m) +
                                  " and " + std::to_string(n) +
                                  " values is too costly; use TestMethod::asymptotic");
    }
    const auto& distribution = cached_null_distribution(m, n);
    result.p_value = two_sided_discrete_p_value(distribution, result.u);
    return result;
  }
  const double total = count_m + count_n;
  const double variance =
      count_m * count_n / 12.0 * ((total + 1.0) - ranking.tie_term / (total * (total - 1.0)));
  if (!(variance > 0.0)) return result;  // every value tied: no evidence either way
  const double distance = std::fabs(result.u - count_m * count_n / 2.0);
  result.z = std::max(0.0, distance - 0.5) / std::sqrt(variance);
  if (result.u < count_m * count_n / 2.0) result.z = -result.z;
  result.p_value = std::min(1.0, 2.0 * normal_upper_tail(std::fabs(result.z)));
  return result;
}

WelchResult welch_t_test(std::span<const double> baseline, std::span<const double> candidate,
                         double confidence) {
  require_finite(baseline, "welch_t_test (baseline)", 2);
  require_finite(candidate, "welch_t_test (candidate)", 2);
  check_confidence(confidence, "welch_t_test");
  const auto m = static_cast<double>(baseline.size());
  const auto n = static_cast<double>(candidate.size());
  const double base_share = variance(baseline) / m;
  const double candidate_share = variance(candidate) / n;
  WelchResult result;
  result.difference = mean(candidate) - mean(baseline);
  const double squared_error = base_share + candidate_share;
  if (squared_error == 0.0) {
    result.degrees_of_freedom = m + n - 2.0;
    result.interval = Interval{result.difference, result.difference, confidence};
    if (result.difference != 0.0) {
      result.t = std::copysign(std::numeric_limits<double>::infinity(), result.difference);
      result.p_value = 0.0;
    }
    return result;
  }
  const double standard_error = std::sqrt(squared_error);
  result.degrees_of_freedom =
      squared_error * squared_error /
      (base_share * base_share / (m - 1.0) + candidate_share * candidate_share / (n - 1.0));
  result.t = result.difference / standard_error;
  result.p_value =
      std::min(1.0, 2.0 * t_upper_tail(std::fabs(result.t), result.degrees_of_freedom));
  const double critical = boost::math::quantile(boost::math::students_t(result.degrees_of_freedom),
                                                (1.0 + confidence) / 2.0);
  result.interval = Interval{result.difference - critical * standard_error,
                             result.difference + critical * standard_error, confidence};
  return result;
}

BrunnerMunzelResult brunner_munzel(std::span<const double> baseline,
                                   std::span<const double> candidate) {
  require_finite(baseline, "brunner_munzel (baseline)", 2);
  require_finite(candidate, "brunner_munzel (candidate)", 2);
  const std::size_t m = baseline.size();
  const std::size_t n = candidate.size();
  std::vector<double> pooled(baseline.begin(), baseline.end());
  pooled.insert(pooled.end(), candidate.begin(), candidate.end());
  const Ranking pooled_ranks = rank_with_ties(pooled);
  const Ranking base_ranks = rank_with_ties(baseline);
  const Ranking candidate_ranks = rank_with_ties(candidate);
  const auto count_m = static_cast<double>(m);
  const auto count_n = static_cast<double>(n);
  double base_mean = 0.0;
  double candidate_mean = 0.0;
  for (std::size_t i = 0; i < m; ++i) base_mean += pooled_ranks.ranks[i];
  for (std::size_t j = 0; j < n; ++j) candidate_mean += pooled_ranks.ranks[m + j];
  base_mean /= count_m;
  candidate_mean /= count_n;
  // Placements: pooled rank minus within-sample rank = how many of the other sample lie below
  // (ties half). Their sample variances estimate the variance of p̂.
  auto placement_variance = [](std::span<const double> pooled_part, const Ranking& own,
                               double pooled_mean, double count) {
    const double own_mean = (count + 1.0) / 2.0;
    double sum = 0.0;
    for (std::size_t i = 0; i < pooled_part.size(); ++i) {
      const double deviation = pooled_part[i] - own.ranks[i] - pooled_mean + own_mean;
      sum += deviation * deviation;
    }
    return sum / (count - 1.0);
  };
  const std::span<const double> all_ranks(pooled_ranks.ranks);
  const double base_variance =
      placement_variance(all_ranks.subspan(0, m), base_ranks, base_mean, count_m);
  const double candidate_variance =
      placement_variance(all_ranks.subspan(m, n), candidate_ranks, candidate_mean, count_n);
  BrunnerMunzelResult result;
  result.probability_of_superiority = (candidate_mean - (count_n + 1.0) / 2.0) / count_m;
  const double weighted = count_m * base_variance + count_n * candidate_variance;
  const double gap = candidate_mean - base_mean;
  if (weighted == 0.0) {
    if (gap == 0.0) return result;  // every value tied
    result.statistic = std::copysign(std::numeric_limits<double>::infinity(), gap);
    result.degrees_of_freedom = 0.0;
    // 2 / C(m + n, m): the two-sided p of complete separation under any permutation test.
    const double log_choose = std::lgamma(count_m + count_n + 1.0) - std::lgamma(count_m + 1.0) -
                              std::lgamma(count_n + 1.0);
    result.p_value = std::min(1.0, std::exp(std::log(2.0) - log_choose));
    return result;
  }
  result.statistic = count_m * count_n * gap / ((count_m + count_n) * std::sqrt(weighted));
  const double base_term = count_m * base_variance;
  const double candidate_term = count_n * candidate_variance;
  result.degrees_of_freedom =
      weighted * weighted /
      (base_term * base_term / (count_m - 1.0) + candidate_term * candidate_term / (count_n - 1.0));
  result.p_value =
      std::min(1.0, 2.0 * t_upper_tail(std::fabs(result.statistic), result.degrees_of_freedom));
  return result;
}

}  // namespace benchkit::stats
