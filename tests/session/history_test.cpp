// The history's orchestration on a real SQLite file: recording, points per commit, trend,
// export and import, prune, the snapshot.
#include "session/history.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <functional>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "store/history_backends.hpp"
#include "store/open_store.hpp"
#include "store/sqlite_store.hpp"
#include "support/history_runs.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::made_run;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class History : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-session-history-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    store_ = open("history.db");
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::unique_ptr<store::Store> open(const std::string& name) {
    auto opened = store::open_sqlite_store(folder_ + "/" + name);
    EXPECT_TRUE(opened.ok()) << opened.error().message;
    return std::move(*opened);
  }
  void record(const benchkit::testing::MadeRun& made) {
    const auto recorded = record_run(*store_, made_run(made));
    ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  }
  std::string folder_;
  std::unique_ptr<store::Store> store_;
};

TEST(MachineId, ARunThatSaysNothingOfItsMachineIsUnknown) {
  // A hyperfine export holds no machine facts: its runs are of an unknown machine, not of a hash
  // of nothing that reads like a real one.
  EXPECT_EQ(machine_id(Context{}), "unknown");
  Context known;
  known.hostname = "LEGION";
  EXPECT_EQ(machine_id(known).size(), 16u);
}

TEST_F(History, RecordingTheSameRunTwiceKeepsOne) {
  const RunResult run = made_run({});
  EXPECT_TRUE(record_run(*store_, run)->added);
  const auto again = record_run(*store_, run);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->added);
  EXPECT_EQ(store_->list({})->size(), 1u);
}

// A result file written from a run and added later is that same run: its identity survives
// the file's round trip.
TEST_F(History, AFileOfARecordedRunIsThatRun) {
  const RunResult run = made_run({.samples = 40});
  const std::string file = folder_ + "/run.json";
  ASSERT_TRUE(store::write_file_atomically(file, formats::to_json(run)).ok());
  const auto first = add_result_files(*store_, {file});
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(first->front().added);
  EXPECT_FALSE(record_run(*store_, run)->added);
  EXPECT_FALSE(add_result_files(*store_, {file})->front().added);
}

TEST_F(History, AddStopsAtAFileItCannotRead) {
  const std::string good = folder_ + "/good.json";
  ASSERT_TRUE(store::write_file_atomically(good, formats::to_json(made_run({}))).ok());
  const std::string bad = folder_ + "/bad.json";
  ASSERT_TRUE(store::write_file_atomically(bad, "{not json").ok());
  const auto added = add_result_files(*store_, {good, bad});
  ASSERT_FALSE(added.ok());
  EXPECT_THAT(added.error().message, HasSubstr(bad));
  EXPECT_EQ(store_->list({})->size(), 1u);
}

TEST_F(History, APointIsTheNewestRunOfItsCommit) {
  std::vector<store::SeriesRun> runs;
  auto row = [&](std::string run, std::string commit, std::string name, double median) {
    if (runs.empty() || runs.back().run_id != run) {
      runs.push_back({.run_id = std::move(run), .commit = std::move(commit)});
    }
    store::SummaryRow one;
    one.benchmark = std::move(name);
    one.median = median;
    runs.back().summaries.push_back(one);
  };
  row("r1", "a", "x", 1);
  row("r1", "a", "skipped", 1);
  row("r2", "a", "x", 2);  // a second run of commit a: replaces r1's point
  row("r3", "b", "x", 3);
  row("r4", "", "x", 4);  // no commit: its own point
  row("r5", "", "x", 5);
  row("r6", "a", "x", 6);  // commit a again after b: a new point
  const HistorySeries series = points_of(runs, [](const std::string& name) { return name == "x"; });
  ASSERT_EQ(series.size(), 1u);
  std::vector<std::string> points;
  for (const HistoryPoint& point : series.at("x")) points.push_back(point.run_id);
  EXPECT_THAT(points, ElementsAre("r2", "r3", "r4", "r5", "r6"));
}

TEST_F(History, TrendFollowsTheNewestRunsMachineAndBranch) {
  record({.commit = "c1", .date = "2026-11-01T00:00:00Z", .ns = 100, .seed = 1});
  record({.commit = "c2", .date = "2026-11-02T00:00:00Z", .ns = 110, .seed = 2});
  record({.commit = "t1", .branch = "topic", .date = "2026-11-02T12:00:00Z", .seed = 3});
  record({.commit = "c3", .date = "2026-11-03T00:00:00Z", .ns = 110, .seed = 4});
  const auto trend = history_trend(*store_, {.pattern = "0000$"});
  ASSERT_TRUE(trend.ok()) << trend.error().message;
  EXPECT_EQ(trend->branch, "main");
  ASSERT_EQ(trend->benchmarks.size(), 1u);
  const auto& points = trend->benchmarks[0].points;
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].commit, "c1");
  EXPECT_FALSE(points[0].change.has_value());
  EXPECT_NEAR(*points[1].change, 0.10, 0.01);
  EXPECT_NEAR(*points[2].change, 0.0, 0.01);
  const auto topic = history_trend(*store_, {.branch = "topic", .pattern = ""});
  ASSERT_TRUE(topic.ok());
  EXPECT_EQ(topic->benchmarks.size(), 2u);
  EXPECT_EQ(topic->benchmarks[0].points.size(), 1u);
}

// stream_trend (what history_trend and `history trend` use) makes the points and marks that
// points_of and trend_of make: a commit's newer run replaces its point, a run without a commit
// is a point of its own, a commit met again after another is a new point, and the change point
// of a step is marked at the same place.
TEST_F(History, StreamedTrendIsTheTrendOfTheSeries) {
  for (int i = 0; i < 24; ++i) {
    record({.commit = i == 9 || i == 10 ? "" : fmt::format("c{:02}", i == 20 ? 3 : i),
            .date = fmt::format("2026-11-{:02}T00:00:00Z", i + 1),
            .ns = i < 14 ? 100.0 : 125.0,
            .seed = static_cast<std::uint64_t>(i)});
    if (i == 5) {
      record({.commit = "c05", .date = "2026-11-06T00:00:01Z", .ns = 101, .seed = 77});
    }
  }
  const auto series = load_series(*store_, {.pattern = "bench"});
  ASSERT_TRUE(series.ok()) << series.error().message;
  const analysis::Trend expected = trend_of(*series);
  std::vector<std::string> order;
  analysis::Trend streamed;
  const auto done = stream_trend(
      *store_, {.pattern = "bench"}, [&](const analysis::Trend& head) { streamed = head; },
      [&](analysis::BenchmarkTrend& benchmark) {
        order.push_back(benchmark.name);
        streamed.benchmarks.push_back(benchmark);
      });
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_THAT(order, ElementsAre("bench_0000", "bench_0001"));
  EXPECT_EQ(streamed.machine, expected.machine);
  EXPECT_EQ(streamed.branch, "main");
  ASSERT_EQ(streamed.benchmarks.size(), expected.benchmarks.size());
  std::size_t change_points = 0;
  for (std::size_t b = 0; b < expected.benchmarks.size(); ++b) {
    const auto& want = expected.benchmarks[b].points;
    const auto& got = streamed.benchmarks[b].points;
    ASSERT_EQ(got.size(), 24u);  // 25 runs: c05 twice in a row is one point
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].run_id, want[i].run_id) << b << " " << i;
      EXPECT_EQ(got[i].commit, want[i].commit);
      EXPECT_EQ(got[i].date, want[i].date);
      EXPECT_EQ(got[i].median, want[i].median);
      EXPECT_EQ(got[i].change, want[i].change);
      EXPECT_EQ(got[i].change_point, want[i].change_point);
      change_points += got[i].change_point ? 1 : 0;
    }
    EXPECT_EQ(got[5].date, "2026-11-06T00:00:01Z");  // the newer run of c05
  }
  EXPECT_EQ(change_points, 2u);  // the 25% step, in each benchmark
}

// Runs of different benchmarks (a benchmark added, one dropped, one renamed): the streamed trend,
// read from the packed runs (or, for one benchmark in eleven, its rows), is the series the rows
// give for any pattern.
TEST_F(History, StreamedTrendOfRunsOfDifferentBenchmarksIsTheirSeries) {
  for (int i = 0; i < 18; ++i) {
    RunResult run = made_run({.commit = fmt::format("c{:02}", i == 12 ? 4 : i),
                              .date = fmt::format("2026-11-{:02}T00:00:00Z", i + 1),
                              .benchmarks = i % 3 == 0   ? 10u
                                            : i % 3 == 1 ? 2u
                                                         : 3u,
                              .ns = i < 9 ? 100.0 : 120.0,
                              .seed = static_cast<std::uint64_t>(i)});
    if (i == 7) run.benchmarks[1].name = "renamed";
    ASSERT_TRUE(record_run(*store_, run).ok());
  }
  // "bench_000[2-9]" keeps none of the runs of two benchmarks: blocks with no row.
  for (const std::string pattern : {"", "bench_000[02]|renamed", "bench_000[2-9]", "bench_0009"}) {
    const auto series = load_series(*store_, {.pattern = pattern});
    ASSERT_TRUE(series.ok()) << series.error().message;
    const analysis::Trend expected = trend_of(*series);
    const auto streamed = history_trend(*store_, {.pattern = pattern});
    ASSERT_TRUE(streamed.ok()) << streamed.error().message;
    ASSERT_EQ(streamed->benchmarks.size(), expected.benchmarks.size()) << pattern;
    for (std::size_t b = 0; b < expected.benchmarks.size(); ++b) {
      EXPECT_EQ(streamed->benchmarks[b].name, expected.benchmarks[b].name);
      const auto& want = expected.benchmarks[b].points;
      const auto& got = streamed->benchmarks[b].points;
      ASSERT_EQ(got.size(), want.size()) << pattern << " " << b;
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].run_id, want[i].run_id);
        EXPECT_EQ(got[i].commit, want[i].commit);
        EXPECT_EQ(got[i].median, want[i].median);
        EXPECT_EQ(got[i].lower, want[i].lower);
        EXPECT_EQ(got[i].upper, want[i].upper);
        EXPECT_EQ(got[i].change_point, want[i].change_point);
      }
    }
  }
  const auto all = history_trend(*store_, {});
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->benchmarks.size(), 11u);  // bench_0000..0009 and renamed
  EXPECT_EQ(all->benchmarks[0].points.size(), 18u);
  EXPECT_EQ(all->benchmarks[9].points.size(), 6u);  // bench_0009: every third run
  EXPECT_EQ(all->benchmarks[10].name, "renamed");
  EXPECT_EQ(all->benchmarks[10].points.size(), 1u);
}

// Streamed as the command line streams it (each benchmark's text rendered, its points left in
// place and reused for the benchmarks of later batches): every point names its own run, commit
// and date, also where a reused point held another run's (benchmarks measured by different runs
// in successive batches) and where a commit's newer run replaces a point.
TEST_F(History, StreamedTextOfManyBatchesNamesEachPointsOwnRun) {
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(record_run(*store_, made_run({.commit = fmt::format("c{:02}", i == 9 ? 8 : i),
                                              .date = fmt::format("2026-11-{:02}T00:00:00Z", i + 1),
                                              .benchmarks = i % 3 == 0   ? 300u
                                                            : i % 3 == 1 ? 100u
                                                                         : 200u,
                                              .ns = 100.0 + i,
                                              .seed = static_cast<std::uint64_t>(i)}))
                    .ok());
  }
  const auto text_of = [](const analysis::BenchmarkTrend& benchmark) {
    std::string text = benchmark.name;
    for (const analysis::HistoryPoint& point : benchmark.points) {
      text += fmt::format(" {}/{}/{}/{}", point.run_id, point.commit, point.date, point.median);
    }
    return text;
  };
  const auto series = load_series(*store_, {});
  ASSERT_TRUE(series.ok()) << series.error().message;
  std::vector<std::string> expected;
  for (const analysis::BenchmarkTrend& benchmark : trend_of(*series).benchmarks) {
    expected.push_back(text_of(benchmark));
  }
  std::vector<std::string> texts;
  const auto done = stream_trend(
      *store_, {},
      TrendStream{
          .start = [](const analysis::Trend&) {},
          .render = [&](const analysis::BenchmarkTrend& benchmark,
                        std::string& text) { text = text_of(benchmark); },
          .each = [&](analysis::BenchmarkTrend&, std::string& text) { texts.push_back(text); }});
  ASSERT_TRUE(done.ok()) << done.error().message;
  ASSERT_EQ(texts.size(), 300u);
  EXPECT_EQ(texts, expected);
}

// The text of each benchmark is made by `render` (on the marking threads) and handed to `each`
// with its benchmark, in name order.
TEST_F(History, StreamedTrendHandsEachBenchmarkItsRenderedText) {
  for (int i = 0; i < 12; ++i) {
    record({.commit = fmt::format("c{:02}", i),
            .date = fmt::format("2026-11-{:02}T00:00:00Z", i + 1),
            .ns = i < 6 ? 100.0 : 130.0,
            .seed = static_cast<std::uint64_t>(i)});
  }
  std::atomic<int> rendered{0};
  std::vector<std::string> texts;
  std::string machine;
  const auto done = stream_trend(
      *store_, {.pattern = "bench"},
      TrendStream{.start = [&](const analysis::Trend& head) { machine = head.machine; },
                  .render =
                      [&](const analysis::BenchmarkTrend& benchmark, std::string& text) {
                        ++rendered;
                        EXPECT_EQ(text, "");
                        std::size_t marked = 0;
                        for (const auto& point : benchmark.points) marked += point.change_point;
                        text += fmt::format("{} {} {}", benchmark.name, benchmark.points.size(),
                                            marked);
                      },
                  .each =
                      [&](analysis::BenchmarkTrend& benchmark, std::string& text) {
                        EXPECT_THAT(text, ::testing::StartsWith(benchmark.name));
                        texts.push_back(text);
                      }});
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_FALSE(machine.empty());
  EXPECT_EQ(rendered.load(), 2);
  EXPECT_THAT(texts, ElementsAre("bench_0000 12 1", "bench_0001 12 1"));
}

TEST_F(History, TrendSaysWhatIsWrong) {
  EXPECT_THAT(history_trend(*store_, {}).error().message, HasSubstr("holds no run yet"));
  record({});
  const auto bad = history_trend(*store_, {.pattern = "(("});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("not a regular expression"));
  EXPECT_EQ(bad.error().kind, model::ErrorKind::usage);
}

TEST_F(History, ExportAndImportKeepEveryRunsIdentity) {
  record({.commit = "c1", .seed = 1});
  record({.commit = "c2", .seed = 2, .estimates = false});
  const auto file = export_runs(*store_, {});
  ASSERT_TRUE(file.ok()) << file.error().message;
  const std::string path = folder_ + "/history.json";
  ASSERT_TRUE(store::write_file_atomically(path, *file).ok());
  const auto other = open("other.db");
  const auto imported = import_runs(*other, path);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  EXPECT_EQ(*imported, 2u);
  EXPECT_EQ(*import_runs(*other, path), 0u);
  std::vector<std::string> mine, theirs;
  const auto my_runs = store_->list({});
  const auto their_runs = other->list({});
  for (const auto& run : *my_runs) mine.push_back(run.id);
  for (const auto& run : *their_runs) theirs.push_back(run.id);
  EXPECT_EQ(mine, theirs);
}

TEST_F(History, ImportOfADamagedFileStoresNothing) {
  const std::string path = folder_ + "/history.json";
  ASSERT_TRUE(store::write_file_atomically(
                  path, "{\"schema\": \"benchkit/history\", \"version\": 1, \"runs\": [" +
                            formats::benchmark_to_json(made_run({}).benchmarks[0]) + "]}")
                  .ok());
  const auto imported = import_runs(*store_, path);
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.error().message, HasSubstr("runs[0]"));
  EXPECT_TRUE(store_->list({})->empty());
}

TEST_F(History, PruneKeepsTheNewestOfEachSeriesOrDropsOldOnes) {
  for (int i = 0; i < 4; ++i) {
    record({.commit = "m" + std::to_string(i),
            .date = "2026-11-0" + std::to_string(i + 1) + "T00:00:00Z",
            .seed = static_cast<std::uint64_t>(i)});
  }
  record({.commit = "t", .branch = "topic", .date = "2026-10-01T00:00:00Z", .seed = 9});
  EXPECT_EQ(*prune(*store_, {.keep = 2, .before = ""}), 2u);
  std::vector<std::string> left;
  const auto runs = store_->list({});
  for (const auto& run : *runs) left.push_back(run.commit);
  EXPECT_THAT(left, ElementsAre("t", "m2", "m3"));
  EXPECT_EQ(*prune(*store_, {.keep = 0, .before = "2026-11-01"}), 1u);
  EXPECT_EQ(store_->list({})->size(), 2u);
}

TEST_F(History, SnapshotComparesTheFirstRunOfThePeriodWithTheNewest) {
  record({.commit = "old", .date = "2026-10-01T00:00:00Z", .ns = 50, .seed = 1});
  record({.commit = "c1", .date = "2026-11-01T00:00:00Z", .ns = 100, .seed = 2});
  record({.commit = "c2", .date = "2026-11-02T00:00:00Z", .ns = 100, .seed = 3});
  record({.commit = "c3", .date = "2026-11-03T00:00:00Z", .ns = 130, .seed = 4});
  const auto snapshot = history_snapshot(*store_, {.since = "2026-11-01"});
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  ASSERT_EQ(snapshot->runs.size(), 3u);
  EXPECT_EQ(snapshot->runs.front().commit, "c1");
  EXPECT_EQ(snapshot->comparison.count(analysis::Verdict::regressed), 2u);
  const auto empty = history_snapshot(*store_, {.since = "2026-11-03"});
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.error().message, HasSubstr("needs two runs"));
}

std::string day(int i) {
  return fmt::format("2026-11-{:02}T00:00:00Z", i + 1);
}

TEST_F(History, CheckFindsARegressionAgainstTheBaseBranchOfItsMachine) {
  for (int i = 0; i < 8; ++i) {
    record({.commit = fmt::format("m{}", i),
            .date = day(i),
            .ns = 100,
            .seed = static_cast<std::uint64_t>(i)});
    // Another machine, much slower: never part of this series.
    record({.commit = fmt::format("m{}", i),
            .date = day(i),
            .cpu = "Other CPU",
            .ns = 300,
            .seed = static_cast<std::uint64_t>(50 + i)});
  }
  record({.commit = "feature", .branch = "topic", .date = day(9), .ns = 125, .seed = 99});
  const auto outcome = check_run(*store_, {});
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->candidate.commit, "feature");
  EXPECT_EQ(outcome->history_runs, 8u);
  EXPECT_EQ(outcome->comparison.count(analysis::Verdict::regressed), 2u);
  const auto stored = store_->find(outcome->candidate.id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->summaries[0].verdict, "regressed");
}

TEST_F(History, CheckOfAnUnchangedRunPassesAndNamesNoChange) {
  for (int i = 0; i < 9; ++i) {
    record({.commit = fmt::format("m{}", i),
            .date = day(i),
            .ns = 100,
            .seed = static_cast<std::uint64_t>(i)});
  }
  const auto outcome = check_run(*store_, {});
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->history_runs, 8u);  // its own commit left out
  EXPECT_EQ(outcome->comparison.count(analysis::Verdict::regressed), 0u);
  EXPECT_TRUE(outcome->changes.empty());
}

TEST_F(History, CheckNamesTheCommitRangeOfARecentChange) {
  for (int i = 0; i < 20; ++i) {
    record({.commit = fmt::format("m{:02}", i),
            .date = day(i),
            .ns = i < 14 ? 100.0 : 115.0,
            .seed = static_cast<std::uint64_t>(i)});
  }
  const auto outcome = check_run(*store_, {.last = 10});
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_FALSE(outcome->changes.empty());
  EXPECT_EQ(outcome->changes[0].from_commit, "m13");
  EXPECT_EQ(outcome->changes[0].to_commit, "m14");
  EXPECT_NEAR(outcome->changes[0].after / outcome->changes[0].before, 1.15, 0.02);
  const auto older = check_run(*store_, {.last = 3});
  ASSERT_TRUE(older.ok());
  EXPECT_TRUE(older->changes.empty());  // m14 is not among the last 3 commits
}

// `history check` reads the newest max(kSearchedHistory, --last) points of the history, on
// both stores alike (docs/change-points.md, "The window of check").
template <class Backend>
class CheckWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_.available()) {
      GTEST_SKIP() << "the fixture PostgreSQL server is not running: run the session tests "
                      "through ctest (it starts tests/store/postgres_server.sh)";
    }
    auto opened = store::open_history(backend_.location());
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    store_ = std::move(*opened);
  }
  // `count` runs of main, one a commit (m000, m001, ...), a second apart; run i measures
  // ns(i); the first also measures a benchmark "retired" that no later run has.
  void record_history(int count, const std::function<double(int)>& ns) {
    for (int i = 0; i < count; ++i) {
      RunResult run = made_run({.commit = fmt::format("m{:03}", i),
                                .date = moment(i),
                                .benchmarks = i == 0 ? 3u : 2u,
                                .ns = ns(i),
                                .seed = static_cast<std::uint64_t>(i)});
      if (i == 0) run.benchmarks[2].name = "retired";
      const auto recorded = record_run(*store_, run);
      ASSERT_TRUE(recorded.ok()) << recorded.error().message;
    }
  }
  void record_candidate(int at, double ns) {
    const auto recorded = record_run(
        *store_,
        made_run({.commit = "new", .branch = "topic", .date = moment(at), .ns = ns, .seed = 999}));
    ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  }
  static std::string moment(int i) {
    return fmt::format("2026-11-01T00:{:02}:{:02}Z", i / 60, i % 60);
  }
  // The "to" commits of bench_0000's named changes.
  static std::vector<std::string> changes_of(const CheckOutcome& outcome) {
    std::vector<std::string> to;
    for (const RecentChange& change : outcome.changes) {
      if (change.benchmark == "bench_0000") to.push_back(change.to_commit);
    }
    return to;
  }
  Backend backend_;
  std::unique_ptr<store::Store> store_;
};

using benchkit::testing::BackendName;
using benchkit::testing::Backends;
TYPED_TEST_SUITE(CheckWindow, Backends, BackendName);

// 150 runs of history, the newest 128 read: the benchmark measured only by the oldest run is
// not in the check (before, it was listed as removed), every run is still counted, and the
// level change 10 commits back is named and starts the reference. --last 150 reads all 150.
TYPED_TEST(CheckWindow, ReadsOnlyTheNewestRunsItJudgesFrom) {
  this->record_history(150, [](int i) { return i < 140 ? 100.0 : 120.0; });
  this->record_candidate(150, 120.0);
  const auto outcome = check_run(*this->store_, {.last = 20});
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->candidate.commit, "new");
  EXPECT_EQ(outcome->history_runs, 150u);
  EXPECT_EQ(outcome->comparison.benchmarks.size(), 2u);
  EXPECT_EQ(outcome->comparison.count(analysis::Verdict::removed), 0u);
  EXPECT_EQ(outcome->comparison.count(analysis::Verdict::regressed), 0u);
  EXPECT_THAT(TestFixture::changes_of(*outcome), ElementsAre("m140"));
  const auto whole = check_run(*this->store_, {.last = 150});
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->comparison.count(analysis::Verdict::removed), 1u);  // "retired"
}

// 200 runs, steps at m072 (+30%) and m185 (+23%). With --last 130 the window is the newest 130
// runs (m070...): the step at m072 has two runs of its old level there, too few to be a level
// (min_segment 4), so it is not named, though it lies among the last 130 commits — the cost of
// searching the window instead of the whole series; with --last 140 (m060...) it is named.
TYPED_TEST(CheckWindow, NamesAChangeInsideTheWindowAndNotOneAtItsEdge) {
  this->record_history(200, [](int i) { return i < 72 ? 100.0 : i < 185 ? 130.0 : 160.0; });
  this->record_candidate(200, 160.0);
  const auto narrow = check_run(*this->store_, {.last = 130});
  ASSERT_TRUE(narrow.ok()) << narrow.error().message;
  EXPECT_EQ(narrow->history_runs, 200u);
  EXPECT_THAT(TestFixture::changes_of(*narrow), ElementsAre("m185"));
  const auto wide = check_run(*this->store_, {.last = 140});
  ASSERT_TRUE(wide.ok()) << wide.error().message;
  EXPECT_THAT(TestFixture::changes_of(*wide), ElementsAre("m072", "m185"));
}

}  // namespace
}  // namespace benchkit::session
