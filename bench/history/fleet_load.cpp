// History at fleet scale on PostgreSQL (issue 38, item 6; docs/history.md, "Fleet scale"). The
// writes go through session::record_run, the path of --record and `history add`; only the checks
// and the sizes are read with SQL of their own.
//
//   benchkit_fleet_load writers URL [WRITERS RUNS BENCHMARKS]   (default 16 1000 100)
//     WRITERS threads, each with its own connection, record RUNS runs of BENCHMARKS benchmarks
//     at once; then the counts of runs and summary rows must match exactly (exit 1 if not), and
//     the wall time and the database's size per stored run are printed.
//   benchkit_fleet_load fill URL [BENCHMARKS COMMITS [FIRST]]   (default 10000 1000 0)
//     a history of COMMITS runs of BENCHMARKS benchmarks (one machine, branch main), a step of
//     +20% at the middle commit for every tenth benchmark; prints the fill time and the sizes.
//     URL may also be a SQLite file (docs/history.md: a trend of 1,000 x 500 on SQLite); its
//     size is then the file's.
//   benchkit_fleet_load candidate FILE [BENCHMARKS]             (default 10000)
//     writes a new run's result file (a commit not in the history) for `history add` + `check`.
//
// bench/history/fleet.sh starts a throwaway server, runs these and times the benchkit commands.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "formats/result_json.hpp"
#include "session/history.hpp"
#include "store/open_store.hpp"
#include "store/postgres_store.hpp"
#include "support/history_runs.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::size_t argument(int argc, char** argv, int index, std::size_t fallback) {
  return argc > index ? std::strtoull(argv[index], nullptr, 10) : fallback;
}

// Distinct, ordered dates an hour apart from 2025-01-01 (28-day months keep the text simple).
std::string date_of(std::size_t hour) {
  return fmt::format("2025-{:02}-{:02}T{:02}:00:00Z", 1 + hour / (28 * 24), 1 + hour / 24 % 28,
                     hour % 24);
}

// The run `template_run` as it would be measured at `commit`: every time scaled by `scale`
// (benchmark i by scale(i)), so that each commit's run is a new result with a new identity,
// without recomputing the estimates of thousands of benchmarks.
template <class Scale>
benchkit::RunResult at_commit(benchkit::RunResult run, const std::string& commit,
                              const std::string& date, Scale scale) {
  run.context.git_commit = commit;
  run.context.date = date;
  for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
    benchkit::BenchmarkResult& benchmark = run.benchmarks[i];
    const double factor = scale(i);
    for (benchkit::Sample& sample : benchmark.samples) sample.ns *= factor;
    for (benchkit::Estimate* estimate : {&benchmark.estimates.median, &benchmark.estimates.mean}) {
      estimate->value *= factor;
      estimate->lower *= factor;
      estimate->upper *= factor;
    }
    for (double* value : {&benchmark.estimates.min, &benchmark.estimates.max,
                          &benchmark.estimates.stddev, &benchmark.estimates.mad}) {
      *value *= factor;
    }
  }
  return run;
}

void print_sizes(const std::string& url, std::size_t runs) {
  if (!benchkit::store::is_postgresql_url(url)) {
    const auto bytes = static_cast<double>(std::filesystem::file_size(url));
    fmt::print("database: {:.1f} MiB, {:.1f} KiB per stored run (SQLite file {})\n",
               bytes / 1048576.0, bytes / 1024.0 / static_cast<double>(runs), url);
    return;
  }
  pqxx::connection connection(url);
  pqxx::work work(connection);
  const auto database = work.exec1("SELECT pg_database_size(current_database())")[0].as<double>();
  fmt::print("database: {:.1f} MiB, {:.1f} KiB per stored run\n", database / 1048576.0,
             database / 1024.0 / static_cast<double>(runs));
  for (const char* table : {"runs", "summaries", "run_tags", "series_runs"}) {
    const auto row = work.exec_params1(
        "SELECT pg_total_relation_size($1::regclass), pg_relation_size($1::regclass),"
        " pg_indexes_size($1::regclass)",
        std::string(table));
    fmt::print(
        "  {:<11} total {:>8.1f} MiB ({:.1f} KiB per run): table {:.1f} MiB, indexes "
        "{:.1f} MiB\n",
        table, row[0].as<double>() / 1048576.0,
        row[0].as<double>() / 1024.0 / static_cast<double>(runs), row[1].as<double>() / 1048576.0,
        row[2].as<double>() / 1048576.0);
  }
}

int writers(const std::string& url, std::size_t writer_count, std::size_t runs,
            std::size_t benchmarks) {
  std::atomic<std::size_t> failures{0};
  std::atomic<std::size_t> added{0};
  std::vector<std::thread> threads;
  // Each writer's run is made once; every one of its runs is that run at another commit (a new
  // identity), made in the loop: a copy of 100 benchmarks, nothing beside the store's work.
  std::vector<benchkit::RunResult> bases;
  for (std::size_t w = 0; w < writer_count; ++w) {
    bases.push_back(benchkit::testing::made_run({.host = fmt::format("runner-{}", w),
                                                 .benchmarks = benchmarks,
                                                 .samples = 20,
                                                 .seed = w + 1}));
  }
  const auto start = Clock::now();
  for (std::size_t w = 0; w < writer_count; ++w) {
    threads.emplace_back([&, w] {
      auto store = benchkit::store::open_history(url);
      if (!store) {
        fmt::print(stderr, "writer {}: {}\n", w, store.error().message);
        ++failures;
        return;
      }
      for (std::size_t i = 0; i < runs; ++i) {
        benchkit::RunResult run = bases[w];
        run.context.git_commit = fmt::format("w{}-{}", w, i);
        run.context.date = date_of(i);
        const auto recorded = benchkit::session::record_run(**store, run);
        if (!recorded) {
          fmt::print(stderr, "writer {}: {}\n", w, recorded.error().message);
          ++failures;
          return;
        }
        added += recorded->added ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const double wall = seconds_since(start);
  const std::size_t expected_runs = writer_count * runs;
  pqxx::connection connection(url);
  pqxx::work work(connection);
  const auto stored_runs = work.exec1("SELECT count(*) FROM runs")[0].as<std::size_t>();
  const auto stored_rows = work.exec1("SELECT count(*) FROM summaries")[0].as<std::size_t>();
  const auto packed_runs = work.exec1("SELECT count(*) FROM series_runs")[0].as<std::size_t>();
  const auto short_runs = work.exec1(
                                  "SELECT count(*) FROM runs r WHERE r.benchmark_count <>"
                                  " (SELECT count(*) FROM summaries s WHERE s.run_id = r.id)")[0]
                              .as<std::size_t>();
  work.commit();
  fmt::print("{} writers x {} runs x {} benchmarks: {:.1f} s wall, {:.0f} runs/s, {:.0f} rows/s\n",
             writer_count, runs, benchmarks, wall, static_cast<double>(expected_runs) / wall,
             static_cast<double>(expected_runs * benchmarks) / wall);
  fmt::print(
      "stored: {} runs (expected {}, {} reported added), {} summary rows (expected {}), "
      "{} runs whose row count differs from their benchmark count, {} packed runs (expected "
      "{})\n",
      stored_runs, expected_runs, added.load(), stored_rows, expected_runs * benchmarks, short_runs,
      packed_runs, expected_runs);
  print_sizes(url, stored_runs);
  const bool whole = failures == 0 && stored_runs == expected_runs && added == expected_runs &&
                     stored_rows == expected_runs * benchmarks && short_runs == 0 &&
                     packed_runs == expected_runs;
  fmt::print("{}\n", whole ? "nothing lost" : "LOST OR FAILED WRITES");
  return whole ? 0 : 1;
}

benchkit::RunResult fleet_base(std::size_t benchmarks) {
  // Few samples: trend and check read the summary rows (check also the checked run's samples).
  return benchkit::testing::made_run(
      {.host = "fleet-runner", .benchmarks = benchmarks, .samples = 10, .seed = 7});
}

// Every tenth benchmark is 20% slower from the middle commit on; the rest wobble by about 1%.
double fleet_scale(std::size_t commit, std::size_t commits, std::size_t benchmark) {
  const double noise = benchkit::testing::wobble(commit * 7919 + 1, benchmark);
  return noise * (benchmark % 10 == 0 && commit >= commits / 2 ? 1.2 : 1.0);
}

// Commits FIRST.. of the history; a commit already recorded (by a second fill process working
// from another FIRST, to use both cores) is skipped.
int fill(const std::string& url, std::size_t benchmarks, std::size_t commits, std::size_t first) {
  auto store = benchkit::store::open_history(url);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 2;
  }
  const benchkit::RunResult base = fleet_base(benchmarks);
  const auto start = Clock::now();
  double recording = 0;
  std::size_t skipped = 0;
  for (std::size_t commit = first; commit < commits; ++commit) {
    const benchkit::RunResult run =
        at_commit(base, fmt::format("{:040x}", commit + 1), date_of(commit),
                  [&](std::size_t i) { return fleet_scale(commit, commits, i); });
    const auto recording_start = Clock::now();
    const auto recorded = benchkit::session::record_run(**store, run);
    recording += seconds_since(recording_start);
    if (!recorded) {
      fmt::print(stderr, "commit {}: {}\n", commit, recorded.error().message);
      return 1;
    }
    skipped += recorded->added ? 0 : 1;
    if ((commit + 1) % 100 == 0) {
      fmt::print("  {} runs, {:.0f} s\n", commit + 1, seconds_since(start));
      std::fflush(stdout);
    }
  }
  fmt::print(
      "filled commits {}..{} x {} benchmarks in {:.1f} s ({:.1f} s in record_run, {} "
      "already recorded)\n",
      first, commits - 1, benchmarks, seconds_since(start), recording, skipped);
  store->reset();  // closed first: SQLite folds its write-ahead log into the file
  print_sizes(url, commits);
  return 0;
}

int candidate(const std::string& file, std::size_t benchmarks) {
  const benchkit::RunResult run =
      at_commit(fleet_base(benchmarks), std::string(40, 'f'), "2026-06-01T00:00:00Z",
                [](std::size_t i) { return i % 100 == 5 ? 1.5 : 1.0; });
  std::ofstream(file) << benchkit::formats::to_json(run);
  fmt::print("wrote {} ({} benchmarks, every hundredth from the 5th 50% slower)\n", file,
             benchmarks);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (argc < 3 || (mode != "writers" && mode != "fill" && mode != "candidate")) {
    fmt::print(stderr,
               "usage: benchkit_fleet_load writers URL [WRITERS RUNS BENCHMARKS]\n"
               "       benchkit_fleet_load fill URL [BENCHMARKS COMMITS [FIRST]]\n"
               "       benchkit_fleet_load candidate FILE [BENCHMARKS]\n");
    return 2;
  }
  try {
    if (mode == "writers") {
      return writers(argv[2], argument(argc, argv, 3, 16), argument(argc, argv, 4, 1000),
                     argument(argc, argv, 5, 100));
    }
    if (mode == "fill") {
      return fill(argv[2], argument(argc, argv, 3, 10000), argument(argc, argv, 4, 1000),
                  argument(argc, argv, 5, 0));
    }
    return candidate(argv[2], argument(argc, argv, 3, 10000));
  } catch (const std::exception& failure) {
    fmt::print(stderr, "benchkit_fleet_load: {}\n", failure.what());
    return 2;
  }
}
