#include "stats/change_points.hpp"

#include <algorithm>
#include <array>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "stats/distributions.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats {
namespace {

// At most one change in this many runs is expected when the spread between runs is estimated
// (the window of Apache Otava's E-Divisive is 50 runs).
constexpr std::size_t kRunsPerChange = 50;
// √(π/2): the mean absolute value of a normal variable times this is its sd.
constexpr double kMeanAbsToSd = 1.2533141373155003;

void validate(std::span<const IntervalPoint> series, const ChangePointSettings& settings) {
  for (std::size_t i = 0; i < series.size(); ++i) {
    const IntervalPoint& p = series[i];
    if (!std::isfinite(p.value) || !std::isfinite(p.lower) || !std::isfinite(p.upper)) {
      throw std::invalid_argument("detect_change_points: point " + std::to_string(i) +
                                  " is not finite; drop it from the series");
    }
  }
  auto open_unit = [](double x) { return x > 0.0 && x < 1.0; };
  if (settings.min_segment == 0) {
    throw std::invalid_argument("detect_change_points: min_segment must be at least 1");
  }
  if (!open_unit(settings.max_p_value) || !open_unit(settings.candidate_p_value) ||
      !open_unit(settings.interval_confidence)) {
    throw std::invalid_argument(
        "detect_change_points: max_p_value, candidate_p_value and interval_confidence must lie "
        "in (0, 1)");
  }
  if (!(settings.clip > 0.0) || !(settings.min_relative_change >= 0.0)) {
    throw std::invalid_argument(
        "detect_change_points: clip must be positive and min_relative_change not negative");
  }
}

// The series on the scale of the analysis, each point with its variance.
struct Prepared {
  std::vector<double> level;     // log values (or values), centred on their median
  std::vector<double> variance;  // within-run (from the interval) plus between-run
};

Prepared prepare(std::span<const IntervalPoint> series, const ChangePointSettings& settings) {
  const std::size_t n = series.size();
  const bool logarithmic = std::all_of(series.begin(), series.end(), [](const IntervalPoint& p) {
    return p.value > 0.0 && p.lower >= 0.0 && p.upper >= 0.0;
  });
  const double z = normal_upper_quantile((1.0 - settings.interval_confidence) / 2.0);
  Prepared out;
  out.level.resize(n);
  std::vector<double> within(n, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < n; ++i) {
    const IntervalPoint& p = series[i];
    out.level[i] = logarithmic ? std::log(p.value) : p.value;
    const bool usable = p.upper > p.lower && (!logarithmic || p.lower > 0.0);
    if (usable) {
      const double width = logarithmic ? std::log(p.upper) - std::log(p.lower) : p.upper - p.lower;
      within[i] = std::pow(width / (2.0 * z), 2.0);
    }
  }
  // Missing intervals take the median of the others (asv does the same with its weights).
  std::vector<double> known;
  for (double v : within)
    if (!std::isnan(v)) known.push_back(v);
  const double typical_within = known.empty() ? 0.0 : median_in_place(known);
  for (double& v : within)
    if (std::isnan(v)) v = typical_within;

  std::vector<double> levels = out.level;
  const double centre = median_in_place(levels);
  for (double& v : out.level) v -= centre;

  // Between-run variance from successive differences: Var(y[i+1] - y[i]) = 2τ² + s²ᵢ + s²ᵢ₊₁
  // away from a change. The root mean square of the differences, leaving out the largest one in
  // every 50 (those that straddle a change: Otava's window expects at most one change in 50
  // runs) and corrected to be exact for normal noise. Not the median absolute difference: on a
  // machine that is sometimes in a slow state (for several benchmarks of the fixture, a quarter
  // of the runs), the median sees only the spread within a state, and every few slow runs in a
  // row would read as a level. When the trimmed differences are all 0 (a metric that rarely
  // moves), the mean absolute difference is used.
  std::vector<double> differences(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    differences[i] = std::fabs(out.level[i + 1] - out.level[i]);
  }
  detail::sort_not_negative(differences);
  const std::size_t trimmed = (differences.size() + kRunsPerChange - 1) / kRunsPerChange;
  const std::size_t kept = differences.size() > trimmed ? differences.size() - trimmed : 0;
  double sum_of_squares = 0.0;
  for (std::size_t i = 0; i < kept; ++i) sum_of_squares += differences[i] * differences[i];
  double difference_variance = 0.0;
  if (kept > 0 && sum_of_squares > 0.0) {
    // E[Z² | |Z| < q] for a standard normal Z trimmed at its two-sided (kept/total) quantile.
    const double share = static_cast<double>(kept) / static_cast<double>(differences.size());
    const double q = normal_upper_quantile((1.0 - share) / 2.0);
    const double truncated =
        share < 1.0 ? 1.0 - 2.0 * q * boost::math::pdf(boost::math::normal(), q) / share : 1.0;
    difference_variance = sum_of_squares / static_cast<double>(kept) / truncated;
  } else {
    const double sd = kMeanAbsToSd * mean(differences);
    difference_variance = sd * sd;
  }
  const double between = std::max(0.0, difference_variance / 2.0 - typical_within);

  out.variance.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.variance[i] = between + within[i];
  // A point with no variance at all (zero-width interval, no spread between runs) would weigh
  // infinitely: it takes the smallest positive variance of the series.
  double smallest = std::numeric_limits<double>::infinity();
  for (double v : out.variance)
    if (v > 0.0) smallest = std::min(smallest, v);
  if (!std::isfinite(smallest)) {
    out.variance.clear();  // no variation anywhere: nothing can change
    return out;
  }
  for (double& v : out.variance)
    if (!(v > 0.0)) v = smallest;
  return out;
}

// Each point pulled to within clip·σᵢ of the median of the 2h+1 points around it (fewer at the
// ends). That median follows any level lasting h+1 points or more, so steps are kept; an
// excursion of up to h/2 points cannot move it beyond the range of the points around.
std::vector<double> clipped_levels(const Prepared& prepared, std::size_t half_width, double clip) {
  const std::size_t n = prepared.level.size();
  const std::vector<double>& level = prepared.level;
  std::vector<double> out(n);
  // The window kept sorted as it slides, one point in and one out per step: sorting it afresh at
  // every point was a fifth of the method's time. The levels are finite (validate), so a value
  // leaving is found by equality.
  std::vector<double> window;
  window.reserve(2 * half_width + 1);
  const auto enter = [&](double value) {
    window.insert(std::upper_bound(window.begin(), window.end(), value), value);
  };
  for (std::size_t i = 0; i < std::min(n, half_width); ++i) enter(level[i]);
  for (std::size_t i = 0; i < n; ++i) {
    if (i + half_width < n) enter(level[i + half_width]);
    if (i > half_width) {
      window.erase(std::lower_bound(window.begin(), window.end(), level[i - half_width - 1]));
    }
    const double centre = quantile_sorted(window, 0.5);
    const double limit = clip * std::sqrt(prepared.variance[i]);
    out[i] = std::clamp(level[i], centre - limit, centre + limit);
  }
  return out;
}

// Prefix sums of w, w·x and w·x²: the weighted mean and residual sum of any segment in O(1).
class Segments {
 public:
  Segments(std::span<const double> x, std::span<const double> variance)
      : weight_(x.size() + 1, 0.0), first_(x.size() + 1, 0.0), second_(x.size() + 1, 0.0) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double w = 1.0 / variance[i];
      weight_[i + 1] = weight_[i] + w;
      first_[i + 1] = first_[i] + w * x[i];
      second_[i + 1] = second_[i] + w * x[i] * x[i];
    }
  }
  double weight(std::size_t begin, std::size_t end) const { return weight_[end] - weight_[begin]; }
  double first(std::size_t begin, std::size_t end) const { return first_[end] - first_[begin]; }
  double second(std::size_t begin, std::size_t end) const { return second_[end] - second_[begin]; }
  double mean(std::size_t begin, std::size_t end) const {
    return (first_[end] - first_[begin]) / weight(begin, end);
  }
  // Σ wᵢ (xᵢ - x̄)² over [begin, end): twice the Gaussian negative log-likelihood, up to a constant.
  double cost(std::size_t begin, std::size_t end) const {
    const double s1 = first_[end] - first_[begin];
    const double s2 = second_[end] - second_[begin];
    return std::max(0.0, s2 - s1 * s1 / weight(begin, end));
  }
  // cost(begin, end) for every begin in [0, count), into `out`.
  void costs_to(std::size_t end, std::size_t count, double* out) const {
    const double weight_end = weight_[end];
    const double first_end = first_[end];
    const double second_end = second_[end];
    const double* weight = weight_.data();
    const double* first = first_.data();
    const double* second = second_.data();
    for (std::size_t begin = 0; begin < count; ++begin) {
      const double s1 = first_end - first[begin];
      const double s2 = second_end - second[begin];
      out[begin] = std::max(0.0, s2 - s1 * s1 / (weight_end - weight[begin]));
    }
  }

 private:
  std::vector<double> weight_, first_, second_;
};

// The changes of the best partition of [0, n), from each end's best last start.
std::vector<std::size_t> changes_of(const std::vector<std::size_t>& previous, std::size_t n) {
  std::vector<std::size_t> changes;
  for (std::size_t at = n; at > 0; at = previous[at]) {
    if (previous[at] > 0) changes.push_back(previous[at]);
  }
  std::reverse(changes.begin(), changes.end());
  return changes;
}

std::vector<std::size_t> partition(const Segments& segments, std::span<const double> x,
                                   std::size_t min_segment, double penalty,
                                   detail::PartitionSearch search, std::size_t* totals = nullptr);

// The optimal partition (Jackson et al. 2005's optimal partitioning): minimum of Σ cost + β per
// change over every partition whose segments have at least `min_segment` points, every start
// tried for every end. O(n²). The reference the pruned search must equal
// (tests/stats/change_points_test.cpp).
std::vector<std::size_t> exhaustive_partition(const Segments& segments, std::size_t n,
                                              std::size_t min_segment, double penalty,
                                              std::size_t& computed) {
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<double> best(n + 1, infinity);
  std::vector<std::size_t> previous(n + 1, 0);
  std::vector<double> totals(n + 1);
  best[0] = -penalty;
  for (std::size_t end = min_segment; end <= n; ++end) {
    // Every start's total first, in a loop without branches that the compiler vectorises (a
    // start whose best is infinite, one that no partition reaches, gets an infinite total),
    // then the first smallest: the same partition as one loop that compares as it goes.
    const std::size_t starts = end - min_segment + 1;
    computed += starts;
    segments.costs_to(end, starts, totals.data());
    for (std::size_t begin = 0; begin < starts; ++begin) {
      totals[begin] = best[begin] + totals[begin] + penalty;
    }
    for (std::size_t begin = 0; begin < starts; ++begin) {
      if (totals[begin] < best[end]) {
        best[end] = totals[begin];
        previous[end] = begin;
      }
    }
  }
  return changes_of(previous, n);
}

// The same partition, bit for bit, with the starts that can never again be the best one dropped
// as the ends advance (docs/change-points.md, "The search").
//
// A start s is the last change before `end` at the total F(s) + C(s, end) + β, F the best total
// up to s. As a function of the last segment's level μ, that is the quadratic
// Q_s(μ) = F(s) + β + Σ_{i in [s, end)} wᵢ(xᵢ - μ)², whose minimum over μ is the total. For a
// later start r, Q_s - Q_r = F(s) - F(r) + Σ_{i in [s, r)} wᵢ(xᵢ - μ)² does not depend on the end:
// s is below r only for μ in one interval around the mean of [s, r) (none when
// F(s) + C(s, r) ≥ F(r): PELT's rule, Killick, Fearnhead & Eckley 2012), r below s outside it. So
// the lower envelope of the starts' quadratics is kept as pieces of the μ axis, each with the start
// whose quadratic is lowest there (functional pruning, Maidstone, Hocking, Rigaill & Fearnhead
// 2017): a new start takes, of each piece, the part outside that interval, and a start left with
// no piece is below no other start at any μ, so never again the best at any end. A start joins
// the envelope at the first end it may be the last change before (start + min_segment): until
// then it is no rival, and the starts it would beat are still tried.
//
// Exactly the same totals as exhaustive_partition are computed for the starts kept, in the
// same order; a part of a piece changes hands only where the quadratics differ by more than the
// rounding of any of these sums could make up (`slack`): the same first smallest total at every
// end.
class PrunedSearch {
 public:
  PrunedSearch(const Segments& segments, std::span<const double> x, std::size_t min_segment,
               double penalty)
      : segments_(segments), penalty_(penalty) {
    const std::size_t n = x.size();
    double largest = 0.0;
    for (double value : x) largest = std::max(largest, std::fabs(value));
    // Every sum compared here is at most Σwᵢ·max|xᵢ|² plus a penalty per change; its rounding
    // (the prefix sums, n additions, and a few operations on them) stays below n + 64 units of
    // 2⁻⁵² of that. 1e-12 (some 4,500 such units per point) leaves a wide margin and prunes as
    // well: the totals that decide differ by units of the penalty.
    slack_ = 1e-12 * static_cast<double>(n + 64) *
             (segments.weight(0, n) * largest * largest + std::fabs(penalty));
    best_.assign(n + 1, std::numeric_limits<double>::infinity());
    previous_.assign(n + 1, 0);
    best_[0] = -penalty;
    for (std::size_t end = min_segment; end <= n; ++end) {
      admit(end - min_segment);
      choose(end);
    }
  }

  std::vector<std::size_t> changes() const { return changes_of(previous_, previous_.size() - 1); }
  std::size_t computed() const { return computed_; }

 private:
  static constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  // A piece of the μ axis and the start whose quadratic is lowest there (to within the slack).
  struct Piece {
    std::size_t start = 0;
    double low = 0;
    double high = 0;
  };

  // Where start s and a later start r trade places: s is below r by less than the slack inside
  // [keep_low, keep_high], and r below s by at least the slack inside [give_low, give_high] (an
  // empty interval when low > high). Each interval is rounded outward or inward so that the
  // rounding of its bounds can only keep a piece with s.
  struct Exchange {
    double keep_low, keep_high, give_low, give_high;
  };

  Exchange exchange(std::size_t s, std::size_t r) const {
    const double weight = segments_.weight(s, r);
    const double s1 = segments_.first(s, r);
    const double s2 = segments_.second(s, r);
    const double between = s1 * s1 / weight;
    // Q_s - Q_r = weight·(μ - centre)² - room: below ±slack within a radius of
    // √((room ± slack) / weight).
    const double room = best_[r] - best_[s] - (s2 - between);
    const double error =
        8.0 * kEpsilon * (std::fabs(best_[r]) + std::fabs(best_[s]) + std::fabs(s2) + between);
    const double centre = s1 / weight;
    const double outer = room + slack_ + error;
    const double inner = room - slack_ - error;
    Exchange out{kInfinity, -kInfinity, kInfinity, -kInfinity};
    if (outer >= 0.0) {
      const double radius = std::sqrt(outer / weight);
      const double pad = 16.0 * kEpsilon * (std::fabs(centre) + radius);
      out.keep_low = centre - radius - pad;
      out.keep_high = centre + radius + pad;
    }
    if (inner >= 0.0) {
      const double radius = std::sqrt(inner / weight);
      const double pad = 16.0 * kEpsilon * (std::fabs(centre) + radius);
      out.give_low = centre - radius + pad;
      out.give_high = centre + radius - pad;
    }
    return out;
  }

  // Start r may now be the last change: it takes, of every piece, the part where it is lowest.
  // A start no partition reaches (infinite best) is never a start. The pieces stay in the order
  // of their starts, and of their μ within a start; where two starts' quadratics lie within the
  // slack of each other both keep the part, and r's parts are joined where they meet or overlap
  // (a run of equal values makes many starts tie: without joining, their parts would multiply).
  void admit(std::size_t r) {
    if (!std::isfinite(best_[r])) return;
    next_.clear();
    taken_.clear();
    if (pieces_.empty()) taken_.push_back({r, -kInfinity, kInfinity});
    Exchange where{};
    for (std::size_t k = 0; k < pieces_.size(); ++k) {
      const Piece& piece = pieces_[k];
      if (k == 0 || pieces_[k - 1].start != piece.start) where = exchange(piece.start, r);
      // r's part: all of the piece but where s is lower by the slack (nothing when nowhere).
      const bool s_lower_somewhere = where.give_low <= where.give_high;
      take(r, piece.low, s_lower_somewhere ? std::min(piece.high, where.give_low) : piece.high);
      if (s_lower_somewhere) take(r, std::max(piece.low, where.give_high), piece.high);
      const double low = std::max(piece.low, where.keep_low);
      const double high = std::min(piece.high, where.keep_high);
      if (low <= high) next_.push_back({piece.start, low, high});
    }
    // r's parts by μ (a few: insertion sort), joined where they touch.
    for (std::size_t k = 1; k < taken_.size(); ++k) {
      for (std::size_t j = k; j > 0 && taken_[j].low < taken_[j - 1].low; --j) {
        std::swap(taken_[j], taken_[j - 1]);
      }
    }
    for (const Piece& piece : taken_) {
      if (next_.empty() || next_.back().start != r || piece.low > next_.back().high) {
        next_.push_back(piece);
      } else {
        next_.back().high = std::max(next_.back().high, piece.high);
      }
    }
    pieces_.swap(next_);
    starts_.clear();
    for (const Piece& piece : pieces_) {
      if (starts_.empty() || starts_.back() != piece.start) starts_.push_back(piece.start);
    }
  }

  void take(std::size_t r, double low, double high) {
    if (low <= high) taken_.push_back({r, low, high});
  }

  // The first smallest total among the starts kept, each computed as exhaustive_partition does.
  void choose(std::size_t end) {
    computed_ += starts_.size();
    for (const std::size_t s : starts_) {
      const double total = best_[s] + segments_.cost(s, end) + penalty_;
      if (total < best_[end]) {
        best_[end] = total;
        previous_[end] = s;
      }
    }
  }

  const Segments& segments_;
  double penalty_;
  double slack_ = 0.0;
  std::size_t computed_ = 0;
  std::vector<double> best_;
  std::vector<std::size_t> previous_;
  std::vector<std::size_t> starts_;   // the starts with a piece, ascending
  std::vector<Piece> pieces_, next_;  // by start, then by μ
  std::vector<Piece> taken_;          // the parts the start being admitted takes
};

std::vector<std::size_t> partition(const Segments& segments, std::span<const double> x,
                                   std::size_t min_segment, double penalty,
                                   detail::PartitionSearch search, std::size_t* totals) {
  std::size_t computed = 0;
  std::vector<std::size_t> changes;
  if (search == detail::PartitionSearch::exhaustive) {
    changes = exhaustive_partition(segments, x.size(), min_segment, penalty, computed);
  } else {
    const PrunedSearch pruned(segments, x, min_segment, penalty);
    changes = pruned.changes();
    computed = pruned.computed();
  }
  if (totals) *totals = computed;
  return changes;
}

// The test of a change at `index` between the levels [begin, index) and [index, end): the
// weighted difference of means over its standard error, the error never taken below what the
// points actually scatter around their levels (a dispersion factor of at least 1), on Student's t
// with n - 2 degrees of freedom; then multiplied by the number of places the change could have
// been put in that span (Bonferroni: the place was chosen because it fits best).
double change_p_value(const Segments& segments, std::span<const double> x,
                      std::span<const double> variance, std::size_t begin, std::size_t index,
                      std::size_t end, std::size_t min_segment) {
  const double left_mean = segments.mean(begin, index);
  const double right_mean = segments.mean(index, end);
  const double standard_error =
      std::sqrt(1.0 / segments.weight(begin, index) + 1.0 / segments.weight(index, end));
  const std::size_t count = end - begin;
  double dispersion = 1.0;
  if (count > 2) {
    double residual = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double centre = i < index ? left_mean : right_mean;
      residual += (x[i] - centre) * (x[i] - centre) / variance[i];
    }
    dispersion = std::max(1.0, residual / static_cast<double>(count - 2));
  }
  const double t = (right_mean - left_mean) / (standard_error * std::sqrt(dispersion));
  const double degrees_of_freedom = static_cast<double>(std::max<std::size_t>(count, 3) - 2);
  const double single = student_t_two_sided_p(t, degrees_of_freedom);
  const double places = static_cast<double>(count + 1 - 2 * min_segment);
  return std::min(1.0, single * std::max(1.0, places));
}

}  // namespace

namespace detail {

std::vector<std::size_t> optimal_partition(std::span<const double> x,
                                           std::span<const double> variance,
                                           std::size_t min_segment, double penalty,
                                           PartitionSearch search, std::size_t* totals) {
  if (totals) *totals = 0;
  if (x.size() != variance.size() || min_segment == 0) {
    throw std::invalid_argument(
        "optimal_partition: x and variance must have one value per point, min_segment at least 1");
  }
  if (x.size() < min_segment) return {};
  const Segments segments(x, variance);
  return partition(segments, x, min_segment, penalty, search, totals);
}

std::vector<ChangePoint> detect_change_points(std::span<const IntervalPoint> series,
                                              const ChangePointSettings& settings,
                                              PartitionSearch search) {
  validate(series, settings);
  const std::size_t n = series.size();
  const std::size_t min_segment = settings.min_segment;
  if (n < 2 * min_segment) return {};
  const Prepared prepared = prepare(series, settings);
  if (prepared.variance.empty()) return {};
  // The running median spans 4·min_segment - 3 points: it ignores min_segment - 1 disturbed runs
  // in a row and follows every level of 2·min_segment - 1 runs or more.
  const std::vector<double> x = clipped_levels(prepared, 2 * (min_segment - 1), settings.clip);
  const Segments segments(x, prepared.variance);

  // A split of noise at one place lowers the cost by z², z its two-sample statistic; the best of
  // n - 1 places beats z_c² with probability at most candidate_p_value (Bonferroni).
  const double z = normal_upper_quantile(
      settings.candidate_p_value / (2.0 * static_cast<double>(std::max<std::size_t>(1, n - 1))));
  std::vector<std::size_t> changes = partition(segments, x, min_segment, z * z, search);

  // Merge step: drop the weakest change while one fails, retesting its neighbours.
  auto p_of = [&](std::size_t k) {
    const std::size_t begin = k == 0 ? 0 : changes[k - 1];
    const std::size_t end = k + 1 == changes.size() ? n : changes[k + 1];
    return change_p_value(segments, x, prepared.variance, begin, changes[k], end, min_segment);
  };
  std::vector<double> values;
  auto level_of = [&](std::size_t begin, std::size_t end) {
    values.clear();
    for (std::size_t i = begin; i < end; ++i) values.push_back(series[i].value);
    return median(values);
  };
  auto magnitude = [&](std::size_t k) {  // relative change of the median level
    const std::size_t begin = k == 0 ? 0 : changes[k - 1];
    const std::size_t end = k + 1 == changes.size() ? n : changes[k + 1];
    const double before = level_of(begin, changes[k]);
    const double after = level_of(changes[k], end);
    return before != 0.0 ? std::fabs(after / before - 1.0) : std::fabs(after - before);
  };
  std::vector<double> p_values(changes.size());
  for (std::size_t k = 0; k < changes.size(); ++k) p_values[k] = p_of(k);
  while (!changes.empty()) {
    std::size_t weakest = static_cast<std::size_t>(
        std::max_element(p_values.begin(), p_values.end()) - p_values.begin());
    if (p_values[weakest] <= settings.max_p_value) {
      if (settings.min_relative_change <= 0.0) break;
      std::size_t smallest = 0;
      for (std::size_t k = 1; k < changes.size(); ++k)
        if (magnitude(k) < magnitude(smallest)) smallest = k;
      if (magnitude(smallest) > settings.min_relative_change) break;
      weakest = smallest;
    }
    changes.erase(changes.begin() + static_cast<std::ptrdiff_t>(weakest));
    p_values.erase(p_values.begin() + static_cast<std::ptrdiff_t>(weakest));
    if (weakest > 0) p_values[weakest - 1] = p_of(weakest - 1);
    if (weakest < changes.size()) p_values[weakest] = p_of(weakest);
  }

  std::vector<ChangePoint> found;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const std::size_t begin = k == 0 ? 0 : changes[k - 1];
    const std::size_t end = k + 1 == changes.size() ? n : changes[k + 1];
    ChangePoint point;
    point.index = changes[k];
    point.before = level_of(begin, changes[k]);
    point.after = level_of(changes[k], end);
    point.p_value = p_values[k];
    found.push_back(point);
  }
  return found;
}

}  // namespace detail

// Below this many values std::sort is as fast as the radix sort.
constexpr std::size_t kRadixSorted = 64;

// Equal values are the same bits, and such doubles' bits order them as their values do: sorted a
// byte at a time from the lowest (a pass skipped where every value has the same byte). For the
// 1,000 differences of a long series, faster than std::sort, which was a twentieth of `history
// trend`'s time over a fleet's history.
void detail::sort_not_negative(std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n < kRadixSorted) {
    std::sort(values.begin(), values.end());
    return;
  }
  std::vector<std::uint64_t> keys(n);
  std::vector<std::uint64_t> moved(n);
  std::memcpy(keys.data(), values.data(), n * sizeof(double));
  std::array<std::array<std::uint32_t, 256>, 8> counts{};
  for (const std::uint64_t key : keys) {
    for (std::size_t byte = 0; byte < 8; ++byte) ++counts[byte][(key >> (8 * byte)) & 0xFF];
  }
  for (std::size_t byte = 0; byte < 8; ++byte) {
    std::array<std::uint32_t, 256>& count = counts[byte];
    if (count[(keys[0] >> (8 * byte)) & 0xFF] == n) continue;
    std::uint32_t start = 0;
    for (std::uint32_t& c : count) {
      const std::uint32_t here = c;
      c = start;
      start += here;
    }
    for (const std::uint64_t key : keys) moved[count[(key >> (8 * byte)) & 0xFF]++] = key;
    keys.swap(moved);
  }
  std::memcpy(values.data(), keys.data(), n * sizeof(double));
}

std::vector<ChangePoint> detect_change_points(std::span<const IntervalPoint> series,
                                              const ChangePointSettings& settings) {
  return detail::detect_change_points(series, settings, detail::PartitionSearch::pruned);
}

}  // namespace benchkit::stats
