// The command line shared by the seeded verdict simulations (far_rounds, crossover_rounds):
// positional numbers, and --threshold FRACTION, --trials N, --seed S (and crossover_rounds'
// --order-evidence P and --pool FILE) in any place.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "model/comparison.hpp"

namespace benchkit::bench {

struct SimulationArgs {
  std::vector<std::string> positional;
  double threshold = 0.0;
  int trials = 0;
  unsigned long long seed = 1;
  double order_evidence = model::kOrderEvidence;
  std::string pool;  // empty: none
};

// `threshold` and `trials` when not given.
inline SimulationArgs parse_simulation_args(int argc, char** argv, double threshold, int trials) {
  SimulationArgs args;
  args.threshold = threshold;
  args.trials = trials;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if ((word == "--threshold" || word == "--trials" || word == "--seed" ||
         word == "--order-evidence" || word == "--pool") &&
        i + 1 < argc) {
      const char* value = argv[++i];
      if (word == "--order-evidence") args.order_evidence = std::atof(value);
      if (word == "--pool") args.pool = value;
      if (word == "--threshold") args.threshold = std::atof(value);
      if (word == "--trials") args.trials = std::atoi(value);
      if (word == "--seed") args.seed = std::strtoull(value, nullptr, 10);
    } else {
      args.positional.push_back(word);
    }
  }
  return args;
}

}  // namespace benchkit::bench
