// Simulated histories with the noise of real benchkit runs, and the score of a change-point
// method on them. Header-only: the unit test (change_points_test.cpp) and the longer study
// (bench/stats/change_points_study.cpp) use the same series.
//
// The noise: tests/fixtures/stats/history_noise.csv holds, per benchmark, the median and 95%
// interval of each of many real runs (make_history_noise.py). A simulated point draws one run of
// one benchmark at random and scales it to the series' level at that point: its deviation from
// the benchmark's typical time and its interval stay paired, as they were measured, so a run that
// was disturbed keeps the interval it had.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/change_points.hpp"
#include "stats/random.hpp"
#include "stats/summary.hpp"

namespace benchkit::stats::simulation {

// One benchmark's runs, relative to the median of its run medians (1 = typical).
struct NoisePool {
  std::string name;
  std::vector<IntervalPoint> runs;
  double spread = 0.0;  // standard deviation of the log run medians
};

inline std::vector<NoisePool> load_noise(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open " + path + "; see make_history_noise.py");
  std::map<std::string, std::vector<IntervalPoint>> runs;
  std::vector<std::string> order;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string name;
    std::size_t at = 0;
    if (line[0] == '"') {
      const std::size_t close = line.find('"', 1);
      name = line.substr(1, close - 1);
      at = close + 2;
    } else {
      const std::size_t comma = line.find(',');
      name = line.substr(0, comma);
      at = comma + 1;
    }
    std::stringstream rest(line.substr(at));
    std::string run, value, lower, upper;
    std::getline(rest, run, ',');
    std::getline(rest, value, ',');
    std::getline(rest, lower, ',');
    std::getline(rest, upper, ',');
    if (!runs.count(name)) order.push_back(name);
    runs[name].push_back({std::stod(value), std::stod(lower), std::stod(upper)});
  }
  std::vector<NoisePool> pools;
  for (const std::string& name : order) {
    NoisePool pool;
    pool.name = name;
    std::vector<double> values;
    for (const auto& p : runs[name]) values.push_back(p.value);
    const double typical = median(values);
    std::vector<double> logs;
    for (const auto& p : runs[name]) {
      pool.runs.push_back({p.value / typical, p.lower / typical, p.upper / typical});
      logs.push_back(std::log(p.value / typical));
    }
    pool.spread = stddev(logs);
    pools.push_back(std::move(pool));
  }
  return pools;
}

// The pool with its run-to-run spread scaled to `spread` (sd of the log medians): each run's log
// deviation from the typical time and its interval's log half-widths are multiplied by the same
// factor, so the shape of the noise (its tails, how often a run is disturbed, how its interval
// relates to its deviation) stays that of the real runs. The fixture was measured on a loaded
// shared VM (a sd of 6-99% from run to run, for several benchmarks a quarter of the runs in a slow
// state); a CI runner
// of its own is nearer 1%.
inline NoisePool rescaled(const NoisePool& pool, double spread) {
  NoisePool out = pool;
  const double factor = pool.spread > 0 ? spread / pool.spread : 1.0;
  for (IntervalPoint& run : out.runs) {
    const double value = std::exp(std::log(run.value) * factor);
    run.lower = value * std::exp((std::log(run.lower) - std::log(run.value)) * factor);
    run.upper = value * std::exp((std::log(run.upper) - std::log(run.value)) * factor);
    run.value = value;
  }
  out.spread = spread;
  return out;
}

inline std::vector<NoisePool> rescaled(const std::vector<NoisePool>& pools, double spread) {
  std::vector<NoisePool> out;
  for (const auto& pool : pools) out.push_back(rescaled(pool, spread));
  return out;
}

// A series of `length` points with steps: levels multiply by (1 + size) at each step place.
struct Step {
  std::size_t index = 0;  // first point of the new level
  double size = 0.0;      // relative: +0.05 is 5% slower from here on
};

inline std::vector<IntervalPoint> make_series(const NoisePool& pool, std::size_t length,
                                              const std::vector<Step>& steps,
                                              Xoshiro256& generator) {
  std::vector<IntervalPoint> series(length);
  double level = 1000.0;  // ns: any scale, the methods are scale-free
  std::size_t next = 0;
  for (std::size_t i = 0; i < length; ++i) {
    while (next < steps.size() && steps[next].index == i) level *= 1.0 + steps[next++].size;
    const IntervalPoint& run = pool.runs[generator.below(pool.runs.size())];
    series[i] = {level * run.value, level * run.lower, level * run.upper};
  }
  return series;
}

// Three steps of `size` in 200 points, at places drawn around 50, 100 and 150 (±10): up, up,
// down, so that both directions and a return are in every series.
inline std::vector<Step> three_steps(double size, Xoshiro256& generator) {
  std::vector<Step> steps;
  const double signs[] = {1.0, 1.0, -1.0};
  for (int k = 0; k < 3; ++k) {
    const std::size_t centre = 50 * static_cast<std::size_t>(k + 1);
    steps.push_back({centre - 10 + generator.below(21), signs[k] * size});
  }
  return steps;
}

// Detections matched to true steps within ±tolerance (each step and detection used once).
struct Score {
  std::size_t steps = 0;
  std::size_t found = 0;       // steps matched by a detection
  std::size_t detections = 0;  // all detections
  std::size_t false_detections = 0;
  double recall() const { return steps ? double(found) / double(steps) : 1.0; }
  double precision() const {
    return detections ? double(detections - false_detections) / double(detections) : 1.0;
  }
  void add(const Score& other) {
    steps += other.steps;
    found += other.found;
    detections += other.detections;
    false_detections += other.false_detections;
  }
};

inline Score score(const std::vector<Step>& steps, const std::vector<std::size_t>& detected,
                   std::size_t tolerance = 1) {
  Score s;
  s.steps = steps.size();
  s.detections = detected.size();
  std::vector<bool> used(detected.size(), false);
  for (const Step& step : steps) {
    for (std::size_t d = 0; d < detected.size(); ++d) {
      const std::size_t distance =
          detected[d] > step.index ? detected[d] - step.index : step.index - detected[d];
      if (!used[d] && distance <= tolerance) {
        used[d] = true;
        ++s.found;
        break;
      }
    }
  }
  s.false_detections = static_cast<std::size_t>(std::count(used.begin(), used.end(), false));
  return s;
}

inline std::vector<double> values_of(const std::vector<IntervalPoint>& series) {
  std::vector<double> values;
  for (const auto& p : series) values.push_back(p.value);
  return values;
}

}  // namespace benchkit::stats::simulation
