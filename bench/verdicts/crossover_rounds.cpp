// What comparing side-by-side rounds as an AB/BA crossover does to verdicts, by seeded simulation
// through the real verdict code (analysis::compare_rounds, read at the sequential look's level;
// first look at 10 rounds, at most 90). Round i's log ratio is CHANGE + (ORDER when the baseline
// ran first, -ORDER when the candidate did) + a normal error of SIGMA%; the order alternates by
// round, as a Google Benchmark binary's side-by-side rounds do. Each trial is read twice: as plain
// pairs (no orders given) and as a crossover (the orders given). For each: the mean rounds to a
// verdict and the verdicts; and, over all 90 rounds without stopping, how often every look's
// interval covered CHANGE at once (the repeated confidence intervals' promise: at least 95%) and
// the lowest coverage of any single look. docs/verdicts.md, "Rounds in both orders".
//
// The crossover is read as analysis::compare does, when the two orders' rounds differ at
// --order-evidence (default model::kOrderEvidence; above 1: always).
//
// With --pool FILE (one number a line: real round log ratios, each row's centred and divided by
// its robust spread), the rounds' errors are SIGMA% times draws from it instead of normal ones:
// real rounds have heavier tails.
//
// Usage: crossover_rounds SIGMA% ORDER% [CHANGE%] [--threshold FRACTION] [--trials N] [--seed S]
//                         [--order-evidence P] [--pool FILE]
//   e.g. crossover_rounds 3 -10        (crc32c's 1 MiB rows, A/A)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "simulation_args.hpp"

namespace {

using benchkit::analysis::BenchmarkComparison;
using benchkit::analysis::CompareSettings;
using benchkit::analysis::Verdict;

constexpr std::size_t kFirstLook = 10;
constexpr std::size_t kMostRounds = 90;

struct Tally {
  double rounds = 0;
  int regressed = 0, improved = 0, unchanged = 0, inconclusive = 0;
  int all_looks_covered = 0;
  std::vector<int> covered_at = std::vector<int>(kMostRounds + 1, 0);

  void add(Verdict verdict, std::size_t used) {
    rounds += static_cast<double>(used);
    (verdict == Verdict::regressed   ? regressed
     : verdict == Verdict::improved  ? improved
     : verdict == Verdict::unchanged ? unchanged
                                     : inconclusive)++;
  }
  void print(const char* name, int trials) const {
    int lowest = trials;
    for (std::size_t n = kFirstLook; n <= kMostRounds; ++n)
      lowest = std::min(lowest, covered_at[n]);
    std::printf(
        "%-10s mean rounds %5.1f; regressed %4d, improved %4d, unchanged %4d, inconclusive %4d; "
        "every look covered %5.1f%%, lowest look %5.1f%%\n",
        name, rounds / trials, regressed, improved, unchanged, inconclusive,
        100.0 * all_looks_covered / trials, 100.0 * lowest / trials);
  }
};

// One trial's rounds read look by look, as plain pairs or as a crossover: the verdict at the
// first settled look, and whether each look's interval covered the change.
void read_trial(const std::vector<double>& logs, const std::vector<bool>& first, bool crossover,
                double change, const CompareSettings& settings, Tally& tally) {
  std::vector<double> base;
  std::vector<double> candidate;
  std::vector<bool> orders;
  bool decided = false;
  bool every_look = true;
  for (std::size_t n = 1; n <= kMostRounds; ++n) {
    base.push_back(1.0);
    candidate.push_back(std::exp(logs[n - 1]));
    orders.push_back(first[n - 1]);
    if (n < kFirstLook) continue;
    const BenchmarkComparison c = benchkit::analysis::compare_rounds(
        base, candidate, settings, crossover ? orders : std::vector<bool>{});
    const bool covers = c.ratio_lower <= std::exp(change) && std::exp(change) <= c.ratio_upper;
    tally.covered_at[n] += covers ? 1 : 0;
    every_look = every_look && covers;
    if (!decided && (c.verdict != Verdict::inconclusive || n == kMostRounds)) {
      tally.add(c.verdict, n);
      decided = true;
    }
  }
  tally.all_looks_covered += every_look ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const benchkit::bench::SimulationArgs args =
      benchkit::bench::parse_simulation_args(argc, argv, 0.02, 1000);
  const std::vector<std::string>& positional = args.positional;
  const double threshold = args.threshold;
  const int trials = args.trials;
  const unsigned long long seed = args.seed;
  if (positional.size() < 2 || trials < 1) {
    std::fprintf(stderr,
                 "usage: crossover_rounds SIGMA%% ORDER%% [CHANGE%%] [--threshold FRACTION] "
                 "[--trials N] [--seed S] [--order-evidence P] [--pool FILE]\n");
    return 2;
  }
  const double sigma = std::atof(positional[0].c_str()) / 100;
  const double order = std::log1p(std::atof(positional[1].c_str()) / 100);
  const double change =
      positional.size() > 2 ? std::log1p(std::atof(positional[2].c_str()) / 100) : 0.0;
  CompareSettings settings;
  settings.noise_threshold = threshold;
  settings.order_evidence = args.order_evidence;
  settings.sequential_alpha = benchkit::analysis::sequential_levels(kFirstLook, kMostRounds);
  std::vector<double> pool;
  if (!args.pool.empty()) {
    std::ifstream in(args.pool);
    for (double x = 0; in >> x;) pool.push_back(x);
    if (pool.empty()) {
      std::fprintf(stderr, "crossover_rounds: no numbers in %s\n", args.pool.c_str());
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<std::size_t> pick(0, pool.empty() ? 0 : pool.size() - 1);
  auto error = [&]() { return pool.empty() ? normal(rng) : pool[pick(rng)]; };
  Tally plain;
  Tally crossover;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> logs;
    std::vector<bool> first;
    for (std::size_t n = 0; n < kMostRounds; ++n) {
      first.push_back(n % 2 == 0);
      logs.push_back(change + (first.back() ? order : -order) + sigma * error());
    }
    read_trial(logs, first, false, change, settings, plain);
    read_trial(logs, first, true, change, settings, crossover);
  }
  std::printf(
      "rounds scatter %.1f%%, the second process %+.1f%%, change %+.1f%%, threshold "
      "±%.1f%%, %d trials, seed %llu, crossover when the orders differ at p < %g\n",
      sigma * 100, std::expm1(order) * 100, std::expm1(change) * 100, threshold * 100, trials, seed,
      args.order_evidence);
  plain.print("pairs", trials);
  crossover.print("crossover", trials);
  return 0;
}
