// How fast the history is, on the figures of issue 17: recording a run of 1,000 benchmarks x 100
// samples into SQLite (goal: at most 0.5 s), and `history trend` over 1,000 benchmarks x 500
// commits (goal: at most 2 s), both wall time on a real file, each repeated and the median and
// the slowest printed. The trend is also split into its steps (the query, points per commit,
// change points, the text), each timed in CPU seconds too, to show where the time goes on a
// loaded machine.
//
// Usage: benchkit_history_bench [FOLDER] [--reuse]
//   --reuse: keep FOLDER/trend.db when it already holds the 500 runs (filling it takes minutes)
#include <fmt/format.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "report/trend.hpp"
#include "session/history.hpp"
#include "store/sqlite_store.hpp"
#include "support/history_runs.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double median_of(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void print(const char* what, std::vector<double> times, double goal) {
  std::sort(times.begin(), times.end());
  fmt::print("{}: median {:.3f} s, slowest {:.3f} s of {} (goal <= {} s)\n", what,
             times[times.size() / 2], times.back(), times.size(), goal);
}

std::unique_ptr<benchkit::store::Store> open(const std::string& path, bool keep = false) {
  if (!keep) {
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
  }
  auto store = benchkit::store::open_sqlite_store(path);
  if (!store) throw std::runtime_error(store.error().message);
  return std::move(*store);
}

void time_recording(const std::string& folder) {
  auto store = open(folder + "/record.db");
  std::vector<double> times;
  for (std::uint64_t repeat = 0; repeat < 5; ++repeat) {
    const auto run = benchkit::testing::made_run(
        {.commit = fmt::format("c{}", repeat), .benchmarks = 1000, .samples = 100, .seed = repeat});
    const auto start = Clock::now();
    const auto recorded = benchkit::session::record_run(*store, run);
    times.push_back(seconds_since(start));
    if (!recorded) throw std::runtime_error(recorded.error().message);
  }
  print("record 1,000 benchmarks x 100 samples", times, 0.5);
}

constexpr std::size_t kCommits = 500;

void fill_trend(benchkit::store::Store& store) {
  const auto fill = Clock::now();
  for (std::uint64_t commit = 0; commit < kCommits; ++commit) {
    // Few samples: trend reads the summary rows only, and the fill stays short.
    const auto run = benchkit::testing::made_run(
        {.commit = fmt::format("{:040x}", commit),
         .date = fmt::format("2026-{:02}-{:02}T{:02}:00:00Z", 1 + commit / 48 % 12,
                             1 + commit / 2 % 24, commit % 24),
         .benchmarks = 1000,
         .samples = 5,
         .seed = commit});
    if (const auto recorded = benchkit::session::record_run(store, run); !recorded) {
      throw std::runtime_error(recorded.error().message);
    }
  }
  fmt::print("(filled {} runs x 1,000 benchmarks in {:.1f} s)\n", kCommits, seconds_since(fill));
}

// The steps of session::history_trend and the console text, one after the other, each timed.
void time_trend_steps(benchkit::store::Store& store) {
  struct Step {
    const char* name;
    std::vector<double> wall, cpu;
  };
  std::vector<Step> steps = {{"query", {}, {}},
                             {"points per commit", {}, {}},
                             {"change points", {}, {}},
                             {"console text", {}, {}}};
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::size_t step = 0;
    auto start = Clock::now();
    double cpu = cpu_seconds();
    auto lap = [&] {
      steps[step].wall.push_back(seconds_since(start));
      steps[step].cpu.push_back(cpu_seconds() - cpu);
      ++step;
      start = Clock::now();
      cpu = cpu_seconds();
    };
    const auto runs = store.list({});
    if (!runs || runs->empty()) throw std::runtime_error("no runs");
    const auto rows = store.series({.machine = runs->back().machine, .branch = "main"});
    if (!rows) throw std::runtime_error(rows.error().message);
    lap();
    auto series = benchkit::session::points_of(*rows, [](const std::string&) { return true; });
    lap();
    const benchkit::analysis::Trend trend = benchkit::session::trend_of(
        {.machine = runs->back().machine, .branch = "main", .benchmarks = std::move(series)});
    lap();
    const std::string text =
        benchkit::report::render_trend(trend, benchkit::report::Format::console);
    if (text.empty()) throw std::runtime_error("empty trend");
    lap();
  }
  for (const Step& step : steps) {
    fmt::print("  {:<18} median {:.3f} s wall, {:.3f} s CPU\n", step.name, median_of(step.wall),
               median_of(step.cpu));
  }
}

void time_trend(const std::string& folder, bool reuse) {
  const std::string path = folder + "/trend.db";
  auto store = open(path, reuse);
  const auto held = store->list({});
  if (!held) throw std::runtime_error(held.error().message);
  if (held->size() != kCommits) {
    store = open(path);
    fill_trend(*store);
  }
  std::vector<double> times;
  std::vector<double> cpu;
  std::size_t points = 0;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = Clock::now();
    const double cpu_start = cpu_seconds();
    const auto trend = benchkit::session::history_trend(*store, {.pattern = "bench"});
    if (!trend) throw std::runtime_error(trend.error().message);
    const std::string text =
        benchkit::report::render_trend(*trend, benchkit::report::Format::console);
    times.push_back(seconds_since(start));
    cpu.push_back(cpu_seconds() - cpu_start);
    points = 0;
    for (const auto& benchmark : trend->benchmarks) points += benchmark.points.size();
    if (text.empty()) throw std::runtime_error("empty trend");
  }
  print(fmt::format("trend over {} points (query, change points, console text)", points).c_str(),
        times, 2.0);
  fmt::print("  (CPU time: median {:.3f} s)\n", median_of(cpu));
  time_trend_steps(*store);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string folder = argc > 1 ? argv[1] : "/tmp";
  const bool reuse = argc > 2 && std::string(argv[2]) == "--reuse";
  try {
    if (!reuse) time_recording(folder);
    time_trend(folder, reuse);
  } catch (const std::exception& error) {
    fmt::print(stderr, "benchkit_history_bench: {}\n", error.what());
    return 1;
  }
  return 0;
}
