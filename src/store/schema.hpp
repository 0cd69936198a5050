// The history database's schema, versioned: each version's migration takes a database from the
// version before it. Both stores apply the same migrations (in their SQL dialect) in one
// transaction per version, and record the version reached in benchkit_schema.
//
//   1  runs (identity, commit, branch, date, dirty, fingerprints, compressed result) and one
//      summary row per benchmark (median and CI), indexed by series
//   2  tags of each run (run_tags), and verdict, diagnostics and sample count in the summaries
//      (filled in from the stored results when an older database is migrated)
//   3  the order of recording (runs.recorded): runs of the same date, to the second, are in the
//      order they were recorded
//   4  the run group and shard of each run (runs.run_group, shard_index, shard_count): the
//      shards of one CI run, recorded by several runners, shown as one run (docs/history.md);
//      runs of an older database are each a run of their own (group '', no shard)
//   5  each run's series points packed into one row (series_runs, store/packed_series.hpp):
//      a trend or check of every benchmark reads one row per run, not one per benchmark;
//      packed from the summary rows when an older database is migrated
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace benchkit::store {

// The schema this benchkit writes. A database with a newer version is refused (an older
// benchkit cannot know what a newer one stores) with a message saying to upgrade benchkit.
inline constexpr int kSchemaVersion = 5;

enum class Dialect { sqlite, postgresql };

// The statements of the migration to version `version` (1..kSchemaVersion), without the update
// of benchkit_schema (the store does that in the same transaction).
std::vector<std::string> migration_statements(int version, Dialect dialect);

// What migrating to `version` fills in after its statements, in the migration's transaction.
enum class Backfill {
  none,
  // New columns from the stored results: the store calls backfill_from_result for each run.
  from_results,
  // series_runs from the summary rows: the store packs each run's rows (pack_series).
  packed_series,
};
Backfill migration_backfill(int version);

// What a store says on stderr before packing the series of `runs` runs (Backfill::packed_series)
// when there are enough of them to take a while (a fleet's 1,000 runs of 10,000 benchmarks took
// 20 s on PostgreSQL): the wait explained, once. Empty below that.
std::string packing_note(std::string_view location, std::size_t runs);

// The statement that creates the version table, present from version 1 on.
std::string schema_table_statement();

}  // namespace benchkit::store
