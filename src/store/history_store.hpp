// History: every recorded run, behind one Store interface with two implementations (SQLite,
// store/sqlite_store.hpp, the default; PostgreSQL, store/postgres_store.hpp, for a fleet of CI
// runners writing to one database). Both pass one test suite (tests/store/history_store_test.cpp).
//
// A stored run keeps what identifies and places it (commit, branch, date, dirty flag, tags, the
// machine and build fingerprints), the whole result document compressed (samples included), and
// one summary row per benchmark (median with its CI, verdict, diagnostics), indexed so that a
// series of one benchmark on one machine and branch is one query.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::store {
struct PackedRun;
}

namespace benchkit::store {

// One benchmark of a stored run, as the summary table holds it.
struct SummaryRow {
  std::string benchmark = {};
  double median = 0;  // ns per iteration
  double lower = 0;   // 95% CI of the median
  double upper = 0;
  std::size_t samples = 0;
  std::string verdict = {};      // set by `history check` for the run it checked; "" before
  std::string diagnostics = {};  // diagnostic codes, comma-separated
};

// A run as `list` shows it (no result document); a StoredRun is one with its result.
struct RunInfo {
  // The run's identity: the first 32 hex digits of the SHA-256 of its result document (as
  // formats::to_json writes it). Recording the same result twice stores it once.
  std::string id = {};
  std::string date = {};  // the result's context.date (ISO 8601, UTC), the order of a series
  std::string commit = {};
  std::string branch = {};
  std::optional<bool> dirty = {};
  std::map<std::string, std::string> tags = {};
  std::string machine = {};  // machine fingerprint id (system/fingerprint.hpp)
  std::string build = {};    // build fingerprint id
  std::string hostname = {};
  std::size_t benchmarks = 0;
  // The run group ("" none) and the shard K of N the run measured (0 and 0: the
  // whole selection), for the history to join the shards of one group and commit.
  std::string group = {};
  std::size_t shard_index = 0;
  std::size_t shard_count = 0;
};

// What a run is stored as: its RunInfo (read by each store from one row mapping, for list and
// find alike) with the result and the summary rows. make_stored_run builds it from a result.
struct StoredRun : RunInfo {
  std::string compressed_result = {};  // zstd of the result document
  std::vector<SummaryRow> summaries = {};
};

// `machine` and `build` are the fingerprint ids the caller computed from the context; `group`
// the run group it is recorded under (session/run_groups.hpp), "" none. The group is no part of
// the run's identity: one result recorded twice is one run, whatever group it was given.
StoredRun make_stored_run(const RunResult& run, std::string machine, std::string build,
                          std::string group = {});

// The result document of a stored run, decompressed; the error names the run.
model::Result<std::string> result_document(const StoredRun& run);

// Why `id_prefix` cannot name a run (fewer than 4 characters, or not lowercase hex), for both
// stores' find(); nullopt when it can.
std::optional<model::Error> bad_run_identity(std::string_view id_prefix);

// For the migrations of both stores: the tags and summary rows of `run` (tags, verdict,
// diagnostics and sample counts were added in schema 2) read again from its stored result.
model::Result<StoredRun> backfill_from_result(StoredRun run);

// Which runs a query selects; an empty field selects all.
struct RunQuery {
  std::string machine = {};
  std::string branch = {};
  std::string since = {};   // date >= since (ISO 8601 text compares in time order)
  std::string before = {};  // date < before
  // series() only: the rows of these benchmarks alone (empty: every benchmark). A trend of one
  // benchmark in a history of 10,000 then reads its 1,000 rows, not ten million.
  std::vector<std::string> benchmarks = {};
  // series() only: the newest this many runs of the selection alone (0: every run), still
  // oldest first. `history check` reads the window it judges from (session/history.hpp), a few
  // hundred runs of a history of thousands.
  std::size_t newest = 0;
};

// One run of a series with its summary rows (by benchmark name): a point of each benchmark.
// The run is named once, not once per row: a trend over 1,000 benchmarks x 500 commits reads
// half a million rows.
struct SeriesRun {
  std::string run_id = {};
  std::string date = {};
  std::string commit = {};
  std::string group = {};
  std::vector<SummaryRow> summaries = {};
};

// One thread uses a store at a time (the SQLite store opens its connection without SQLite's
// own locking).
class Store {
 public:
  virtual ~Store() = default;

  // Stores the run in one transaction: either all of it is there afterwards or nothing.
  // Returns false when a run of that identity was already stored (nothing is changed).
  virtual model::Result<bool> add(const StoredRun& run) = 0;

  // Runs selected by `query`, oldest first (by date, then identity).
  virtual model::Result<std::vector<RunInfo>> list(const RunQuery& query) = 0;

  // The stored run whose identity starts with `id_prefix` (at least 4 hex digits); an error
  // when none or several match.
  virtual model::Result<StoredRun> find(std::string_view id_prefix) = 0;

  // The runs selected by `query` with their summary rows, ordered by date then order of
  // recording, each run's rows by benchmark name (each_series_run, collected). A run without a
  // row is left out.
  model::Result<std::vector<SeriesRun>> series(const RunQuery& query);

  // series() one run at a time: `each` gets each run, oldest first, and may take its rows. Both
  // stores read the runs first, then each run's rows through the summaries' primary key (run,
  // benchmark): no sort of every row, and no more than one run's rows held (a trend of every
  // benchmark of a history of ten million rows). When a PostgreSQL connection is lost and the
  // read starts again, the runs `each` already had are not given again.
  virtual model::Result<bool> each_series_run(const RunQuery& query,
                                              const std::function<void(SeriesRun&)>& each) = 0;

  // The runs `query` selects (its `benchmarks` ignored: every benchmark of each run), oldest
  // first, each with its points packed (schema 5, store/packed_series.hpp): one row a run where
  // each_series_run reads one a benchmark, for a trend or check of every benchmark. `each` may
  // keep nothing of the run past its call (its buffers are reused). A run without a row is left
  // out; a lost PostgreSQL connection does not give a run twice.
  virtual model::Result<bool> each_packed_run(const RunQuery& query,
                                              const std::function<void(PackedRun&)>& each) = 0;

  // The names of every benchmark the store holds a row of, in any run, sorted: what a
  // benchmark pattern is matched against before series() reads the chosen ones' rows.
  virtual model::Result<std::vector<std::string>> benchmark_names() = 0;

  // Sets the verdict column of `run_id`'s summary rows (benchmark name -> verdict).
  virtual model::Result<bool> set_verdicts(std::string_view run_id,
                                           const std::map<std::string, std::string>& verdicts) = 0;

  // Deletes the runs (and their summary rows); returns how many were deleted.
  virtual model::Result<std::size_t> remove(const std::vector<std::string>& run_ids) = 0;

  // Where the store is, for messages: a file path, or a URL with any password replaced by ***.
  virtual std::string location() const = 0;
};

}  // namespace benchkit::store
