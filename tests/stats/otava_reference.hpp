// The reference for benchkit's change points: Apache Otava's method (Hunter, Fleming et al.
// 2023), re-implemented from its description and its defaults: E-Divisive means (Matteson &
// James 2014, α = 1) on sliding windows of 50 points, a two-sided pooled Student t-test between
// neighbouring segments, weak change points at 10 × p in the split step, then the merge step at
// p 0.001. Header-only: the unit test (change_points_test.cpp) and the longer study
// (bench/stats/change_points_study.cpp) both run it.
//
// One deliberate difference: after dropping a change point, Otava's merge retests the points at
// the dropped index and the one after it (otava/analysis.py, `recompute(i)` and `recompute(i +
// 1)` after `del change_points[i]`), which leaves the left neighbour's p-value stale; here both
// neighbours are retested, as the Hunter paper describes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "stats/distributions.hpp"

namespace benchkit::stats::reference {

struct OtavaSettings {
  std::size_t window = 50;     // Otava's --window default
  double max_p_value = 0.001;  // Otava's -P default
};

struct OtavaChangePoint {
  std::size_t index = 0;
  double p_value = 1.0;
};

namespace otava_detail {

// Two-sided Student t-test, pooled variance, as scipy's ttest_ind_from_stats(equal_var=True) is
// called by Otava: with np.std (the n denominator) passed where sample deviations are expected.
inline double t_test(std::span<const double> left, std::span<const double> right) {
  if (left.empty() || right.empty() || left.size() + right.size() <= 2) return 1.0;
  auto mean_of = [](std::span<const double> v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
  };
  auto population_variance = [](std::span<const double> v, double m) {
    if (v.size() < 2) return 0.0;
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return s / static_cast<double>(v.size());
  };
  const double n1 = static_cast<double>(left.size());
  const double n2 = static_cast<double>(right.size());
  const double m1 = mean_of(left);
  const double m2 = mean_of(right);
  const double df = n1 + n2 - 2.0;
  const double pooled =
      ((n1 - 1.0) * population_variance(left, m1) + (n2 - 1.0) * population_variance(right, m2)) /
      df;
  const double scale = std::sqrt(pooled * (1.0 / n1 + 1.0 / n2));
  if (scale == 0.0) return m1 == m2 ? 1.0 : 0.0;
  return student_t_two_sided_p((m1 - m2) / scale, df);
}

// E-Divisive's candidate in one interval [begin, end) of `x`: the τ of the (τ, κ) that maximises
// Q(τ, κ) = 2/(m+n)·Σ|X-Y| - 2m/((m+n)(n-1))·Σ_{i<k}|Xᵢ-X_k| - 2n/((m+n)(m-1))·Σ_{j<k}|Yⱼ-Y_k|
// over begin < τ < κ ≤ end, X = x[begin, τ) (n points), Y = x[τ, κ) (m points). O(L²) with
// column prefix sums of the distance matrix.
struct Candidate {
  std::size_t index = 0;
  double q = -std::numeric_limits<double>::infinity();
};

inline Candidate best_split(std::span<const double> x, std::size_t begin, std::size_t end) {
  Candidate best;
  const std::size_t length = end - begin;
  if (length < 2) return best;
  // column[j][t] = Σ_{i=begin}^{begin+t-1} |x_i - x_j| for j in the interval, t in [0, length].
  std::vector<std::vector<double>> column(length, std::vector<double>(length + 1, 0.0));
  for (std::size_t j = 0; j < length; ++j) {
    for (std::size_t t = 0; t < length; ++t) {
      column[j][t + 1] = column[j][t] + std::fabs(x[begin + t] - x[begin + j]);
    }
  }
  double left_within = 0.0;  // Σ_{i<k<τ} |xᵢ - x_k|, relative indices
  for (std::size_t tau = 1; tau < length; ++tau) {
    left_within += column[tau - 1][tau - 1];  // point tau-1 joins X
    const double n = static_cast<double>(tau);
    double cross = 0.0;
    double right_within = 0.0;
    for (std::size_t kappa = tau + 1; kappa <= length; ++kappa) {
      const std::size_t joining = kappa - 1;  // point joining Y
      cross += column[joining][tau];
      right_within += column[joining][joining] - column[joining][tau];
      const double m = static_cast<double>(kappa - tau);
      double q = 2.0 / (m + n) * cross;
      if (n > 1) q -= 2.0 * m / ((m + n) * (n - 1.0)) * left_within;
      if (m > 1) q -= 2.0 * n / ((m + n) * (m - 1.0)) * right_within;
      if (q > best.q) best = Candidate{begin + tau, q};
    }
  }
  return best;
}

inline std::vector<std::size_t> bounds_of(const std::vector<OtavaChangePoint>& points,
                                          std::size_t n) {
  std::vector<std::size_t> bounds = {0};
  for (const auto& p : points) bounds.push_back(p.index);
  bounds.push_back(n);
  return bounds;
}

// E-Divisive with the t-test inside one window: keep splitting the best interval while the
// t-test between the two halves of the split interval passes at `p_limit`.
inline std::vector<OtavaChangePoint> detect_in(std::span<const double> x, double p_limit) {
  std::vector<OtavaChangePoint> found;
  for (;;) {
    const std::vector<std::size_t> bounds = bounds_of(found, x.size());
    Candidate best;
    std::size_t interval = 0;
    for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
      const Candidate c = best_split(x, bounds[s], bounds[s + 1]);
      if (c.q > best.q) {
        best = c;
        interval = s;
      }
    }
    if (!std::isfinite(best.q)) break;
    const double p = t_test(x.subspan(bounds[interval], best.index - bounds[interval]),
                            x.subspan(best.index, bounds[interval + 1] - best.index));
    if (p > p_limit) break;
    found.push_back({best.index, p});
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
  }
  return found;
}

inline double p_between(std::span<const double> x, const std::vector<OtavaChangePoint>& points,
                        std::size_t k) {
  const std::size_t begin = k == 0 ? 0 : points[k - 1].index;
  const std::size_t end = k + 1 == points.size() ? x.size() : points[k + 1].index;
  return t_test(x.subspan(begin, points[k].index - begin),
                x.subspan(points[k].index, end - points[k].index));
}

}  // namespace otava_detail

// Otava's compute_change_points(series, window_len=50, max_pvalue=0.001, min_magnitude=0).
inline std::vector<OtavaChangePoint> otava_change_points(std::span<const double> x,
                                                         const OtavaSettings& settings = {}) {
  using namespace otava_detail;
  const std::size_t n = x.size();
  const double first_pass = settings.max_p_value < 0.05  ? settings.max_p_value * 10.0
                            : settings.max_p_value < 0.5 ? settings.max_p_value * 2.0
                                                         : settings.max_p_value;
  // Split step: windows of `window` points, advancing by half a window or to the last change.
  std::vector<OtavaChangePoint> weak;
  const std::size_t step = std::max<std::size_t>(1, settings.window / 2);
  std::size_t start = 0;
  while (start < n) {
    const std::size_t end = std::min(start + settings.window, n);
    std::vector<OtavaChangePoint> found = detect_in(x.subspan(start, end - start), first_pass);
    std::size_t last = 0;
    for (auto& p : found) {
      p.index += start;
      last = p.index;
      if (std::none_of(weak.begin(), weak.end(),
                       [&](const OtavaChangePoint& w) { return w.index == p.index; })) {
        weak.push_back(p);
      }
    }
    start = std::max(last, start + step);
  }
  std::sort(weak.begin(), weak.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  for (std::size_t k = 0; k < weak.size(); ++k) weak[k].p_value = p_between(x, weak, k);
  // Merge step: drop the weakest until every p-value is below max_p_value.
  while (!weak.empty()) {
    const auto weakest =
        std::max_element(weak.begin(), weak.end(),
                         [](const auto& a, const auto& b) { return a.p_value < b.p_value; });
    if (weakest->p_value < settings.max_p_value) break;
    const std::size_t at = static_cast<std::size_t>(weakest - weak.begin());
    weak.erase(weakest);
    if (at > 0) weak[at - 1].p_value = p_between(x, weak, at - 1);
    if (at < weak.size()) weak[at].p_value = p_between(x, weak, at);
  }
  return weak;
}

}  // namespace benchkit::stats::reference
