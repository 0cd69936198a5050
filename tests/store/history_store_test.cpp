// One suite for both history stores (store/history_store.hpp): SQLite and PostgreSQL must
// behave alike for everything a command relies on.
#include "store/history_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "formats/result_json.hpp"
#include "store/history_backends.hpp"
#include "store/open_store.hpp"
#include "store/packed_series.hpp"
#include "store/writer_process.hpp"
#include "support/history_runs.hpp"

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>

namespace benchkit::store {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::made_run;
using testing::MadeRun;

StoredRun stored(const MadeRun& made, std::string machine = "m1") {
  return make_stored_run(made_run(made), std::move(machine), "b1");
}

template <class Backend>
class HistoryStore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_.available()) {
      GTEST_SKIP() << "the fixture PostgreSQL server is not running: run the store tests "
                      "through ctest (it starts tests/store/postgres_server.sh)";
    }
    store_ = open();
  }
  std::unique_ptr<Store> open() {
    auto opened = open_history(backend_.location());
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message);
    return opened.ok() ? std::move(*opened) : nullptr;
  }
  Backend backend_;
  std::unique_ptr<Store> store_;
};

using testing::BackendName;
using testing::Backends;
TYPED_TEST_SUITE(HistoryStore, Backends, BackendName);

TYPED_TEST(HistoryStore, KeepsWhatIdentifiesAndPlacesARun) {
  const StoredRun run =
      stored({.commit = "abc123", .branch = "feature", .date = "2026-11-02T10:00:00Z"});
  ASSERT_TRUE(*this->store_->add(run));
  const auto runs = this->store_->list({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  const RunInfo& info = runs->front();
  EXPECT_EQ(info.id, run.id);
  EXPECT_EQ(info.id.size(), 32u);
  EXPECT_EQ(info.commit, "abc123");
  EXPECT_EQ(info.branch, "feature");
  EXPECT_EQ(info.date, "2026-11-02T10:00:00Z");
  EXPECT_EQ(info.dirty, std::optional<bool>(false));
  EXPECT_EQ(info.machine, "m1");
  EXPECT_EQ(info.build, "b1");
  EXPECT_EQ(info.hostname, "runner-1");
  EXPECT_EQ(info.benchmarks, 2u);
  EXPECT_EQ(info.tags, (std::map<std::string, std::string>{{"runner", "runner-1"}}));
}

// Both stores refuse what cannot be a run's identity before they query anything.
TYPED_TEST(HistoryStore, RefusesWhatIsNotARunIdentity) {
  for (const std::string prefix : {"abc", "ABCD1234", "zz00ff", "12 34"}) {
    const auto refused = this->store_->find(prefix);
    ASSERT_FALSE(refused.ok()) << prefix;
    EXPECT_THAT(refused.error().message, HasSubstr("\"" + prefix + "\" is not a run identity"));
  }
  EXPECT_FALSE(bad_run_identity("abcd1234").has_value());
}

TYPED_TEST(HistoryStore, StoresTheSameRunOnce) {
  const StoredRun run = stored({});
  EXPECT_TRUE(*this->store_->add(run));
  const auto again = this->store_->add(run);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(*again);
  EXPECT_EQ(this->store_->list({})->size(), 1u);
  ASSERT_EQ(this->store_->series({})->size(), 1u);
  EXPECT_EQ(this->store_->series({})->front().summaries.size(), 2u);  // two benchmarks, not four
}

TYPED_TEST(HistoryStore, GivesBackTheWholeResultWithItsSamples) {
  const RunResult run = made_run({.samples = 50});
  const StoredRun original = make_stored_run(run, "m1", "b1");
  ASSERT_TRUE(this->store_->add(original).ok());
  const auto found = this->store_->find(original.id.substr(0, 8));
  ASSERT_TRUE(found.ok()) << found.error().message;
  const auto document = result_document(*found);
  ASSERT_TRUE(document.ok()) << document.error().message;
  EXPECT_EQ(*document, formats::to_json(run));
  ASSERT_EQ(found->summaries.size(), 2u);
  const SummaryRow& first = found->summaries[0];
  EXPECT_EQ(first.benchmark, "bench_0000");
  EXPECT_DOUBLE_EQ(first.median, run.benchmarks[0].estimates.median.value);
  EXPECT_DOUBLE_EQ(first.lower, run.benchmarks[0].estimates.median.lower);
  EXPECT_DOUBLE_EQ(first.upper, run.benchmarks[0].estimates.median.upper);
  EXPECT_EQ(first.samples, 50u);
  EXPECT_LT(found->compressed_result.size(), document->size() / 3);  // compressed
}

TYPED_TEST(HistoryStore, FindSaysWhatIsWrongWithAnIdentity) {
  const StoredRun run = stored({});
  ASSERT_TRUE(this->store_->add(run).ok());
  EXPECT_THAT(this->store_->find("xyz!").error().message, HasSubstr("not a run identity"));
  EXPECT_THAT(this->store_->find("ab").error().message, HasSubstr("at least 4"));
  const std::string absent = run.id[0] == 'f' ? "0000" : "ffff";
  EXPECT_THAT(this->store_->find(absent).error().message, HasSubstr("benchkit history list"));
}

TYPED_TEST(HistoryStore, SelectsSeriesByMachineBranchAndDate) {
  ASSERT_TRUE(
      this->store_->add(stored({.commit = "c1", .date = "2026-11-01T00:00:00Z", .seed = 1})).ok());
  ASSERT_TRUE(
      this->store_->add(stored({.commit = "c2", .date = "2026-11-03T00:00:00Z", .seed = 2})).ok());
  ASSERT_TRUE(
      this->store_->add(stored({.commit = "c3", .date = "2026-11-02T00:00:00Z", .seed = 3})).ok());
  ASSERT_TRUE(this->store_->add(stored({.commit = "x1", .branch = "topic", .seed = 4})).ok());
  ASSERT_TRUE(this->store_->add(stored({.commit = "o1", .seed = 5}, "other-machine")).ok());

  const auto runs = this->store_->series({.machine = "m1", .branch = "main"});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  std::vector<std::string> commits;
  for (const SeriesRun& run : *runs) {
    for (const SummaryRow& row : run.summaries) commits.push_back(run.commit + "/" + row.benchmark);
  }
  EXPECT_THAT(commits, ElementsAre("c1/bench_0000", "c1/bench_0001", "c3/bench_0000",
                                   "c3/bench_0001", "c2/bench_0000", "c2/bench_0001"));
  const auto recent = this->store_->series(
      {.machine = "m1", .branch = "main", .since = "2026-11-02", .before = "2026-11-03"});
  ASSERT_EQ(recent->size(), 1u);
  EXPECT_EQ(recent->front().commit, "c3");
  EXPECT_EQ(recent->front().summaries.size(), 2u);
  EXPECT_EQ(this->store_->list({.machine = "other-machine"})->size(), 1u);
  EXPECT_EQ(this->store_->list({.branch = "topic"})->size(), 1u);
  EXPECT_EQ(this->store_->list({})->size(), 5u);
}

// Two runs of one second (`benchkit ab --record` records two runs that quickly): the one
// recorded last is the newest, whichever identity sorts first. The larger identity is recorded
// first, so that ordering by identity would put the runs the other way round.
TYPED_TEST(HistoryStore, RunsOfOneSecondKeepTheOrderOfRecording) {
  StoredRun a = stored({.commit = "a", .date = "2026-11-05T12:00:00Z", .seed = 1});
  StoredRun b = stored({.commit = "b", .date = "2026-11-05T12:00:00Z", .seed = 2});
  if (a.id < b.id) std::swap(a, b);
  const StoredRun later = stored({.commit = "l", .date = "2026-11-05T12:00:01Z", .seed = 3});
  ASSERT_TRUE(*this->store_->add(later));  // a later date stays last, recorded first or not
  ASSERT_TRUE(*this->store_->add(a));
  ASSERT_TRUE(*this->store_->add(b));
  for (int connection = 0; connection < 2; ++connection) {
    const auto runs = this->store_->list({});
    ASSERT_TRUE(runs.ok()) << runs.error().message;
    std::vector<std::string> commits;
    for (const RunInfo& run : *runs) commits.push_back(run.commit);
    EXPECT_THAT(commits, ElementsAre(a.commit, b.commit, "l"));
    const auto series = this->store_->series({.machine = "m1", .branch = "main"});
    ASSERT_TRUE(series.ok()) << series.error().message;
    commits.clear();
    for (const SeriesRun& run : *series) commits.push_back(run.commit);
    EXPECT_THAT(commits, ElementsAre(a.commit, b.commit, "l"));
    this->store_ = this->open();  // the order is stored, not kept by the connection
    ASSERT_NE(this->store_, nullptr);
  }
}

TYPED_TEST(HistoryStore, RecordsVerdictsAndDiagnostics) {
  RunResult run = made_run({});
  run.benchmarks[1].diagnostics.push_back({"drift", "warning", "drifting"});
  run.benchmarks[1].diagnostics.push_back({"few_samples", "info", "few"});
  const StoredRun original = make_stored_run(run, "m1", "b1");
  ASSERT_TRUE(this->store_->add(original).ok());
  ASSERT_TRUE(this->store_->set_verdicts(original.id, {{"bench_0000", "regressed"}}).ok());
  const auto found = this->store_->find(original.id);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->summaries[0].verdict, "regressed");
  EXPECT_EQ(found->summaries[1].verdict, "");
  EXPECT_EQ(found->summaries[1].diagnostics, "drift,few_samples");
}

TYPED_TEST(HistoryStore, RemovesARunWithItsRows) {
  const StoredRun kept = stored({.seed = 1});
  const StoredRun removed = stored({.seed = 2});
  ASSERT_TRUE(this->store_->add(kept).ok());
  ASSERT_TRUE(this->store_->add(removed).ok());
  const auto count = this->store_->remove({removed.id, "0000notthere"});
  ASSERT_TRUE(count.ok()) << count.error().message;
  EXPECT_EQ(*count, 1u);
  EXPECT_EQ(this->store_->list({})->size(), 1u);
  const auto runs = this->store_->series({});
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().run_id, kept.id);
  EXPECT_EQ(runs->front().summaries.size(), 2u);
  EXPECT_FALSE(this->store_->find(removed.id).ok());
}

TYPED_TEST(HistoryStore, KeepsRunsAcrossConnections) {
  const StoredRun run = stored({});
  ASSERT_TRUE(this->store_->add(run).ok());
  this->store_.reset();
  const auto reopened = this->open();
  ASSERT_NE(reopened, nullptr);
  EXPECT_EQ(reopened->list({})->size(), 1u);
  EXPECT_FALSE(*reopened->add(run));
}

// Every run the store lists reads back whole: its result decompresses and parses, with the
// benchmarks and samples history_writer gave it.
template <class Store>
void expect_whole(Store& store, std::size_t expected_runs) {
  const auto runs = store.list({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  EXPECT_EQ(runs->size(), expected_runs);
  for (const RunInfo& info : *runs) {
    const auto found = store.find(info.id);
    ASSERT_TRUE(found.ok()) << found.error().message;
    const auto document = result_document(*found);
    ASSERT_TRUE(document.ok()) << document.error().message;
    const auto parsed = formats::from_json(*document, info.id);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_EQ(parsed->run.benchmarks.size(), 5u);
    EXPECT_EQ(parsed->run.benchmarks[4].samples.size(), 30u);
    EXPECT_EQ(found->summaries.size(), 5u);
  }
}

// Four processes recording 100 runs each into one store at the same time: all 400 are there.
TYPED_TEST(HistoryStore, FourWritersAtOnceLoseNothing) {
  constexpr int kWriters = 4;
  constexpr int kRuns = 100;
  std::vector<std::unique_ptr<testing::WriterProcess>> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.push_back(
        std::make_unique<testing::WriterProcess>(this->backend_.location(), w, kRuns));
    ASSERT_TRUE(writers.back()->started());
  }
  std::set<std::string> committed;
  for (auto& writer : writers) {
    for (std::string id = writer->next(); !id.empty(); id = writer->next()) committed.insert(id);
    EXPECT_EQ(writer->wait(), 0);
  }
  EXPECT_EQ(committed.size(), std::size_t{kWriters * kRuns});
  expect_whole(*this->store_, committed.size());
}

// The names of every benchmark stored, once each and sorted, whatever run holds them; a series
// of some benchmarks holds their rows alone, in every run that has one, and a run with none of
// them is no point.
TYPED_TEST(HistoryStore, ReadsTheNamesAndTheSeriesOfSomeBenchmarks) {
  EXPECT_TRUE(this->store_->benchmark_names()->empty());
  ASSERT_TRUE(this->store_->add(stored({.commit = "c1", .benchmarks = 3, .seed = 1})).ok());
  ASSERT_TRUE(this->store_
                  ->add(stored(
                      {.commit = "c2", .date = "2026-11-02T00:00:00Z", .benchmarks = 5, .seed = 2}))
                  .ok());
  RunResult other = made_run({.commit = "c3", .date = "2026-11-03T00:00:00Z", .seed = 3});
  other.benchmarks[0].name = "a, \"quoted\" {name}";
  other.benchmarks.pop_back();
  ASSERT_TRUE(this->store_->add(make_stored_run(other, "m1", "b1")).ok());
  const auto names = this->store_->benchmark_names();
  ASSERT_TRUE(names.ok()) << names.error().message;
  EXPECT_THAT(*names, ElementsAre("a, \"quoted\" {name}", "bench_0000", "bench_0001", "bench_0002",
                                  "bench_0003", "bench_0004"));
  const auto some = this->store_->series({.benchmarks = {"bench_0004", "bench_0001"}});
  ASSERT_TRUE(some.ok()) << some.error().message;
  ASSERT_EQ(some->size(), 2u);
  EXPECT_EQ(some->at(0).commit, "c1");
  ASSERT_EQ(some->at(0).summaries.size(), 1u);
  EXPECT_EQ(some->at(0).summaries[0].benchmark, "bench_0001");
  ASSERT_EQ(some->at(1).summaries.size(), 2u);
  EXPECT_EQ(some->at(1).summaries[0].benchmark, "bench_0001");
  EXPECT_EQ(some->at(1).summaries[1].benchmark, "bench_0004");
  const auto quoted = this->store_->series({.benchmarks = {"a, \"quoted\" {name}"}});
  ASSERT_TRUE(quoted.ok()) << quoted.error().message;
  ASSERT_EQ(quoted->size(), 1u);
  EXPECT_EQ(quoted->at(0).commit, "c3");
  // More names than the SQLite store looks up one by one: the same rows, read run by run.
  std::vector<std::string> many = {"bench_0002"};
  for (int i = 0; i < 100; ++i) many.push_back(fmt::format("absent_{}", i));
  const auto wide = this->store_->series({.benchmarks = many});
  ASSERT_TRUE(wide.ok()) << wide.error().message;
  ASSERT_EQ(wide->size(), 2u);
  EXPECT_EQ(wide->at(1).summaries.size(), 1u);
  EXPECT_EQ(wide->at(1).summaries[0].benchmark, "bench_0002");
}

// The newest N runs of a series alone (what `history check` reads), still oldest first, runs of
// one second in the order they were recorded, other machines and branches left out; a few
// benchmarks' rows of them; more than there are: all of them.
TYPED_TEST(HistoryStore, ReadsTheNewestRunsOfASeriesAlone) {
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(this->store_
                    ->add(stored({.commit = fmt::format("c{}", i),
                                  .date = fmt::format("2026-11-{:02}T00:00:00Z", i < 5 ? i + 1 : 5),
                                  .seed = static_cast<std::uint64_t>(i)}))
                    .ok());
  }
  ASSERT_TRUE(
      this->store_
          ->add(stored({.commit = "other", .date = "2026-12-01T00:00:00Z", .seed = 9}, "m2"))
          .ok());
  const auto commits_of = [](const std::vector<SeriesRun>& runs) {
    std::vector<std::string> commits;
    for (const SeriesRun& run : runs) commits.push_back(run.commit);
    return commits;
  };
  const auto newest = this->store_->series({.machine = "m1", .branch = "main", .newest = 3});
  ASSERT_TRUE(newest.ok()) << newest.error().message;
  EXPECT_THAT(commits_of(*newest), ElementsAre("c3", "c4", "c5"));  // c4, c5: one second
  EXPECT_EQ(newest->back().summaries.size(), 2u);
  const auto some = this->store_->series(
      {.machine = "m1", .branch = "main", .benchmarks = {"bench_0001"}, .newest = 2});
  ASSERT_TRUE(some.ok()) << some.error().message;
  EXPECT_THAT(commits_of(*some), ElementsAre("c4", "c5"));
  ASSERT_EQ(some->front().summaries.size(), 1u);
  EXPECT_EQ(some->front().summaries[0].benchmark, "bench_0001");
  const auto all = this->store_->series({.machine = "m1", .newest = 100});
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->size(), 6u);
  std::vector<std::string> one_by_one;
  const auto read = this->store_->each_series_run(
      {.machine = "m1", .newest = 4}, [&](SeriesRun& run) { one_by_one.push_back(run.commit); });
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_THAT(one_by_one, ElementsAre("c2", "c3", "c4", "c5"));
}

// The packed runs (schema 5) hold what the summary rows hold, run for run: the same runs in the
// same order, each with the same names, medians and bounds in name order; the newest N alone;
// a removed run gone from both.
TYPED_TEST(HistoryStore, ReadsEachRunPackedAsItsRows) {
  for (int i = 0; i < 5; ++i) {
    RunResult run = made_run({.commit = fmt::format("c{}", i),
                              .date = fmt::format("2026-11-{:02}T00:00:00Z", i + 1),
                              .benchmarks = static_cast<std::size_t>(2 + i),
                              .seed = static_cast<std::uint64_t>(i)});
    if (i == 2) run.benchmarks[1].name = "a, \"quoted\" {name} with\ttab and é";
    ASSERT_TRUE(this->store_->add(make_stored_run(run, "m1", "b1")).ok());
  }
  ASSERT_TRUE(this->store_->add(stored({.commit = "other", .seed = 9}, "m2")).ok());
  const auto packed_of = [&](const RunQuery& query) {
    std::vector<std::pair<std::string, std::vector<SummaryRow>>> runs;
    const auto read = this->store_->each_packed_run(query, [&](PackedRun& run) {
      std::vector<SummaryRow> rows;
      for (std::size_t i = 0; i < run.points.size(); ++i) {
        rows.push_back({.benchmark = std::string(run.points.name(i)),
                        .median = run.points.medians[i],
                        .lower = run.points.lowers[i],
                        .upper = run.points.uppers[i]});
      }
      runs.emplace_back(run.run_id, std::move(rows));
    });
    EXPECT_TRUE(read.ok()) << read.error().message;
    return runs;
  };
  const auto expect_same = [&](const RunQuery& query, std::size_t count) {
    const auto rows = this->store_->series(query);
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    const auto packed = packed_of(query);
    ASSERT_EQ(packed.size(), count);
    ASSERT_EQ(rows->size(), count);
    for (std::size_t r = 0; r < count; ++r) {
      EXPECT_EQ(packed[r].first, (*rows)[r].run_id);
      ASSERT_EQ(packed[r].second.size(), (*rows)[r].summaries.size());
      for (std::size_t b = 0; b < packed[r].second.size(); ++b) {
        const SummaryRow& row = (*rows)[r].summaries[b];
        EXPECT_EQ(packed[r].second[b].benchmark, row.benchmark);
        EXPECT_EQ(packed[r].second[b].median, row.median);
        EXPECT_EQ(packed[r].second[b].lower, row.lower);
        EXPECT_EQ(packed[r].second[b].upper, row.upper);
      }
    }
  };
  expect_same({.machine = "m1"}, 5);
  expect_same({.machine = "m1", .newest = 2}, 2);
  expect_same({}, 6);
  const auto third = packed_of({.machine = "m1"})[2];
  EXPECT_EQ(third.second[0].benchmark, "a, \"quoted\" {name} with\ttab and é");
  const auto newest = packed_of({.machine = "m1", .newest = 2});
  EXPECT_EQ(newest[0].second.size(), 5u);  // c3's 5 benchmarks, then c4's 6
  EXPECT_EQ(newest[1].second.size(), 6u);
  ASSERT_EQ(*this->store_->remove({third.first}), 1u);
  expect_same({.machine = "m1"}, 4);
}

// The verdicts of a run written at once (one statement on PostgreSQL), whatever the names hold;
// a name the run does not have changes nothing.
TYPED_TEST(HistoryStore, WritesAllTheVerdictsOfARunAtOnce) {
  RunResult run = made_run({.benchmarks = 40});
  run.benchmarks[3].name = "a, \"quoted\" {name} \\ with a backslash";
  const StoredRun original = make_stored_run(run, "m1", "b1");
  ASSERT_TRUE(this->store_->add(original).ok());
  std::map<std::string, std::string> verdicts;
  for (std::size_t i = 0; i < run.benchmarks.size(); i += 2) {
    verdicts[run.benchmarks[i].name] = i % 4 == 0 ? "regressed" : "unchanged";
  }
  verdicts[run.benchmarks[3].name] = "improved";
  verdicts["absent"] = "removed";
  const auto written = this->store_->set_verdicts(original.id, verdicts);
  ASSERT_TRUE(written.ok()) << written.error().message;
  const auto found = this->store_->find(original.id);
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->summaries.size(), 40u);
  for (const SummaryRow& row : found->summaries) {
    const auto verdict = verdicts.find(row.benchmark);
    EXPECT_EQ(row.verdict, verdict == verdicts.end() ? "" : verdict->second) << row.benchmark;
  }
}

// Four threads, each with its own connection, recording 50 runs of 100 benchmarks at once (the
// PostgreSQL store sends a run's summary rows in one COPY): every run and every row is there.
TYPED_TEST(HistoryStore, FourThreadsOfAHundredBenchmarksLoseNoRow) {
  constexpr std::size_t kWriters = 4;
  constexpr std::size_t kRuns = 50;
  constexpr std::size_t kBenchmarks = 100;
  std::vector<std::thread> threads;
  std::atomic<std::size_t> added{0};
  for (std::size_t w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      auto store = open_history(this->backend_.location());
      if (!store) return;
      RunResult run = made_run({.benchmarks = kBenchmarks, .samples = 5, .seed = w + 1});
      for (std::size_t i = 0; i < kRuns; ++i) {
        run.context.git_commit = fmt::format("w{}-{}", w, i);
        const auto stored = (*store)->add(make_stored_run(run, "m1", "b1"));
        if (stored.ok() && *stored) ++added;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(added.load(), kWriters * kRuns);
  const auto runs = this->store_->series({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), kWriters * kRuns);
  for (const SeriesRun& run : *runs) {
    ASSERT_EQ(run.summaries.size(), kBenchmarks) << run.run_id;
    EXPECT_EQ(run.summaries.front().benchmark, "bench_0000");
    EXPECT_EQ(run.summaries.back().benchmark, "bench_0099");
    EXPECT_EQ(run.summaries.back().samples, 5u);
  }
}

// Names with the characters COPY's text format escapes (tab, newline, backslash, "\N" which it
// reads as NULL) and quotes read back exactly, with their numbers.
TYPED_TEST(HistoryStore, KeepsEveryCharacterOfABenchmarkName) {
  RunResult run = made_run({.benchmarks = 6});
  const std::vector<std::string> names = {"tab\there", "line\nbreak",   "back\\slash",
                                          "\\N",       "quote's \"x\"", "größe/µs,1"};
  for (std::size_t i = 0; i < names.size(); ++i) run.benchmarks[i].name = names[i];
  run.benchmarks[1].diagnostics.push_back({"drift", "warning", "drifting"});
  const StoredRun stored_run = make_stored_run(run, "m1", "b1");
  ASSERT_TRUE(*this->store_->add(stored_run));
  const auto found = this->store_->find(stored_run.id);
  ASSERT_TRUE(found.ok()) << found.error().message;
  std::map<std::string, SummaryRow> rows;
  for (const SummaryRow& row : found->summaries) rows[row.benchmark] = row;
  ASSERT_EQ(rows.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    ASSERT_TRUE(rows.count(names[i])) << names[i];
    EXPECT_EQ(rows[names[i]].median, run.benchmarks[i].estimates.median.value) << names[i];
    EXPECT_EQ(rows[names[i]].upper, run.benchmarks[i].estimates.median.upper) << names[i];
  }
  EXPECT_EQ(rows[names[1]].diagnostics, "drift");
}

// kill -9 of a writer in the middle of its writes, many times: the store opens, and every run
// that the writer had reported committed is there, whole.
TYPED_TEST(HistoryStore, AKilledWriterLeavesEveryCommittedRun) {
  constexpr int kKills = 12;
  std::mt19937 random(17);
  std::set<std::string> committed;
  for (int kill = 0; kill < kKills; ++kill) {
    testing::WriterProcess writer(this->backend_.location(), 10 + kill, 100000);
    ASSERT_TRUE(writer.started());
    const int wanted = 1 + static_cast<int>(random() % 8);
    for (int i = 0; i < wanted; ++i) {
      const std::string id = writer.next();
      ASSERT_FALSE(id.empty()) << "the writer ended early";
      committed.insert(id);
    }
    // Killed at once or a little later: mostly inside the next run's transaction.
    usleep(static_cast<useconds_t>(random() % 3000));
    writer.kill_now();
    for (std::string id = writer.next(); !id.empty(); id = writer.next()) committed.insert(id);
    EXPECT_EQ(writer.wait(), 128 + SIGKILL);
  }
  const auto reopened = this->open();
  ASSERT_NE(reopened, nullptr);
  const auto runs = reopened->list({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  std::set<std::string> stored;
  for (const RunInfo& info : *runs) stored.insert(info.id);
  for (const std::string& id : committed) EXPECT_TRUE(stored.count(id)) << id << " was lost";
  expect_whole(*reopened, stored.size());
}

}  // namespace
}  // namespace benchkit::store
