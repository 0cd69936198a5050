// How fast the history is, on the figures of issue 17: recording a run of 1,000 benchmarks x 100
// samples into SQLite (goal: at most 0.5 s), and `history trend` over 1,000 benchmarks x 500
// commits (goal: at most 2 s), both wall time on a real file, each repeated and the median and
// the slowest printed.
#include <fmt/format.h>

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

void print(const char* what, std::vector<double> times, double goal) {
  std::sort(times.begin(), times.end());
  fmt::print("{}: median {:.3f} s, slowest {:.3f} s of {} (goal <= {} s)\n", what,
             times[times.size() / 2], times.back(), times.size(), goal);
}

std::unique_ptr<benchkit::store::Store> open(const std::string& path) {
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
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

void time_trend(const std::string& folder) {
  auto store = open(folder + "/trend.db");
  const auto fill = Clock::now();
  for (std::uint64_t commit = 0; commit < 500; ++commit) {
    // Few samples: trend reads the summary rows only, and the fill stays short.
    const auto run = benchkit::testing::made_run(
        {.commit = fmt::format("{:040x}", commit),
         .date = fmt::format("2026-{:02}-{:02}T{:02}:00:00Z", 1 + commit / 48 % 12,
                             1 + commit / 2 % 24, commit % 24),
         .benchmarks = 1000,
         .samples = 5,
         .seed = commit});
    if (const auto recorded = benchkit::session::record_run(*store, run); !recorded) {
      throw std::runtime_error(recorded.error().message);
    }
  }
  fmt::print("(filled 500 runs x 1,000 benchmarks in {:.1f} s)\n", seconds_since(fill));
  std::vector<double> times;
  std::size_t points = 0;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = Clock::now();
    const auto trend = benchkit::session::history_trend(*store, {.pattern = "bench"});
    if (!trend) throw std::runtime_error(trend.error().message);
    const std::string text =
        benchkit::report::render_trend(*trend, benchkit::report::Format::console);
    times.push_back(seconds_since(start));
    points = 0;
    for (const auto& benchmark : trend->benchmarks) points += benchmark.points.size();
    if (text.empty()) throw std::runtime_error("empty trend");
  }
  print(fmt::format("trend over {} points (query, change points, console text)", points).c_str(),
        times, 2.0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string folder = argc > 1 ? argv[1] : "/tmp";
  try {
    time_recording(folder);
    time_trend(folder);
  } catch (const std::exception& error) {
    fmt::print(stderr, "benchkit_history_bench: {}\n", error.what());
    return 1;
  }
  return 0;
}
