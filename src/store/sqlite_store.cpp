#include "store/sqlite_store.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <set>
#include <stdexcept>
#include <thread>

#include "store/history_sql.hpp"
#include "store/packed_series.hpp"
#include "store/schema.hpp"

namespace benchkit::store {
namespace {

// A failed SQLite call, caught at the Store boundary and turned into an Error there.
struct SqliteFailure : std::runtime_error {
  int code;
  SqliteFailure(const std::string& message, int code) : std::runtime_error(message), code(code) {}
};

class Statement {
 public:
  Statement(sqlite3* db, const char* text) : db_(db) {
    if (sqlite3_prepare_v2(db, text, -1, &statement_, nullptr) != SQLITE_OK) fail("prepare");
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(statement_); }

  Statement& bind(int index, std::string_view text) {
    check(sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()),
                            SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind_blob(int index, std::string_view data) {
    check(sqlite3_bind_blob(statement_, index, data.data(), static_cast<int>(data.size()),
                            SQLITE_STATIC));
    return *this;
  }
  Statement& bind(int index, double value) {
    check(sqlite3_bind_double(statement_, index, value));
    return *this;
  }
  Statement& bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(statement_, index, value));
    return *this;
  }
  Statement& bind(int index, std::optional<bool> value) {
    check(value ? sqlite3_bind_int(statement_, index, *value ? 1 : 0)
                : sqlite3_bind_null(statement_, index));
    return *this;
  }
  // True while there is a row to read.
  bool step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code != SQLITE_DONE) fail("step");
    return false;
  }
  void run() {
    while (step()) {
    }
    sqlite3_reset(statement_);
  }
  void reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  std::string text(int column) const {
    const auto* data = sqlite3_column_text(statement_, column);
    return data ? std::string(reinterpret_cast<const char*>(data),
                              static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
                : std::string();
  }
  std::string blob(int column) const {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(statement_, column));
    return data ? std::string(data,
                              static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
                : std::string();
  }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  std::optional<bool> flag(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int(statement_, column) != 0;
  }

 private:
  void check(int code) {
    if (code != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) {
    throw SqliteFailure(fmt::format("{}: {}", what, sqlite3_errmsg(db_)), sqlite3_errcode(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

void execute(sqlite3* db, const std::string& text) {
  char* message = nullptr;
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string reason = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw SqliteFailure(reason, sqlite3_errcode(db));
  }
}

// Rolls back unless committed: a failure or an exception leaves the file as it was.
class Transaction {
 public:
  explicit Transaction(sqlite3* db, const char* begin = "BEGIN IMMEDIATE") : db_(db) {
    execute(db_, begin);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    execute(db_, "COMMIT");
    done_ = true;
  }

 private:
  sqlite3* db_;
  bool done_ = false;
};

void bind_query(Statement& statement, const RunQuery& query) {
  statement.bind(1, query.machine).bind(2, query.branch).bind(3, query.since).bind(4, query.before);
}

RunInfo run_info(const Statement& row) {
  return RunInfo{.id = row.text(0),
                 .date = row.text(1),
                 .commit = row.text(2),
                 .branch = row.text(3),
                 .dirty = row.flag(4),
                 .tags = {},
                 .machine = row.text(5),
                 .build = row.text(6),
                 .hostname = row.text(7),
                 .benchmarks = static_cast<std::size_t>(row.integer(8)),
                 .group = row.text(9),
                 .shard_index = static_cast<std::size_t>(row.integer(10)),
                 .shard_count = static_cast<std::size_t>(row.integer(11))};
}

SummaryRow summary_row(const Statement& row, int first) {
  return SummaryRow{.benchmark = row.text(first),
                    .median = row.real(first + 1),
                    .lower = row.real(first + 2),
                    .upper = row.real(first + 3),
                    .samples = static_cast<std::size_t>(row.integer(first + 4)),
                    .verdict = row.text(first + 5),
                    .diagnostics = row.text(first + 6)};
}

// Up to this many benchmarks, series() looks up each one's row of each run through the primary
// key; beyond it, reading each run's rows in order and keeping the chosen ones costs less (a
// lookup costs about what reading a few rows in order does).
constexpr std::size_t kMostLookups = 64;

// One run's summary rows, as series() reads them. Through the summaries' primary-key index
// (run_id, benchmark): already in benchmark order, where one joined query made SQLite sort every
// row of the series (three times slower). `only`, when not empty, keeps those benchmarks' rows;
// with `look_up`, each of them is found through the primary key instead (a trend of one
// benchmark reads its rows alone).
class RowReader {
 public:
  RowReader(sqlite3* db, std::vector<std::string> only, bool look_up)
      : statement_(db, look_up ? sql::kRunSummary : sql::kRunSummaries),
        kept_(only.begin(), only.end()),
        look_up_(look_up) {}

  void operator()(SeriesRun& run) {
    if (look_up_) {
      for (const std::string& benchmark : kept_) {  // sorted: the rows come in name order
        statement_.bind(1, run.run_id).bind(2, benchmark);
        if (statement_.step()) run.summaries.push_back(summary_row(statement_, 0));
        statement_.reset();
      }
      return;
    }
    statement_.bind(1, run.run_id);
    while (statement_.step()) {
      if (kept_.empty() || kept_.count(statement_.text(0)) > 0) {
        run.summaries.push_back(summary_row(statement_, 0));
      }
    }
    statement_.reset();
  }

 private:
  Statement statement_;
  std::set<std::string, std::less<>> kept_;
  bool look_up_;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteStore() override { sqlite3_close_v2(db_); }

  model::Result<bool> add(const StoredRun& run) override {
    return guarded("record a run in", [&] {
      Transaction transaction(db_);
      Statement insert(db_, sql::kInsertRun);
      insert.bind(1, run.id).bind(2, run.date).bind(3, run.commit).bind(4, run.branch);
      insert.bind(5, run.dirty).bind(6, run.machine).bind(7, run.build).bind(8, run.hostname);
      insert.bind(9, static_cast<std::int64_t>(run.summaries.size()));
      insert.bind_blob(10, run.compressed_result).bind(11, run.group);
      insert.bind(12, static_cast<std::int64_t>(run.shard_index));
      insert.bind(13, static_cast<std::int64_t>(run.shard_count));
      insert.run();
      if (sqlite3_changes(db_) == 0) return false;  // stored before: nothing to do
      insert_details(run);
      insert_packed(run.id, run.summaries);
      transaction.commit();
      return true;
    });
  }

  model::Result<std::vector<RunInfo>> list(const RunQuery& query) override {
    return guarded("list the runs of", [&] {
      std::vector<RunInfo> runs;
      Statement select(db_, sql::kListRuns);
      bind_query(select, query);
      std::map<std::string, std::size_t> index;
      while (select.step()) {
        index[select.text(0)] = runs.size();
        runs.push_back(run_info(select));
      }
      Statement tags(db_, sql::kListTags);
      bind_query(tags, query);
      while (tags.step()) {
        const auto found = index.find(tags.text(0));
        if (found != index.end()) runs[found->second].tags[tags.text(1)] = tags.text(2);
      }
      return runs;
    });
  }

  model::Result<StoredRun> find(std::string_view id_prefix) override {
    if (auto refused = bad_run_identity(id_prefix)) return *refused;
    std::optional<StoredRun> found;
    std::size_t matches = 0;
    auto read = guarded("read a run of", [&] {
      Statement select(db_, sql::kFindRun);
      select.bind(1, std::string(id_prefix) + "%");
      while (select.step()) {
        ++matches;
        found.emplace();
        static_cast<RunInfo&>(*found) = run_info(select);
        found->compressed_result = select.blob(12);
      }
      if (matches != 1) return false;
      Statement summaries(db_, sql::kRunSummaries);
      summaries.bind(1, found->id);
      while (summaries.step()) found->summaries.push_back(summary_row(summaries, 0));
      Statement tags(db_, sql::kRunTags);
      tags.bind(1, found->id);
      while (tags.step()) found->tags[tags.text(0)] = tags.text(1);
      return true;
    });
    if (!read) return read.error();
    if (matches == 0) {
      return model::Error{fmt::format(
          "no run {}... in {}; benchkit history list shows the runs there", id_prefix, path_)};
    }
    if (matches > 1) {
      return model::Error{fmt::format(
          "several runs start with {} in {}: give more digits of the identity", id_prefix, path_)};
    }
    return std::move(*found);
  }

  model::Result<bool> each_series_run(const RunQuery& query,
                                      const std::function<void(SeriesRun&)>& each) override {
    return guarded("read the series of", [&] {
      std::vector<SeriesRun> runs = selected_runs(query);
      const bool look_up = !query.benchmarks.empty() && query.benchmarks.size() <= kMostLookups;
      RowReader read(db_, query.benchmarks, look_up);
      for (SeriesRun& run : runs) {
        read(run);
        // A run of no benchmark is no point of any series (as in the joined query of PostgreSQL).
        if (!run.summaries.empty()) each(run);
        run.summaries = {};
      }
      return true;
    });
  }

  model::Result<bool> each_packed_run(const RunQuery& query,
                                      const std::function<void(PackedRun&)>& each) override {
    return guarded("read the series of", [&] {
      std::vector<SeriesRun> runs = selected_runs(query);
      Statement select(db_, sql::kPackedRun);
      PackedRun packed;
      std::string scratch;
      for (SeriesRun& run : runs) {
        select.bind(1, run.run_id);
        const bool found = select.step();
        const std::string points = found ? select.blob(0) : std::string();
        select.reset();
        if (!found) continue;  // a run of no benchmark
        const auto unpacked = unpack_series(points, run.run_id, packed.points, scratch);
        if (!unpacked) throw SqliteFailure(unpacked.error().message, SQLITE_CORRUPT);
        packed.run_id = std::move(run.run_id);
        packed.date = std::move(run.date);
        packed.commit = std::move(run.commit);
        packed.group = std::move(run.group);
        each(packed);
      }
      return true;
    });
  }

  model::Result<std::vector<std::string>> benchmark_names() override {
    return guarded("read the benchmark names of", [&] {
      std::vector<std::string> names;
      Statement select(db_, sql::kBenchmarkNames);
      while (select.step()) names.push_back(select.text(0));
      return names;
    });
  }

  model::Result<bool> set_verdicts(std::string_view run_id,
                                   const std::map<std::string, std::string>& verdicts) override {
    return guarded("write the verdicts into", [&] {
      // One prepared statement in one transaction: in-process, each a primary-key update with no
      // round trip (10,000 verdicts in milliseconds), where PostgreSQL needs one statement.
      Transaction transaction(db_);
      Statement update(db_, sql::kSetVerdict);
      for (const auto& [benchmark, verdict] : verdicts) {
        update.bind(1, verdict).bind(2, run_id).bind(3, benchmark);
        update.run();
        update.reset();
      }
      transaction.commit();
      return true;
    });
  }

  model::Result<std::size_t> remove(const std::vector<std::string>& run_ids) override {
    return guarded("remove runs from", [&] {
      Transaction transaction(db_);
      Statement remove(db_, sql::kDeleteRun);
      std::size_t removed = 0;
      for (const std::string& id : run_ids) {
        remove.bind(1, id);
        remove.run();
        removed += static_cast<std::size_t>(sqlite3_changes(db_));
        remove.reset();
      }
      transaction.commit();
      return removed;
    });
  }

  std::string location() const override { return path_; }

  // Brings the file to kSchemaVersion; see open_sqlite_store.
  model::Result<bool> migrate();

 private:
  // The runs of a series (the newest query.newest alone, when set), oldest first, no rows yet.
  std::vector<SeriesRun> selected_runs(const RunQuery& query) {
    std::vector<SeriesRun> runs;
    Statement select(db_, query.newest > 0 ? sql::kSeriesNewestRuns : sql::kSeriesRuns);
    bind_query(select, query);
    if (query.newest > 0) select.bind(5, static_cast<std::int64_t>(query.newest));
    while (select.step()) {
      runs.push_back(SeriesRun{.run_id = select.text(0),
                               .date = select.text(1),
                               .commit = select.text(2),
                               .group = select.text(3),
                               .summaries = {}});
    }
    if (query.newest > 0) std::reverse(runs.begin(), runs.end());  // read newest first
    return runs;
  }

  // The run's points packed into series_runs (none for a run of no benchmark).
  void insert_packed(const std::string& run_id, const std::vector<SummaryRow>& rows) {
    if (rows.empty()) return;
    const std::string points = pack_series(rows);
    Statement(db_, sql::kInsertPackedRun).bind(1, run_id).bind_blob(2, points).run();
  }

  void insert_details(const StoredRun& run) {
    Statement summary(db_, sql::kInsertSummary);
    for (const SummaryRow& row : run.summaries) {
      summary.bind(1, run.id).bind(2, row.benchmark).bind(3, row.median).bind(4, row.lower);
      summary.bind(5, row.upper).bind(6, static_cast<std::int64_t>(row.samples));
      summary.bind(7, row.verdict).bind(8, row.diagnostics);
      summary.run();
      summary.reset();
    }
    Statement tag(db_, sql::kInsertTag);
    for (const auto& [name, value] : run.tags) {
      tag.bind(1, run.id).bind(2, name).bind(3, value);
      tag.run();
      tag.reset();
    }
  }

  int stored_version() {
    Statement exists(db_,
                     "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                     "'benchkit_schema'");
    exists.step();
    if (exists.integer(0) == 0) return 0;
    Statement version(db_, sql::kReadVersion);
    return version.step() ? static_cast<int>(version.integer(0)) : 0;
  }

  int table_count() {
    Statement tables(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
    tables.step();
    return static_cast<int>(tables.integer(0));
  }

  // Schema 5: every run's summary rows packed into series_runs.
  void pack_every_run() {
    std::vector<std::string> ids;
    for (Statement select(db_, sql::kAllRunIds); select.step();) ids.push_back(select.text(0));
    std::cerr << packing_note(path_, ids.size()) << std::flush;
    Statement rows(db_, sql::kRunSummaries);
    for (const std::string& id : ids) {
      std::vector<SummaryRow> summaries;
      rows.bind(1, id);
      while (rows.step()) summaries.push_back(summary_row(rows, 0));
      rows.reset();
      insert_packed(id, summaries);
    }
  }

  void backfill() {
    std::vector<StoredRun> runs;
    {
      Statement select(db_, sql::kAllRunResults);
      while (select.step()) {
        StoredRun run;
        run.id = select.text(0);
        run.compressed_result = select.blob(1);
        runs.push_back(std::move(run));
      }
    }
    for (StoredRun& run : runs) {
      auto filled = backfill_from_result(std::move(run));
      if (!filled) throw SqliteFailure(filled.error().message, SQLITE_CORRUPT);
      Statement(db_, sql::kDeleteSummaries).bind(1, filled->id).run();
      Statement(db_, sql::kDeleteTags).bind(1, filled->id).run();
      insert_details(*filled);
    }
  }

  // Runs `body` and turns a failed SQLite call into an Error naming `operation` and the file.
  template <class Body>
  auto guarded(const char* operation, Body body) -> model::Result<decltype(body())> {
    try {
      return body();
    } catch (const SqliteFailure& failure) {
      return model::Error{describe(operation, failure)};
    }
  }

  std::string describe(const char* operation, const SqliteFailure& failure) const {
    if (failure.code == SQLITE_NOTADB || failure.code == SQLITE_CORRUPT) {
      return fmt::format(
          "cannot {} history {}: the file is damaged or not an SQLite database ({}); move it "
          "away to start a new history, or restore it from a backup (or a CI cache)",
          operation, path_, failure.what());
    }
    if (failure.code == SQLITE_BUSY || failure.code == SQLITE_LOCKED) {
      return fmt::format(
          "cannot {} history {}: another process held it for more than {} s ({}); wait for "
          "it to end and try again",
          operation, path_, kSqliteBusyTimeoutMs / 1000, failure.what());
    }
    return fmt::format("cannot {} history {}: {}", operation, path_, failure.what());
  }

  sqlite3* db_;
  std::string path_;
};

model::Result<bool> SqliteStore::migrate() {
  return guarded("open", [&]() -> bool {
    // Read before anything is written: a file of another program, or of a newer benchkit, is
    // left exactly as it was.
    const int found = stored_version();
    if (found > kSchemaVersion) {
      throw SqliteFailure(
          fmt::format("it has schema version {}, newer than this benchkit's {}; upgrade "
                      "benchkit (the database is left as it is)",
                      found, kSchemaVersion),
          SQLITE_OK);
    }
    if (found == 0 && table_count() > 0) {
      throw SqliteFailure(
          "it is an SQLite database of another program (it has tables but no benchkit_schema); "
          "give --store another file",
          SQLITE_OK);
    }
    if (found == kSchemaVersion) return true;
    // WAL needs the file to itself for a moment; with the busy timeout set, it waits for others.
    execute(db_, "PRAGMA journal_mode = WAL");
    Transaction transaction(db_);
    execute(db_, schema_table_statement());
    for (int version = stored_version() + 1; version <= kSchemaVersion; ++version) {
      for (const std::string& statement : migration_statements(version, Dialect::sqlite)) {
        execute(db_, statement);
      }
      switch (migration_backfill(version)) {
        case Backfill::none:
          break;
        case Backfill::from_results:
          backfill();
          break;
        case Backfill::packed_series:
          pack_every_run();
          break;
      }
      execute(db_, sql::kDeleteVersion);
      Statement(db_, sql::kWriteVersion).bind(1, static_cast<std::int64_t>(version)).run();
    }
    transaction.commit();
    return true;
  });
}

}  // namespace

namespace {
// SQLite says "disk I/O error" or "unable to open database file" when the disk holding the
// history is full or its folder is read-only (it cannot create the -wal and -shm files): what
// the folder's state shows, said in words a user can act on, or "".
std::string folder_problem(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string folder = file.has_parent_path() ? file.parent_path().string() : ".";
  struct statvfs disk {};
  if (::statvfs(folder.c_str(), &disk) == 0) {
    if (disk.f_flag & ST_RDONLY)
      return " (its folder " + folder + " is on a read-only file system)";
    if (disk.f_bavail == 0) return " (the disk holding " + folder + " is full: free some space)";
  }
  if (::access(folder.c_str(), W_OK) != 0) return " (its folder " + folder + " is not writable)";
  return {};
}
}  // namespace

model::Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path file(path);
  if (file.has_parent_path() && !fs::exists(file.parent_path(), error)) {
    fs::create_directories(file.parent_path(), error);
    if (error) {
      return model::Error{
          fmt::format("cannot create the folder of history {}: {}; give --store "
                      "a file in a folder you can write",
                      path, error.message())};
    }
  }
  sqlite3* db = nullptr;
  // NOMUTEX: a store is used by one thread at a time, and SQLite's own locking of every call
  // was a tenth of reading a long series.
  const int opened = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (opened != SQLITE_OK) {
    const std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(opened);
    sqlite3_close_v2(db);
    return model::Error{
        fmt::format("cannot open history {}: {}{}; check the path and that you may write there",
                    path, reason, folder_problem(path))};
  }
  sqlite3_busy_timeout(db, kSqliteBusyTimeoutMs);
  sqlite3_extended_result_codes(db, 0);
  auto store = std::make_unique<SqliteStore>(db, path);
  // Foreign keys: removing a run removes its rows. synchronous NORMAL: in WAL mode a committed
  // transaction survives the process being killed; only a power cut may lose the last ones.
  for (const char* pragma : {"PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL"}) {
    sqlite3_exec(db, pragma, nullptr, nullptr, nullptr);
  }
  if (auto migrated = store->migrate(); !migrated) {
    model::Error error = migrated.error();
    error.message += folder_problem(path);
    return error;
  }
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace benchkit::store
