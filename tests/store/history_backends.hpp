// The two history stores as the store tests open them: an SQLite file in a fresh temporary
// folder, and a fresh schema (its own search_path) in the throwaway PostgreSQL server that the
// CTest fixture postgres_server started (tests/store/postgres_server.sh); no other server is
// ever touched. Without that server (a test binary run alone) the PostgreSQL tests skip and say
// how to run them.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "store/open_store.hpp"
#include "store/packed_series.hpp"
#include "support/history_runs.hpp"

namespace benchkit::testing {

// The fixture server's URL (with its password), or "" when it is not running.
inline std::string fixture_postgres_url() {
  std::ifstream file(std::string(BENCHKIT_BINARY_DIR) + "/postgres/url");
  std::string url;
  std::getline(file, url);
  return url;
}

#define BENCHKIT_NEED_POSTGRES(url)                                                            \
  if ((url).empty())                                                                           \
  GTEST_SKIP() << "the fixture PostgreSQL server is not running: run the store tests through " \
                  "ctest (it starts tests/store/postgres_server.sh)"

// A name unique to this test and process, usable as a file or schema name.
inline std::string unique_name(const std::string& prefix) {
  static std::atomic<int> counter{0};
  std::string name = prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
    for (char c : std::string(info->name())) {
      name +=
          std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
    }
  }
  return name.substr(0, 60);
}

struct SqliteBackend {
  static constexpr const char* name = "sqlite";
  std::string folder = ::testing::TempDir() + "/" + unique_name("history");
  SqliteBackend() { std::filesystem::create_directories(folder); }
  ~SqliteBackend() { std::filesystem::remove_all(folder); }
  std::string location() const { return folder + "/history.db"; }
  bool available() const { return true; }
};

struct PostgresBackend {
  static constexpr const char* name = "postgresql";
  std::string server = fixture_postgres_url();
  std::string schema = unique_name("t");
  PostgresBackend() {
    if (server.empty()) return;
    pqxx::connection connection(server);
    pqxx::work work(connection);
    work.exec("CREATE SCHEMA " + work.quote_name(schema));
    work.commit();
  }
  ~PostgresBackend() {
    if (server.empty()) return;
    try {
      pqxx::connection connection(server);
      pqxx::work work(connection);
      work.exec("DROP SCHEMA " + work.quote_name(schema) + " CASCADE");
      work.commit();
    } catch (const std::exception&) {
      // The server is stopped after the tests anyway, and its folder removed.
    }
  }
  // The schema as the first of the search path: every table of the store lands there.
  std::string location() const { return server + "?options=-csearch_path%3D" + schema; }
  bool available() const { return !server.empty(); }
};

// The run the schema-1 migration tests store with schema 1's statements (as run
// ffeeddccbbaa99887766554433221100, one summary row): tags and a diagnostic that only the
// stored result holds.
inline RunResult schema_one_run() {
  RunResult run = made_run({.commit = "old"});
  run.context.tags["pr"] = "42";
  run.benchmarks[0].diagnostics.push_back({"drift", "warning", "drifting"});
  return run;
}

// After the migration: the run reads back whole, with what schema 2 added filled in from it,
// and a run recorded now with the same date is the newest (schema 3 numbered the old run first;
// by identity, ffee... would come last); schema 4 left the old run without a group or shard, and
// a shard of a group recorded now keeps both.
inline void expect_migrated(store::Store& store, const RunResult& run,
                            const std::string& document) {
  const auto found = store.find("ffee");
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->tags.at("pr"), "42");
  ASSERT_EQ(found->summaries.size(), 2u);
  EXPECT_EQ(found->summaries[0].diagnostics, "drift");
  EXPECT_EQ(found->summaries[0].samples, run.benchmarks[0].samples.size());
  EXPECT_DOUBLE_EQ(found->summaries[0].median, run.benchmarks[0].estimates.median.value);
  EXPECT_EQ(*result_document(*found), document);
  EXPECT_EQ(found->group, "");
  EXPECT_EQ(found->shard_count, 0u);
  // Schema 5 packed the run's rows (as schema 2 filled them in) into series_runs.
  std::vector<std::string> packed_names;
  std::vector<double> packed_medians;
  const auto packed = store.each_packed_run({}, [&](store::PackedRun& one) {
    EXPECT_EQ(one.run_id, found->id);
    for (std::size_t i = 0; i < one.points.size(); ++i) {
      packed_names.emplace_back(one.points.name(i));
      packed_medians.push_back(one.points.medians[i]);
    }
  });
  ASSERT_TRUE(packed.ok()) << packed.error().message;
  ASSERT_EQ(packed_names.size(), 2u);
  EXPECT_EQ(packed_names[0], found->summaries[0].benchmark);
  EXPECT_EQ(packed_names[1], found->summaries[1].benchmark);
  EXPECT_EQ(packed_medians[0], found->summaries[0].median);
  EXPECT_EQ(packed_medians[1], found->summaries[1].median);
  RunResult shard = made_run({.commit = "new", .date = "2026-10-01T00:00:00Z", .seed = 9});
  shard.context.shard =
      Shard{.index = 2, .count = 3, .by = "count", .benchmarks = 2, .selected = 6};
  const store::StoredRun now = store::make_stored_run(shard, "m", "b", "ci:1");
  ASSERT_TRUE(*store.add(now));
  const auto runs = store.list({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ(runs->front().commit, "old");
  EXPECT_EQ(runs->back().commit, "new");
  EXPECT_EQ(runs->back().group, "ci:1");
  EXPECT_EQ(runs->back().shard_index, 2u);
  EXPECT_EQ(runs->back().shard_count, 3u);
}

// Every history test runs on both stores, each named after its backend in the test's name.
using Backends = ::testing::Types<SqliteBackend, PostgresBackend>;
struct BackendName {
  template <class T>
  static std::string GetName(int) {
    return T::name;
  }
};

}  // namespace benchkit::testing
