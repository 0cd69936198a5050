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
  return {};
}

bool migration_backfills(int version) {
  return version == 2;
}

}  // namespace benchkit::store
