#include "stats/hierarchical.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/bootstrap.hpp"
#include "stats/summary.hpp"
#include "stats/two_sample.hpp"

namespace benchkit::stats {
namespace {

void check(std::span<const std::vector<double>> processes, const HierarchicalOptions& options,
           const char* what) {
  if (processes.empty())
    throw std::invalid_argument(std::string(what) + ": needs at least 1 process");
  for (std::size_t p = 0; p < processes.size(); ++p) {
    require_finite(processes[p], what);
  }
  if (options.resamples < 2) {
    throw std::invalid_argument(std::string(what) + ": needs at least 2 resamples");
  }
  if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
    throw std::invalid_argument(std::string(what) + ": confidence must lie in (0, 1)");
  }
}

double mean_of_medians(std::span<const std::vector<double>> processes) {
  double sum = 0.0;
  for (const auto& process : processes) sum += median(process);
  return sum / static_cast<double>(processes.size());
}

// Two-level bootstrap replicates of mean_of_medians.
std::vector<double> replicates(std::span<const std::vector<double>> processes,
                               const HierarchicalOptions& options, std::uint64_t seed) {
  Xoshiro256 generator(seed);
  const std::size_t count = processes.size();
  std::vector<double> medians(count);
  for (std::size_t p = 0; p < count; ++p) medians[p] = median(processes[p]);
  std::vector<double> result(options.resamples);
  std::vector<double> buffer;
  for (std::size_t r = 0; r < options.resamples; ++r) {
    double sum = 0.0;
    for (std::size_t drawn = 0; drawn < count; ++drawn) {
      const std::size_t p = generator.below(count);
      if (!options.resample_within) {
        sum += medians[p];
        continue;
      }
      const auto& samples = processes[p];
      buffer.resize(samples.size());
      for (double& value : buffer) value = samples[generator.below(samples.size())];
      sum += median_in_place(buffer);
    }
    result[r] = sum / static_cast<double>(count);
  }
  return result;
}

HierarchicalOptions within_only(const HierarchicalOptions& options) {
  HierarchicalOptions copy = options;
  copy.resample_within = true;  // one process: the within level is all there is to resample
  return copy;
}

}  // namespace

HierarchicalEstimate hierarchical_median(std::span<const std::vector<double>> processes,
                                         const HierarchicalOptions& options) {
  check(processes, options, "hierarchical_median");
  HierarchicalEstimate result;
  result.processes = processes.size();
  result.estimate = mean_of_medians(processes);
  const bool single = processes.size() == 1;
  const auto draws = replicates(processes, single ? within_only(options) : options, options.seed);
  result.interval = percentile_interval(draws, options.confidence);
  if (single) result.interval.confidence = 0.0;
  return result;
}

HierarchicalComparison hierarchical_compare(std::span<const std::vector<double>> baseline,
                                            std::span<const std::vector<double>> candidate,
                                            const HierarchicalOptions& options) {
  check(baseline, options, "hierarchical_compare (baseline)");
  check(candidate, options, "hierarchical_compare (candidate)");
  for (const auto* side : {&baseline, &candidate}) {
    for (const auto& process : *side) {
      for (double value : process) {
        if (!(value > 0.0)) {
          throw std::invalid_argument("hierarchical_compare: values must be positive (durations)");
        }
      }
    }
  }
  HierarchicalComparison result;
  result.ratio = mean_of_medians(candidate) / mean_of_medians(baseline);
  result.process_level = baseline.size() >= 2 && candidate.size() >= 2;
  // Independent streams for the two sides: the candidate's seed is derived, not equal, so the
  // two sides never draw the same index sequence.
  std::uint64_t expander = options.seed;
  const std::uint64_t candidate_seed = splitmix64(expander);
  const auto base_draws =
      replicates(baseline, baseline.size() == 1 ? within_only(options) : options, options.seed);
  const auto candidate_draws =
      replicates(candidate, candidate.size() == 1 ? within_only(options) : options, candidate_seed);
  std::vector<double> ratios(options.resamples);
  for (std::size_t r = 0; r < options.resamples; ++r)
    ratios[r] = candidate_draws[r] / base_draws[r];
  result.interval = percentile_interval(ratios, options.confidence);
  if (!result.process_level) {
    result.interval.confidence = 0.0;
    return result;
  }
  auto log_medians = [](std::span<const std::vector<double>> processes) {
    std::vector<double> logs;
    for (const auto& process : processes) logs.push_back(std::log(median(process)));
    return logs;
  };
  const WelchResult welch =
      welch_t_test(log_medians(baseline), log_medians(candidate), options.confidence);
  result.p_value = welch.p_value;
  result.t = welch.t;
  result.degrees_of_freedom = welch.degrees_of_freedom;
  return result;
}

}  // namespace benchkit::stats
