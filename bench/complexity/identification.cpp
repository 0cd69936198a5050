// Identification rates of benchkit's complexity choice and Google Benchmark's on the same seeded
// synthetic sweeps (the setting of tests/stats/complexity_test.cpp, more trials).
#include <cmath>
#include <cstdio>
#include <vector>
#include "stats/complexity.hpp"
#include "stats/random.hpp"
#include "stats/summary.hpp"
using namespace benchkit::stats;
struct Normal {
  Xoshiro256 r;
  double next() {
    double u1 = r.uniform(), u2 = r.uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};
int main(int argc, char** argv) {
  const int trials = 1000;
  const double low = argc > 1 ? atof(argv[1]) : 8, high = argc > 2 ? atof(argv[2]) : 32768;
  const double noise = argc > 3 ? atof(argv[3]) : 0.05;
  for (std::size_t samples : {1, 30}) {
    for (Growth g : kBuiltInGrowths) {
      Normal draw{Xoshiro256(1000 + (int)g + samples)};
      int ours = 0, gb = 0, ambiguous = 0;
      for (int t = 0; t < trials; ++t) {
        std::vector<SizeSamples> sizes;
        std::vector<double> ns, all_times, all_n;
        for (double n = low; n <= high; n *= 2) {
          SizeSamples s;
          s.n = n;
          for (std::size_t i = 0; i < samples; ++i) {
            double v = 3 * growth_term(g, n) * (1 + noise * draw.next());
            s.values.push_back(v > 0 ? v : 0);
            all_n.push_back(n);
            all_times.push_back(s.values.back());
          }
          sizes.push_back(s);
        }
        ComplexityRequest req;
        req.resamples = 0;
        ComplexityFit fit = fit_complexity(sizes, req);
        ours += fit.best().growth == g;
        ambiguous += !fit.indistinguishable.empty();
        gb += gbench_choice(all_n, all_times) == g;  // GB fits every repetition, as it does
      }
      std::printf(
          "samples/size %2zu class %d: benchkit %.1f%% (ambiguous %.1f%%), Google Benchmark's rule "
          "%.1f%%\n",
          samples, (int)g, 100.0 * ours / trials, 100.0 * ambiguous / trials, 100.0 * gb / trials);
    }
  }
}
