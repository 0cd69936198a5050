// The SQLite history on real files: its mode, the migration of a schema-1 file, and the files it
// refuses (damaged, another program's, a newer schema), which it must leave exactly as they were.
#include "store/sqlite_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/result_json.hpp"
#include "store/compression.hpp"
#include "store/history_backends.hpp"
#include "store/schema.hpp"
#include "support/history_runs.hpp"

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;

std::string contents(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

void sql(const std::string& path, const std::string& statements) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  const int code = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &message);
  EXPECT_EQ(code, SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

std::string pragma(const std::string& path, const std::string& name) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, ("PRAGMA " + name).c_str(), -1, &statement, nullptr);
  std::string value;
  if (sqlite3_step(statement) == SQLITE_ROW) {
    value = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

class SqliteStore : public ::testing::Test {
 protected:
  testing::SqliteBackend backend_;
  std::string path_ = backend_.location();
};

TEST_F(SqliteStore, CreatesTheFolderAndUsesWal) {
  const std::string nested = backend_.folder + "/not/yet/history.db";
  const auto store = open_sqlite_store(nested);
  ASSERT_TRUE(store.ok()) << store.error().message;
  ASSERT_TRUE((*store)->add(make_stored_run(testing::made_run({}), "m", "b")).ok());
  EXPECT_EQ(pragma(nested, "journal_mode"), "wal");
  EXPECT_EQ(pragma(nested, "integrity_check"), "ok");
}

// A file written by the first schema (its statements as that benchkit ran them), holding one
// run: opening it migrates it, and the run reads back with what schema 2 added filled in.
TEST_F(SqliteStore, MigratesAFileOfSchemaOne) {
  const RunResult run = testing::schema_one_run();
  const std::string document = formats::to_json(run);
  sql(path_,
      "CREATE TABLE benchkit_schema (version INTEGER NOT NULL);"
      "INSERT INTO benchkit_schema VALUES (1);"
      "CREATE TABLE runs (id TEXT PRIMARY KEY, date TEXT NOT NULL, git_commit TEXT NOT NULL,"
      " git_branch TEXT NOT NULL, dirty INTEGER, machine TEXT NOT NULL, build TEXT NOT NULL,"
      " hostname TEXT NOT NULL, benchmark_count INTEGER NOT NULL, result BLOB NOT NULL);"
      "CREATE INDEX runs_by_series ON runs (machine, git_branch, date);"
      "CREATE INDEX runs_by_date ON runs (date);"
      "CREATE TABLE summaries (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
      " benchmark TEXT NOT NULL, median REAL NOT NULL, lower_bound REAL NOT NULL,"
      " upper_bound REAL NOT NULL, PRIMARY KEY (run_id, benchmark));"
      "CREATE INDEX summaries_by_benchmark ON summaries (benchmark);");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    const std::string blob = compress(document);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db,
                       "INSERT INTO runs VALUES ('ffeeddccbbaa99887766554433221100',"
                       " '2026-10-01T00:00:00Z', 'old', 'main', 0, 'm', 'b', 'h', 2, ?)",
                       -1, &insert, nullptr);
    sqlite3_bind_blob(insert, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_finalize(insert);
    sqlite3_exec(db,
                 "INSERT INTO summaries VALUES ('ffeeddccbbaa99887766554433221100', 'bench_0000',"
                 " 1, 0.5, 1.5)",
                 nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const auto store = open_sqlite_store(path_);
  ASSERT_TRUE(store.ok()) << store.error().message;
  testing::expect_migrated(**store, run, document);
  sqlite3* db = nullptr;
  sqlite3_open(path_.c_str(), &db);
  sqlite3_stmt* version = nullptr;
  sqlite3_prepare_v2(db, "SELECT version FROM benchkit_schema", -1, &version, nullptr);
  ASSERT_EQ(sqlite3_step(version), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(version, 0), kSchemaVersion);
  sqlite3_finalize(version);
  sqlite3_close(db);
}

TEST_F(SqliteStore, RefusesASchemaNewerThanItsOwnAndChangesNothing) {
  {
    const auto store = open_sqlite_store(path_);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->add(make_stored_run(testing::made_run({}), "m", "b")).ok());
  }
  sql(path_, "UPDATE benchkit_schema SET version = 99; PRAGMA wal_checkpoint(TRUNCATE);");
  const std::string before = contents(path_);
  const auto refused = open_sqlite_store(path_);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr(path_));
  EXPECT_THAT(refused.error().message, HasSubstr("schema version 99, newer than"));
  EXPECT_THAT(refused.error().message, HasSubstr("upgrade benchkit"));
  EXPECT_EQ(contents(path_), before);
}

TEST_F(SqliteStore, RefusesADamagedFileAndChangesNothing) {
  {
    const auto store = open_sqlite_store(path_);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->add(make_stored_run(testing::made_run({}), "m", "b")).ok());
  }
  sql(path_, "PRAGMA wal_checkpoint(TRUNCATE);");
  std::string damaged = contents(path_);
  ASSERT_GT(damaged.size(), 100u);
  for (std::size_t i = 0; i < 100; ++i) damaged[i] = static_cast<char>(0xA5 ^ i);
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << damaged;
  const auto refused = open_sqlite_store(path_);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr(path_));
  EXPECT_THAT(refused.error().message, HasSubstr("damaged or not an SQLite database"));
  EXPECT_THAT(refused.error().message, HasSubstr("move it away"));
  EXPECT_EQ(contents(path_), damaged);
}

TEST_F(SqliteStore, RefusesAnotherProgramsDatabase) {
  sql(path_, "CREATE TABLE invoices (id INTEGER); INSERT INTO invoices VALUES (1);");
  const std::string before = contents(path_);
  const auto refused = open_sqlite_store(path_);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("of another program"));
  EXPECT_EQ(contents(path_), before);
}

TEST_F(SqliteStore, SaysWhenTheFolderCannotBeMade) {
  std::ofstream(backend_.folder + "/file") << "x";
  const auto refused = open_sqlite_store(backend_.folder + "/file/history.db");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("check the path and that you may write there"));
}

}  // namespace
}  // namespace benchkit::store
