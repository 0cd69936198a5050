// How many side-by-side rounds a comparison needs when a share of its rounds are far off (a
// process pair in which one side ran in another state), by seeded simulation through the real
// verdict code: each trial draws round ratios until analysis::compare_rounds, read at the
// sequential look's level, stops being inconclusive (at most 90 rounds, first look at 10). A
// round's log ratio is CHANGE plus a normal error of NARROW% (a typical round) or, with
// probability SHARE, of FAR%. For comparison, the same looks read with the median's
// order-statistic interval (sign-test), at the same levels. docs/verdicts.md, "Where an A/A
// comparison's extra rounds go".
//
// Usage: far_rounds NARROW% FAR% SHARE [CHANGE%] [--threshold FRACTION] [--trials N] [--seed S]
//   e.g. far_rounds 0.05 1.5 0.07 --threshold 0.005
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "simulation_args.hpp"

namespace {

using benchkit::analysis::CompareSettings;
using benchkit::analysis::Verdict;

struct Model {
  double narrow = 0;  // fractions, as log-ratio standard deviations
  double far = 0;
  double share = 0;
  double change = 0;
};

// The verdict of the median's interval at `level`: [x(k), x(n+1-k)] of the sorted log ratios,
// k the largest with P(Binomial(n, 1/2) <= k - 1) <= level / 2; inconclusive when no such k.
Verdict median_interval_verdict(std::vector<double> logs, double level, double threshold) {
  std::sort(logs.begin(), logs.end());
  const std::size_t n = logs.size();
  double cdf = 0;
  double choose = 1;  // n choose j
  std::size_t k = 0;
  for (std::size_t j = 0; j < n; ++j) {
    cdf += choose * std::pow(0.5, static_cast<double>(n));
    if (cdf > level / 2) break;
    k = j + 1;
    choose = choose * static_cast<double>(n - j) / static_cast<double>(j + 1);
  }
  if (k == 0) return Verdict::inconclusive;
  const double low = logs[k - 1];
  const double high = logs[n - k];
  const double bound = std::log1p(threshold);
  if (low > bound) return Verdict::regressed;
  if (high < -bound) return Verdict::improved;
  if (low >= -bound && high <= bound) return Verdict::unchanged;
  return Verdict::inconclusive;
}

struct Tally {
  double rounds = 0;
  int at_first_look = 0;
  int regressed = 0, improved = 0, unchanged = 0, inconclusive = 0;
  void add(Verdict verdict, std::size_t used) {
    rounds += static_cast<double>(used);
    at_first_look += used == 10 ? 1 : 0;
    (verdict == Verdict::regressed   ? regressed
     : verdict == Verdict::improved  ? improved
     : verdict == Verdict::unchanged ? unchanged
                                     : inconclusive)++;
  }
  void print(const char* name, int trials) const {
    std::printf(
        "%-36s mean rounds %5.1f, decided at the first look %5.1f%%; regressed %d, "
        "improved %d, unchanged %d, inconclusive %d\n",
        name, rounds / trials, 100.0 * at_first_look / trials, regressed, improved, unchanged,
        inconclusive);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const benchkit::bench::SimulationArgs args =
      benchkit::bench::parse_simulation_args(argc, argv, 0.005, 2000);
  const std::vector<std::string>& positional = args.positional;
  const double threshold = args.threshold;
  const int trials = args.trials;
  const unsigned long long seed = args.seed;
  if (positional.size() < 3 || trials < 1) {
    std::fprintf(stderr,
                 "usage: far_rounds NARROW%% FAR%% SHARE [CHANGE%%] [--threshold FRACTION] "
                 "[--trials N] [--seed S]\n");
    return 2;
  }
  const Model model{std::atof(positional[0].c_str()) / 100, std::atof(positional[1].c_str()) / 100,
                    std::atof(positional[2].c_str()),
                    positional.size() > 3 ? std::atof(positional[3].c_str()) / 100 : 0.0};
  constexpr std::size_t kFirstLook = 10;
  constexpr std::size_t kMostRounds = 90;
  CompareSettings settings;
  settings.noise_threshold = threshold;
  settings.sequential_alpha = benchkit::analysis::sequential_levels(kFirstLook, kMostRounds);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  Tally ranks;
  Tally medians;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> logs;
    for (std::size_t n = 0; n < kMostRounds; ++n) {
      const double scale = uniform(rng) < model.share ? model.far : model.narrow;
      logs.push_back(model.change + scale * normal(rng));
    }
    // The signed-rank design (benchkit's) and the median's interval on the same rounds.
    std::vector<double> base;
    std::vector<double> candidate;
    bool ranks_done = false;
    bool medians_done = false;
    for (std::size_t n = 1; n <= kMostRounds && !(ranks_done && medians_done); ++n) {
      base.push_back(1.0);
      candidate.push_back(std::exp(logs[n - 1]));
      if (n < kFirstLook) continue;
      const double level = benchkit::analysis::paired_level(settings, n);
      if (!ranks_done) {
        const Verdict verdict =
            benchkit::analysis::compare_rounds(base, candidate, settings).verdict;
        if (verdict != Verdict::inconclusive || n == kMostRounds) {
          ranks.add(verdict, n);
          ranks_done = true;
        }
      }
      if (!medians_done) {
        const Verdict verdict = median_interval_verdict(
            std::vector<double>(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(n)), level,
            threshold);
        if (verdict != Verdict::inconclusive || n == kMostRounds) {
          medians.add(verdict, n);
          medians_done = true;
        }
      }
    }
  }
  std::printf(
      "rounds: %.3g%% typical, %.3g%% in a share %.3g of far-off rounds; change %.3g%%; "
      "threshold ±%.3g%%; %d trials, seed %llu\n",
      100 * model.narrow, 100 * model.far, model.share, 100 * model.change, 100 * threshold, trials,
      seed);
  ranks.print("signed-rank interval (benchkit's)", trials);
  medians.print("median's interval (sign test)", trials);
  return 0;
}
