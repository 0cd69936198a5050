// Inside store/: the statements both history stores run. SQLite reads $1, $2... as parameters
// numbered in order of first appearance, so one text serves both dialects when each parameter
// first appears in its numeric order.
#pragma once

#include <string>

namespace benchkit::store::sql {

inline constexpr const char* kReadVersion = "SELECT version FROM benchkit_schema";
inline constexpr const char* kDeleteVersion = "DELETE FROM benchkit_schema";
inline constexpr const char* kWriteVersion = "INSERT INTO benchkit_schema (version) VALUES ($1)";

inline constexpr const char* kInsertRun =
    "INSERT INTO runs (id, date, git_commit, git_branch, dirty, machine, build, hostname,"
    " benchmark_count, result, run_group, shard_index, shard_count) VALUES ($1, $2, $3, $4, $5,"
    " $6, $7, $8, $9, $10, $11, $12, $13)"
    " ON CONFLICT (id) DO NOTHING";
inline constexpr const char* kInsertSummary =
    "INSERT INTO summaries (run_id, benchmark, median, lower_bound, upper_bound, sample_count,"
    " verdict, diagnostics) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
inline constexpr const char* kInsertPackedRun =
    "INSERT INTO series_runs (run_id, points) VALUES ($1, $2)";
inline constexpr const char* kInsertTag =
    "INSERT INTO run_tags (run_id, name, value) VALUES ($1, $2, $3)";

// Runs are in the order of their dates, and runs of one date (to the second) in the order they
// were recorded (schema 3).
// Every selection takes the four fields of a RunQuery as $1..$4 ('' selects all).
#define BENCHKIT_RUN_FILTER                                                         \
  " ($1 = '' OR r.machine = $1) AND ($2 = '' OR r.git_branch = $2) AND ($3 = '' OR" \
  " r.date >= $3) AND ($4 = '' OR r.date < $4)"

inline constexpr const char* kListRuns =
    "SELECT r.id, r.date, r.git_commit, r.git_branch, r.dirty, r.machine, r.build, r.hostname,"
    " r.benchmark_count, r.run_group, r.shard_index, r.shard_count FROM runs r "
    "WHERE" BENCHKIT_RUN_FILTER " ORDER BY r.date, r.recorded";
inline constexpr const char* kListTags =
    "SELECT t.run_id, t.name, t.value FROM run_tags t JOIN runs r ON r.id = t.run_id"
    " WHERE" BENCHKIT_RUN_FILTER;
// PostgreSQL's series of some benchmarks: $5 is an array literal of their names. The rows are
// found through summaries_by_benchmark, not by reading every row of the selected runs.
inline constexpr const char* kSeriesOf =
    "SELECT r.id, r.date, r.git_commit, r.run_group, s.benchmark, s.median, s.lower_bound,"
    " s.upper_bound, s.sample_count, s.verdict, s.diagnostics FROM runs r JOIN summaries s ON"
    " s.run_id = r.id"
    " WHERE" BENCHKIT_RUN_FILTER
    " AND s.benchmark = ANY ($5::text[])"
    " ORDER BY r.date, r.recorded, s.benchmark";
// A series, both stores: the runs, oldest first; their summary rows are then read run by run
// (kRunSummaries), each run's in the order of its primary key: no sort of every row at once (on
// PostgreSQL, one joined query sorted ten million rows on disk: docs/history.md, "Fleet scale").
inline constexpr const char* kSeriesRuns =
    "SELECT r.id, r.date, r.git_commit, r.run_group FROM runs r WHERE" BENCHKIT_RUN_FILTER
    " ORDER BY r.date, r.recorded";
// The newest $5 runs of a series, newest first (RunQuery::newest; the store turns them round):
// `history check` reads the window its reference and change points come from, not the whole
// history.
inline constexpr const char* kSeriesNewestRuns =
    "SELECT r.id, r.date, r.git_commit, r.run_group FROM runs r WHERE" BENCHKIT_RUN_FILTER
    " ORDER BY r.date DESC, r.recorded DESC LIMIT $5";
#undef BENCHKIT_RUN_FILTER

// $1: an identity prefix followed by '%'.
// The columns of kListRuns (one mapping to RunInfo per store), then the result.
inline constexpr const char* kFindRun =
    "SELECT r.id, r.date, r.git_commit, r.git_branch, r.dirty, r.machine, r.build, r.hostname,"
    " r.benchmark_count, r.run_group, r.shard_index, r.shard_count, r.result FROM runs r"
    " WHERE r.id LIKE $1 ORDER BY r.id LIMIT 2";
inline constexpr const char* kRunSummaries =
    "SELECT benchmark, median, lower_bound, upper_bound, sample_count, verdict, diagnostics"
    " FROM summaries WHERE run_id = $1 ORDER BY benchmark";
// PostgreSQL's series: the rows of the runs named by `ids` (an SQL literal of a text array,
// oldest first) as one binary COPY, numbered 1.. by run. A nested loop over the numbered
// identities reads each run's rows through the primary key, so the order by `ord` needs no sort
// of the rows (OFFSET 0 keeps the planner from flattening the per-run query into a hash join of
// every row and a sort of them all: EXPLAIN in docs/history.md); within a run they come in the
// order stored (one COPY, in the order of its result), and the store puts them in name order itself
// when they are not (docs/history.md, "Fleet scale").
inline std::string series_rows_copy(const std::string& ids) {
  return "COPY (SELECT r.ord, s.benchmark, s.median, s.lower_bound, s.upper_bound,"
         " s.sample_count::bigint, s.verdict, s.diagnostics FROM unnest(" +
         ids +
         "::text[]) WITH ORDINALITY AS r(id, ord) CROSS JOIN LATERAL (SELECT benchmark, median,"
         " lower_bound, upper_bound, sample_count, verdict, diagnostics FROM summaries WHERE"
         " summaries.run_id = r.id OFFSET 0) s"
         " ORDER BY"
         " r.ord) TO STDOUT (FORMAT binary)";
}
// PostgreSQL's packed series: the packed points of the runs named by $1 (an array literal,
// oldest first) with their number 1.. in that order, one row a run, through the primary key of
// series_runs (OFFSET 0 keeps the per-run lookup a nested loop, as in series_rows_copy).
inline constexpr const char* kPackedRuns =
    "SELECT r.ord, p.points FROM unnest($1::text[]) WITH ORDINALITY AS r(id, ord) CROSS JOIN"
    " LATERAL (SELECT points FROM series_runs WHERE series_runs.run_id = r.id OFFSET 0) p"
    " ORDER BY r.ord";
// One run's packed points (SQLite's packed series).
inline constexpr const char* kPackedRun = "SELECT points FROM series_runs WHERE run_id = $1";
// The runs the migration to schema 5 packs.
inline constexpr const char* kAllRunIds = "SELECT id FROM runs";
// One benchmark's row of one run, through the primary key (SQLite's series of a few benchmarks).
inline constexpr const char* kRunSummary =
    "SELECT benchmark, median, lower_bound, upper_bound, sample_count, verdict, diagnostics"
    " FROM summaries WHERE run_id = $1 AND benchmark = $2";
// The distinct benchmark names, one index probe each through summaries_by_benchmark (a loose
// index scan): 10,000 names among ten million rows in milliseconds, where SELECT DISTINCT reads
// every row. Both dialects run it.
inline constexpr const char* kBenchmarkNames =
    "WITH RECURSIVE names (benchmark) AS ("
    " SELECT min(benchmark) FROM summaries"
    " UNION ALL"
    " SELECT (SELECT s.benchmark FROM summaries s WHERE s.benchmark > n.benchmark"
    " ORDER BY s.benchmark LIMIT 1) FROM names n WHERE n.benchmark IS NOT NULL)"
    " SELECT benchmark FROM names WHERE benchmark IS NOT NULL";
inline constexpr const char* kRunTags = "SELECT name, value FROM run_tags WHERE run_id = $1";
inline constexpr const char* kAllRunResults = "SELECT id, result FROM runs";
inline constexpr const char* kDeleteSummaries = "DELETE FROM summaries WHERE run_id = $1";
inline constexpr const char* kDeleteTags = "DELETE FROM run_tags WHERE run_id = $1";

inline constexpr const char* kSetVerdict =
    "UPDATE summaries SET verdict = $1 WHERE run_id = $2 AND benchmark = $3";
// PostgreSQL's verdicts of one run in one statement: $2 and $3 are array literals of the names
// and their verdicts, in the same order (a run of 10,000 benchmarks was 10,000 round trips).
inline constexpr const char* kSetVerdicts =
    "UPDATE summaries s SET verdict = v.verdict FROM unnest($2::text[], $3::text[]) AS v"
    " (benchmark, verdict) WHERE s.run_id = $1 AND s.benchmark = v.benchmark";
inline constexpr const char* kDeleteRun = "DELETE FROM runs WHERE id = $1";

}  // namespace benchkit::store::sql
