// The command line shared by the seeded verdict simulations (far_rounds, crossover_rounds):
// positional numbers, and --threshold FRACTION, --trials N, --seed S (and crossover_rounds'
// --order-evidence P) in any place.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

namespace benchkit::bench {

struct SimulationArgs {
  std::vector<std::string> positional;
  double threshold = 0.0;
  int trials = 0;
  unsigned long long seed = 1;
  double order_evidence = 0.05;
};

// `defaults` holds the threshold and trials when not given.
inline SimulationArgs parse_simulation_args(int argc, char** argv, SimulationArgs defaults) {
  SimulationArgs args = defaults;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if ((word == "--threshold" || word == "--trials" || word == "--seed" ||
         word == "--order-evidence") &&
        i + 1 < argc) {
      const char* value = argv[++i];
      if (word == "--order-evidence") args.order_evidence = std::atof(value);
      if (word == "--threshold") args.threshold = std::atof(value);
      if (word == "--trials") args.trials = std::atoi(value);
      if (word == "--seed") args.seed = std::strtoull(value, nullptr, 10);
    } else if (word == "--pool" && i + 1 < argc) {
      ++i;  // crossover_rounds reads it
    } else {
      args.positional.push_back(word);
    }
  }
  return args;
}

}  // namespace benchkit::bench
