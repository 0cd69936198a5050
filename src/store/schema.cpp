#include "store/schema.hpp"

#include <fmt/format.h>

namespace benchkit::store {
namespace {

// The column types that differ between the two dialects.
struct Types {
  const char* blob;
  const char* real;
};

Types types_of(Dialect dialect) {
  if (dialect == Dialect::postgresql) return {"BYTEA", "DOUBLE PRECISION"};
  return {"BLOB", "REAL"};
}

// Version 3: the order in which runs were recorded, so that two runs of one second (the dates'
// precision) keep their order: `benchkit ab --record` records two runs in one second, and the
// newest must be the one recorded last, not the one whose identity sorts last. The runs of an
// older database are numbered in the order it showed them (date, then identity).
std::vector<std::string> recording_order(Dialect dialect) {
  std::vector<std::string> statements = {
      "ALTER TABLE runs ADD COLUMN recorded BIGINT",
      "UPDATE runs SET recorded = ordered.n FROM (SELECT id, row_number() OVER (ORDER BY date, id)"
      " AS n FROM runs) AS ordered WHERE runs.id = ordered.id",
      "CREATE INDEX runs_by_recording ON runs (recorded)",
  };
  if (dialect == Dialect::postgresql) {
    // A sequence: runners writing at once each take the next number without a lock.
    statements.insert(statements.end(),
                      {"CREATE SEQUENCE runs_recorded_seq OWNED BY runs.recorded",
                       "SELECT setval('runs_recorded_seq', (SELECT COALESCE(MAX(recorded), 0) + 1"
                       " FROM runs), false)",
                       "ALTER TABLE runs ALTER COLUMN recorded SET DEFAULT"
                       " nextval('runs_recorded_seq')",
                       "ALTER TABLE runs ALTER COLUMN recorded SET NOT NULL"});
  } else {
    // SQLite has one writer at a time (BEGIN IMMEDIATE): the next number is the largest + 1,
    // found through the index. A column's default cannot be a query, so a trigger sets it.
    statements.push_back(
        "CREATE TRIGGER runs_recording_order AFTER INSERT ON runs WHEN NEW.recorded IS NULL"
        " BEGIN UPDATE runs SET recorded = (SELECT COALESCE(MAX(recorded), 0) + 1 FROM runs)"
        " WHERE id = NEW.id; END");
  }
  return statements;
}

}  // namespace

std::string schema_table_statement() {
  return "CREATE TABLE IF NOT EXISTS benchkit_schema (version INTEGER NOT NULL)";
}

std::vector<std::string> migration_statements(int version, Dialect dialect) {
  const Types types = types_of(dialect);
  if (version == 1) {
    return {
        fmt::format("CREATE TABLE runs ("
                    " id TEXT PRIMARY KEY,"
                    " date TEXT NOT NULL,"
                    " git_commit TEXT NOT NULL,"
                    " git_branch TEXT NOT NULL,"
                    " dirty INTEGER,"  // NULL: not known
                    " machine TEXT NOT NULL,"
                    " build TEXT NOT NULL,"
                    " hostname TEXT NOT NULL,"
                    " benchmark_count INTEGER NOT NULL,"
                    " result {} NOT NULL)",
                    types.blob),
        "CREATE INDEX runs_by_series ON runs (machine, git_branch, date)",
        "CREATE INDEX runs_by_date ON runs (date)",
        fmt::format("CREATE TABLE summaries ("
                    " run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
                    " benchmark TEXT NOT NULL,"
                    " median {0} NOT NULL,"
                    " lower_bound {0} NOT NULL,"
                    " upper_bound {0} NOT NULL,"
                    " PRIMARY KEY (run_id, benchmark))",
                    types.real),
        "CREATE INDEX summaries_by_benchmark ON summaries (benchmark)",
    };
  }
  if (version == 2) {
    return {
        "CREATE TABLE run_tags ("
        " run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,"
        " name TEXT NOT NULL,"
        " value TEXT NOT NULL,"
        " PRIMARY KEY (run_id, name))",
        "ALTER TABLE summaries ADD COLUMN verdict TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE summaries ADD COLUMN diagnostics TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE summaries ADD COLUMN sample_count INTEGER NOT NULL DEFAULT 0",
    };
  }
  if (version == 3) return recording_order(dialect);
  if (version == 4) {
    // The group's runs are found by (group, commit): `history check` of a group reads its
    // members through this index, whatever the size of the history.
    return {
        "ALTER TABLE runs ADD COLUMN run_group TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE runs ADD COLUMN shard_index INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE runs ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX runs_by_group ON runs (run_group, git_commit)",
    };
  }
  if (version == 5) {
    std::vector<std::string> statements = {
        fmt::format("CREATE TABLE series_runs ("
                    " run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,"
                    " points {} NOT NULL)",
                    types.blob)};
    // The value is compressed already (zstd): PostgreSQL keeps it out of line as it is, where it
    // would first try its own compression on every row written.
    if (dialect == Dialect::postgresql) {
      statements.push_back("ALTER TABLE series_runs ALTER COLUMN points SET STORAGE EXTERNAL");
    }
    return statements;
  }
  return {};
}

std::string packing_note(std::string_view location, std::size_t runs) {
  // Below this many runs the packing takes a moment, not worth a line.
  constexpr std::size_t kQuietRuns = 100;
  if (runs < kQuietRuns) return {};
  return fmt::format(
      "note: history {} moves to schema {}: packing the series of its {} runs, once (about a "
      "second per 50 runs of 10,000 benchmarks); other runners wait for it\n",
      location, kSchemaVersion, runs);
}

Backfill migration_backfill(int version) {
  if (version == 2) return Backfill::from_results;
  if (version == 5) return Backfill::packed_series;
  return Backfill::none;
}

}  // namespace benchkit::store
