#include "stats/paired.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/distributions.hpp"
#include "stats/pairwise.hpp"
#include "stats/ranks.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// Same cut-off as the Mann–Whitney test (R's wilcox.test).
constexpr std::size_t exact_signed_rank_limit = 50;

}  // namespace

std::vector<double> log_ratios(std::span<const double> baseline,
                               std::span<const double> candidate) {
  require_finite(baseline, "log_ratios (baseline)", 0);
  require_finite(candidate, "log_ratios (candidate)", 0);
  if (baseline.size() != candidate.size()) {
    throw std::invalid_argument("log_ratios: paired rounds need equal counts, got " +
                                std::to_string(baseline.size()) + " baseline and " +
                                std::to_string(candidate.size()) + " candidate values");
  }
  std::vector<double> ratios(baseline.size());
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    if (!(baseline[i] > 0.0 && candidate[i] > 0.0)) {
      throw std::invalid_argument("log_ratios: values must be positive (durations); round " +
                                  std::to_string(i) + " is not");
    }
    ratios[i] = std::log(candidate[i] / baseline[i]);
  }
  return ratios;
}

SignTestResult sign_test(std::span<const double> differences) {
  require_finite(differences, "sign_test", 0);
  SignTestResult result;
  for (double d : differences) {
    if (d > 0.0) {
      ++result.positive;
    } else if (d < 0.0) {
      ++result.negative;
    } else {
      ++result.zero;
    }
  }
  const std::size_t trials = result.positive + result.negative;
  if (trials == 0) return result;
  const boost::math::binomial distribution(static_cast<double>(trials), 0.5);
  const auto fewer = static_cast<double>(std::min(result.positive, result.negative));
  result.p_value = std::min(1.0, 2.0 * boost::math::cdf(distribution, fewer));
  return result;
}

WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences, TestMethod method) {
  require_finite(differences, "wilcoxon_signed_rank", 0);
  std::vector<double> magnitudes;
  std::vector<bool> positive;
  for (double d : differences) {
    if (d == 0.0) continue;
    magnitudes.push_back(std::fabs(d));
    positive.push_back(d > 0.0);
  }
  WilcoxonResult result;
  const std::size_t n = magnitudes.size();
  result.nonzero = n;
  if (n == 0) return result;
  const Ranking ranking = rank_with_ties(magnitudes);
  for (std::size_t i = 0; i < n; ++i) {
    if (positive[i]) result.statistic += ranking.ranks[i];
  }
  const bool ties = ranking.has_ties();
  result.exact = !ties && (method == TestMethod::exact ||
                           (method == TestMethod::automatic && n < exact_signed_rank_limit));
  if (result.exact) {
    result.p_value = two_sided_discrete_p_value(signed_rank_null_distribution(n), result.statistic);
    return result;
  }
  const auto count = static_cast<double>(n);
  const double centre = count * (count + 1.0) / 4.0;
  const double variance =
      count * (count + 1.0) * (2.0 * count + 1.0) / 24.0 - ranking.tie_term / 48.0;
  if (!(variance > 0.0)) return result;
  const double distance = std::max(0.0, std::fabs(result.statistic - centre) - 0.5);
  result.z = std::copysign(distance / std::sqrt(variance), result.statistic - centre);
  result.p_value = std::min(1.0, 2.0 * normal_upper_tail(std::fabs(result.z)));
  return result;
}

ShiftEstimate hodges_lehmann_center(std::span<const double> differences, double confidence) {
  require_finite(differences, "hodges_lehmann_center");
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument("hodges_lehmann_center: confidence must lie in (0, 1), got " +
                                std::to_string(confidence));
  }
  const auto sorted = sorted_copy(differences);
  const std::size_t n = sorted.size();
  const std::size_t averages = n * (n + 1) / 2;
  ShiftEstimate result;
  const double lower_middle = kth_walsh_average(sorted, (averages + 1) / 2);
  const double upper_middle =
      averages % 2 == 1 ? lower_middle : kth_walsh_average(sorted, averages / 2 + 1);
  result.shift = lower_middle + (upper_middle - lower_middle) / 2.0;
  // P(centre < A_(k)) = P(W+ <= k - 1) under the null: the largest k with that <= (1 - c)/2.
  const double tail = (1.0 - confidence) / 2.0;
  std::size_t k = 1;
  double accepted = 0.0;
  if (n < exact_signed_rank_limit) {
    const auto distribution = signed_rank_null_distribution(n);
    double cumulative = 0.0;
    accepted = distribution[0];
    for (std::size_t w = 0; w < averages; ++w) {
      cumulative += distribution[w];
      if (cumulative > tail) break;
      k = w + 1;
      accepted = cumulative;
    }
  } else {
    const auto count = static_cast<double>(n);
    const double centre = count * (count + 1.0) / 4.0;
    const double sigma = std::sqrt(count * (count + 1.0) * (2.0 * count + 1.0) / 24.0);
    const double bound = std::floor(centre + 0.5 - normal_quantile(1.0 - tail) * sigma);
    k = bound < 1.0 ? 1 : static_cast<std::size_t>(bound);
    accepted = 1.0 - normal_upper_tail((static_cast<double>(k) - 0.5 - centre) / sigma);
  }
  result.interval =
      Interval{kth_walsh_average(sorted, k), kth_walsh_average(sorted, averages - k + 1),
               std::max(0.0, 1.0 - 2.0 * accepted)};
  return result;
}

PairedComparison paired_ratio(std::span<const double> baseline, std::span<const double> candidate,
                              double confidence) {
  const auto ratios = log_ratios(baseline, candidate);
  if (ratios.empty()) throw std::invalid_argument("paired_ratio: needs at least 1 round, got 0");
  PairedComparison result;
  result.rounds = ratios.size();
  result.ratio = std::exp(median(ratios));
  const Interval sign_interval = median_ci(ratios, confidence);
  result.interval = Interval{std::exp(sign_interval.lower), std::exp(sign_interval.upper),
                             sign_interval.confidence};
  const ShiftEstimate center = hodges_lehmann_center(ratios, confidence);
  result.pseudo_median_ratio = std::exp(center.shift);
  result.pseudo_median_interval = Interval{
      std::exp(center.interval.lower), std::exp(center.interval.upper), center.interval.confidence};
  result.p_value = wilcoxon_signed_rank(ratios).p_value;
  result.sign_p_value = sign_test(ratios).p_value;
  return result;
}

namespace {

// The most coverage a Mann–Whitney interval of sizes m and n can have: 1 - 2/C(m+n, m).
double widest_rank_sum_coverage(std::size_t m, std::size_t n) {
  double arrangements = 1.0;
  for (std::size_t k = 1; k <= std::min(m, n); ++k) {
    arrangements =
        arrangements * static_cast<double>(m + n - std::min(m, n) + k) / static_cast<double>(k);
  }
  return 1.0 - 2.0 / arrangements;
}

}  // namespace

namespace {

// The log ratios of the rounds the baseline ran first in (τ + π + e), and those of the others
// (τ - π + e).
struct OrderGroups {
  std::vector<double> first;
  std::vector<double> second;
};

OrderGroups by_order(std::span<const double> log_ratios, const std::vector<bool>& baseline_first) {
  if (baseline_first.size() != log_ratios.size()) {
    throw std::invalid_argument("crossover: one order per round expected, got " +
                                std::to_string(baseline_first.size()) + " for " +
                                std::to_string(log_ratios.size()) + " rounds");
  }
  OrderGroups groups;
  for (std::size_t i = 0; i < log_ratios.size(); ++i) {
    (baseline_first[i] ? groups.first : groups.second).push_back(log_ratios[i]);
  }
  return groups;
}

// π̂ of two non-empty groups: half the Hodges–Lehmann shift from the second to the first.
double order_effect(const OrderGroups& groups) {
  return hodges_lehmann_shift(groups.second, groups.first, 0.5).shift / 2.0;
}

}  // namespace

double crossover_order_effect(std::span<const double> log_ratios,
                              const std::vector<bool>& baseline_first) {
  const OrderGroups groups = by_order(log_ratios, baseline_first);
  if (groups.first.empty() || groups.second.empty()) return 0.0;
  return order_effect(groups);
}

std::optional<CrossoverComparison> crossover_ratio(std::span<const double> baseline,
                                                   std::span<const double> candidate,
                                                   const std::vector<bool>& baseline_first,
                                                   double confidence) {
  const OrderGroups groups = by_order(log_ratios(baseline, candidate), baseline_first);
  if (groups.first.empty() || groups.second.empty() ||
      widest_rank_sum_coverage(groups.first.size(), groups.second.size()) < confidence) {
    return std::nullopt;
  }
  // The first group's log ratios (τ + π + e) against the negated others' (-τ + π - e): 2τ apart.
  std::vector<double> negated = groups.second;
  for (double& x : negated) x = -x;
  const ShiftEstimate twice = hodges_lehmann_shift(negated, groups.first, confidence);
  CrossoverComparison result;
  result.ratio = std::exp(twice.shift / 2.0);
  result.interval = Interval{std::exp(twice.interval.lower / 2.0),
                             std::exp(twice.interval.upper / 2.0), twice.interval.confidence};
  result.p_value = mann_whitney(negated, groups.first).p_value;
  result.order_ratio = std::exp(order_effect(groups));
  result.order_p_value = mann_whitney(groups.second, groups.first).p_value;
  return result;
}

}  // namespace benchkit::stats
