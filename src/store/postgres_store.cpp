#include "store/postgres_store.hpp"

#include <fmt/format.h>

#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <pqxx/pqxx>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "benchkit_build_info.hpp"
#include "store/binary_copy.hpp"
#include "store/history_sql.hpp"
#include "store/packed_series.hpp"
#include "store/postgres_module.hpp"
#include "store/schema.hpp"

namespace benchkit::store {

namespace {

// One lock id for benchkit's migrations (any constant: it only has to be the same in every
// benchkit): first connections from several runners at once migrate one after another.
constexpr long kMigrationLock = 0x62656e63686b6974 & 0x7fffffff;

// The password of `url`, to scrub from a server's message (libpq does not print it, but a
// message that quotes the connection string would).
std::string password_of(std::string_view url) {
  const std::string redacted = redact_url(url);
  if (redacted == url) return {};
  const std::size_t start = redacted.find("***");
  const std::size_t end = url.find('@', start);
  return std::string(url.substr(start, end - start));
}

std::string scrub(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
    text.replace(at, secret.size(), "***");
  }
  return text;
}

// libpq's messages span lines ("...failed: Connection refused\n\tIs the server running...");
// one line reads better inside benchkit's own sentence.
std::string trimmed(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  std::string single;
  for (char c : text) {
    if (c != ' ' || single.empty() || single.back() != ' ') single += c;
  }
  return single;
}

std::optional<bool> flag(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return field.as<int>() != 0;
}

RunInfo run_info(const pqxx::row& row) {
  return RunInfo{.id = row[0].as<std::string>(),
                 .date = row[1].as<std::string>(),
                 .commit = row[2].as<std::string>(),
                 .branch = row[3].as<std::string>(),
                 .dirty = flag(row[4]),
                 .tags = {},
                 .machine = row[5].as<std::string>(),
                 .build = row[6].as<std::string>(),
                 .hostname = row[7].as<std::string>(),
                 .benchmarks = row[8].as<std::size_t>(),
                 .group = row[9].as<std::string>(),
                 .shard_index = row[10].as<std::size_t>(),
                 .shard_count = row[11].as<std::size_t>()};
}

// A number as the server wrote it, read with std::from_chars: libpqxx 6 reads a double through
// a string stream, a third of reading a series of a million rows. The server writes the
// shortest text that reads back to the same double (extra_float_digits 1, its default).
double number(const pqxx::field& field) {
  double value = 0;
  const char* text = field.c_str();
  const auto [end, error] = std::from_chars(text, text + field.size(), value);
  if (error != std::errc() || end != text + field.size()) return field.as<double>();
  return value;
}

SummaryRow summary_row(const pqxx::row& row, int first) {
  return SummaryRow{.benchmark = row[first].as<std::string>(),
                    .median = number(row[first + 1]),
                    .lower = number(row[first + 2]),
                    .upper = number(row[first + 3]),
                    .samples = row[first + 4].as<std::size_t>(),
                    .verdict = row[first + 5].as<std::string>(),
                    .diagnostics = row[first + 6].as<std::string>()};
}

// By benchmark name, byte by byte (as SQLite's primary key orders them): a run's rows as
// sql::series_rows_copy reads them are nearly always in order already, and checking costs less than
// the server's sort.
void in_name_order(std::vector<SummaryRow>& rows) {
  const auto by_name = [](const SummaryRow& a, const SummaryRow& b) {
    return a.benchmark < b.benchmark;
  };
  if (!std::is_sorted(rows.begin(), rows.end(), by_name)) {
    std::sort(rows.begin(), rows.end(), by_name);
  }
}

// The columns of sql::kInsertSummary, in its order, for the COPY of a run's summary rows.
const std::vector<std::string> kSummaryColumns = {"run_id",      "benchmark",   "median",
                                                  "lower_bound", "upper_bound", "sample_count",
                                                  "verdict",     "diagnostics"};

pqxx::result select_runs(pqxx::work& work, const char* statement, const RunQuery& query) {
  return work.exec_params(statement, query.machine, query.branch, query.since, query.before);
}

// `names` as a PostgreSQL array literal ({"a","b"}): each name quoted, its " and \ escaped, so
// that any name (a comma, a brace, a space) is one element.
std::string array_literal(const std::vector<std::string>& names) {
  std::string literal = "{";
  for (const std::string& name : names) {
    if (literal.size() > 1) literal += ',';
    literal += '"';
    for (const char c : name) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    literal += '"';
  }
  return literal + "}";
}

// The waits before each new connection when the server drops one (a restart, a failover, a
// network cut): a restart of the test server takes about a second (pg_ctl restart -m fast, see
// tests/reliability/postgres_restart.py), so 0.25 + 0.5 + 1 + 2 + 4 = 7.75 s covers a slow one
// without leaving a CI job hanging on a server that is gone; after the last, the error.
constexpr std::array<std::chrono::milliseconds, 5> kReconnectWaits{
    std::chrono::milliseconds(250), std::chrono::milliseconds(500), std::chrono::milliseconds(1000),
    std::chrono::milliseconds(2000), std::chrono::milliseconds(4000)};

struct ClosePq {
  void operator()(PGconn* connection) const { PQfinish(connection); }
};

// The connection, replaced by a new one after the server dropped it. Converts to the connection
// itself, so that a transaction is begun on it as on a pqxx::connection.
class Connection {
 public:
  explicit Connection(const std::string& url)
      : url_(with_connect_timeout(url)), current_(std::make_unique<pqxx::connection>(url_)) {}
  operator pqxx::connection_base&() { return *current_; }  // NOLINT: implicit on purpose
  // A new connection to the same URL; throws as pqxx::connection does, and keeps the old one.
  void reconnect() {
    current_ = std::make_unique<pqxx::connection>(url_);
    bulk_.reset();
  }
  // Closes the bulk connection (the next bulk() opens another): one left in the middle of a COPY
  // by an error could run nothing else.
  void drop_bulk() { bulk_.reset(); }
  // A second connection to the same server through libpq itself, opened at first use, for the
  // series' bulk read (a COPY of a query in binary: libpqxx 6 reads only text, and copies only
  // whole tables). A connection that cannot be made, or was lost, throws broken_connection.
  PGconn& bulk() {
    if (bulk_ && PQstatus(bulk_.get()) == CONNECTION_OK) return *bulk_;
    bulk_.reset(PQconnectdb(url_.c_str()));
    if (!bulk_ || PQstatus(bulk_.get()) != CONNECTION_OK) {
      const std::string reason = bulk_ ? PQerrorMessage(bulk_.get()) : "out of memory";
      bulk_.reset();
      throw pqxx::broken_connection(reason);
    }
    return *bulk_;
  }

 private:
  std::string url_;
  std::unique_ptr<pqxx::connection> current_;
  std::unique_ptr<PGconn, ClosePq> bulk_;
};

// A refusal raised by benchkit itself inside a transaction (a newer schema): already worded.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// GCC 12 takes the engaged check of std::optional inside libpqxx's parameter conversion for a
// read of an uninitialised value (-Wmaybe-uninitialized, a known false positive at -O3).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
class PostgresStore final : public Store {
 public:
  explicit PostgresStore(const std::string& url)
      : connection_(url), shown_(redact_url(url)), secret_(password_of(url)) {}

  model::Result<bool> add(const StoredRun& run) override {
    return guarded("record a run in", [&] {
      pqxx::work work(connection_);
      const pqxx::binarystring result(run.compressed_result.data(), run.compressed_result.size());
      const std::optional<int> dirty =
          run.dirty ? std::optional<int>(*run.dirty ? 1 : 0) : std::nullopt;
      const pqxx::result inserted = work.exec_params(
          sql::kInsertRun, run.id, run.date, run.commit, run.branch, dirty, run.machine, run.build,
          run.hostname, run.summaries.size(), result, run.group, run.shard_index, run.shard_count);
      if (inserted.affected_rows() == 0) return false;  // stored before
      insert_details(work, run);
      insert_packed(work, run.id, run.summaries);
      work.commit();
      return true;
    });
  }

  model::Result<std::vector<RunInfo>> list(const RunQuery& query) override {
    return guarded("list the runs of", [&] {
      pqxx::work work(connection_);
      std::vector<RunInfo> runs;
      std::map<std::string, std::size_t> index;
      for (const pqxx::row& row : select_runs(work, sql::kListRuns, query)) {
        index[row[0].as<std::string>()] = runs.size();
        runs.push_back(run_info(row));
      }
      for (const pqxx::row& row : select_runs(work, sql::kListTags, query)) {
        const auto found = index.find(row[0].as<std::string>());
        if (found == index.end()) continue;
        runs[found->second].tags[row[1].as<std::string>()] = row[2].as<std::string>();
      }
      return runs;
    });
  }

  model::Result<StoredRun> find(std::string_view id_prefix) override {
    if (auto refused = bad_run_identity(id_prefix)) return *refused;
    auto found = guarded("read a run of", [&] {
      pqxx::work work(connection_);
      const pqxx::result rows = work.exec_params(sql::kFindRun, std::string(id_prefix) + "%");
      std::vector<StoredRun> runs;
      for (const pqxx::row& row : rows) {
        StoredRun run;
        static_cast<RunInfo&>(run) = run_info(row);
        run.compressed_result = pqxx::binarystring(row[12]).str();
        runs.push_back(std::move(run));
      }
      if (runs.size() == 1) {
        for (const pqxx::row& row : work.exec_params(sql::kRunSummaries, runs[0].id)) {
          runs[0].summaries.push_back(summary_row(row, 0));
        }
        for (const pqxx::row& row : work.exec_params(sql::kRunTags, runs[0].id)) {
          runs[0].tags[row[0].as<std::string>()] = row[1].as<std::string>();
        }
      }
      return runs;
    });
    if (!found) return found.error();
    if (found->empty()) {
      return model::Error{fmt::format(
          "no run {}... in {}; benchkit history list shows the runs there", id_prefix, shown_)};
    }
    if (found->size() > 1) {
      return model::Error{fmt::format(
          "several runs start with {} in {}: give more digits of the identity", id_prefix, shown_)};
    }
    return std::move(found->front());
  }

  model::Result<bool> each_series_run(const RunQuery& query,
                                      const std::function<void(SeriesRun&)>& each) override {
    // Runs given to `each` before a lost connection are not given again after it.
    std::size_t given = 0;
    const auto give = [&](std::size_t index, SeriesRun& run) {
      if (index < given || run.summaries.empty()) return;  // no row: no point of any series
      each(run);
      given = index + 1;
    };
    return guarded("read the series of", [&] {
      pqxx::work work(connection_);
      // A few benchmarks of every run: their rows found through summaries_by_benchmark.
      if (!query.benchmarks.empty() && query.newest == 0) {
        std::vector<SeriesRun> runs = series_of(work, query);
        for (std::size_t i = 0; i < runs.size(); ++i) give(i, runs[i]);
        return true;
      }
      // The runs, then the rows of all of them in one binary COPY (copy_series_rows).
      std::vector<SeriesRun> runs = selected_runs(work, query);
      work.commit();
      try {
        copy_series_rows(runs, query.benchmarks, given, give);
      } catch (...) {
        connection_.drop_bulk();
        throw;
      }
      return true;
    });
  }

  model::Result<bool> each_packed_run(const RunQuery& query,
                                      const std::function<void(PackedRun&)>& each) override {
    // Runs given to `each` before a lost connection are not given again after it.
    std::size_t given = 0;
    return guarded("read the series of", [&] {
      std::vector<SeriesRun> runs;
      {
        pqxx::work work(connection_);
        runs = selected_runs(work, query);
        work.commit();
      }
      try {
        read_packed_runs(runs, given, each);
      } catch (...) {
        connection_.drop_bulk();
        throw;
      }
      return true;
    });
  }

  model::Result<std::vector<std::string>> benchmark_names() override {
    return guarded("read the benchmark names of", [&] {
      pqxx::work work(connection_);
      std::vector<std::string> names;
      for (const pqxx::row& row : work.exec(sql::kBenchmarkNames)) {
        names.push_back(row[0].as<std::string>());
      }
      return names;
    });
  }

  model::Result<bool> set_verdicts(std::string_view run_id,
                                   const std::map<std::string, std::string>& verdicts) override {
    return guarded("write the verdicts into", [&] {
      pqxx::work work(connection_);
      std::vector<std::string> benchmarks;
      std::vector<std::string> values;
      for (const auto& [benchmark, verdict] : verdicts) {
        benchmarks.push_back(benchmark);
        values.push_back(verdict);
      }
      // One statement for the whole run, not one round trip per benchmark.
      work.exec_params(sql::kSetVerdicts, std::string(run_id), array_literal(benchmarks),
                       array_literal(values));
      work.commit();
      return true;
    });
  }

  model::Result<std::size_t> remove(const std::vector<std::string>& run_ids) override {
    return guarded("remove runs from", [&] {
      pqxx::work work(connection_);
      std::size_t removed = 0;
      for (const std::string& id : run_ids) {
        removed += work.exec_params(sql::kDeleteRun, id).affected_rows();
      }
      work.commit();
      return removed;
    });
  }

  std::string location() const override { return shown_; }

  model::Result<bool> migrate() {
    return guarded("open", [&] {
      pqxx::work work(connection_);
      work.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      const pqxx::row exists = work.exec1(
          "SELECT count(*) FROM information_schema.tables WHERE table_name = 'benchkit_schema'"
          " AND table_schema = current_schema()");
      int version = 0;
      if (exists[0].as<int>() > 0) {
        const pqxx::result found = work.exec(sql::kReadVersion);
        if (!found.empty()) version = found[0][0].as<int>();
      }
      if (version > kSchemaVersion) {
        throw Refusal(fmt::format(
            "it has schema version {}, newer than this benchkit's {}; upgrade benchkit (the "
            "database is left as it is)",
            version, kSchemaVersion));
      }
      if (version == kSchemaVersion) return true;
      work.exec(schema_table_statement());
      for (++version; version <= kSchemaVersion; ++version) {
        for (const std::string& statement : migration_statements(version, Dialect::postgresql)) {
          work.exec(statement);
        }
        switch (migration_backfill(version)) {
          case Backfill::none:
            break;
          case Backfill::from_results:
            backfill(work);
            break;
          case Backfill::packed_series:
            pack_every_run(work, shown_);
            break;
        }
        work.exec(sql::kDeleteVersion);
        work.exec_params(sql::kWriteVersion, version);
      }
      work.commit();
      return true;
    });
  }

 private:
  // The summary rows go through one COPY, not one INSERT each: a run of 10,000 benchmarks was
  // 10,000 round trips to the server (docs/history.md, "Fleet scale", has the figures).
  void insert_details(pqxx::work& work, const StoredRun& run) {
    if (!run.summaries.empty()) {
      pqxx::stream_to copy(work, "summaries", kSummaryColumns);
      for (const SummaryRow& row : run.summaries) {
        copy << std::make_tuple(run.id, row.benchmark, row.median, row.lower, row.upper,
                                row.samples, row.verdict, row.diagnostics);
      }
      copy.complete();
    }
    for (const auto& [name, value] : run.tags) {
      work.exec_params(sql::kInsertTag, run.id, name, value);
    }
  }

  // The run's points packed into series_runs (none for a run of no benchmark).
  static void insert_packed(pqxx::work& work, const std::string& run_id,
                            const std::vector<SummaryRow>& rows) {
    if (rows.empty()) return;
    const std::string points = pack_series(rows);
    work.exec_params(sql::kInsertPackedRun, run_id,
                     pqxx::binarystring(points.data(), points.size()));
  }

  // Schema 5: every run's summary rows packed into series_runs, in the migration's transaction.
  static void pack_every_run(pqxx::work& work, const std::string& location) {
    std::vector<std::string> ids;
    for (const pqxx::row& row : work.exec(sql::kAllRunIds)) ids.push_back(row[0].as<std::string>());
    std::cerr << packing_note(location, ids.size()) << std::flush;
    std::vector<SummaryRow> rows;
    for (const std::string& id : ids) {
      rows.clear();
      for (const pqxx::row& row : work.exec_params(sql::kRunSummaries, id)) {
        rows.push_back(summary_row(row, 0));
      }
      insert_packed(work, id, rows);
    }
  }

  // The packed points of runs[from..] to `each`, run by run, in one query over the bulk
  // connection whose rows come one at a time (libpq's single-row mode) and in binary: a history
  // of 10,000 benchmarks x 1,000 commits is 1,000 rows of a few hundred kilobytes, where the
  // summary rows were ten million (12.5 s of the server's time: docs/history.md, "Fleet scale").
  // `given` counts the runs handed on, across a lost connection.
  void read_packed_runs(std::vector<SeriesRun>& runs, std::size_t& given,
                        const std::function<void(PackedRun&)>& each) {
    if (given >= runs.size()) return;
    std::vector<std::string> ids;
    for (std::size_t i = given; i < runs.size(); ++i) ids.push_back(runs[i].run_id);
    PGconn& connection = connection_.bulk();
    const std::string ids_literal = array_literal(ids);
    const char* values[] = {ids_literal.c_str()};
    if (PQsendQueryParams(&connection, sql::kPackedRuns, 1, nullptr, values, nullptr, nullptr, 1) ==
            0 ||
        PQsetSingleRowMode(&connection) == 0) {
      bulk_failed(connection, "start the read of the series");
    }
    const std::size_t from = given;
    PackedRun packed;
    std::string scratch;
    std::int64_t last = 0;
    bool failed = false;
    std::string failure;
    for (PGresult* result = PQgetResult(&connection); result != nullptr;
         result = PQgetResult(&connection)) {
      const ExecStatusType status = PQresultStatus(result);
      if (status == PGRES_SINGLE_TUPLE && !failed) {
        // The run's number, a bigint: 8 bytes, read once they are known to be there.
        const bool eight = PQgetlength(result, 0, 0) == 8;
        const std::int64_t number = eight ? big_endian<std::int64_t>(PQgetvalue(result, 0, 0)) : 0;
        const std::size_t index = from + static_cast<std::size_t>(number) - 1;
        if (!eight || number <= last || index >= runs.size()) {
          failed = true;
          failure = "the server's packed series are not in the order of the runs";
        } else {
          last = number;
          SeriesRun& run = runs[index];
          const std::string_view points(PQgetvalue(result, 0, 1),
                                        static_cast<std::size_t>(PQgetlength(result, 0, 1)));
          const auto unpacked = unpack_series(points, run.run_id, packed.points, scratch);
          if (!unpacked) {
            failed = true;
            failure = unpacked.error().message;
          } else {
            packed.run_id = std::move(run.run_id);
            packed.date = std::move(run.date);
            packed.commit = std::move(run.commit);
            packed.group = std::move(run.group);
            PQclear(result);
            result = nullptr;
            each(packed);
            given = index + 1;
          }
        }
      } else if (status != PGRES_SINGLE_TUPLE && status != PGRES_TUPLES_OK && !failed) {
        failed = true;
        failure = fmt::format("cannot read the series: {}", PQresultErrorMessage(result));
      }
      PQclear(result);
    }
    if (PQstatus(&connection) != CONNECTION_OK) bulk_failed(connection, "read the series");
    if (failed) throw Refusal(failure);
    given = runs.size();
  }

  // The runs of a series (the newest query.newest alone, when set), oldest first, no rows yet.
  std::vector<SeriesRun> selected_runs(pqxx::work& work, const RunQuery& query) {
    std::vector<SeriesRun> runs;
    const pqxx::result selected =
        query.newest == 0 ? select_runs(work, sql::kSeriesRuns, query)
                          : work.exec_params(sql::kSeriesNewestRuns, query.machine, query.branch,
                                             query.since, query.before, query.newest);
    for (const pqxx::row& row : selected) {
      runs.push_back(SeriesRun{.run_id = row[0].as<std::string>(),
                               .date = row[1].as<std::string>(),
                               .commit = row[2].as<std::string>(),
                               .group = row[3].as<std::string>(),
                               .summaries = {}});
    }
    if (query.newest > 0) std::reverse(runs.begin(), runs.end());  // read newest first
    return runs;
  }

  // The rows of runs[from..], run by run, each run's rows by benchmark name, to `give` (index,
  // run); only the benchmarks `kept` names when it names any. One COPY of a query that reads each
  // run's rows through the primary key (run_id, benchmark) in the runs' order, streamed in
  // binary over the bulk connection: the server writes the rows while this process folds them,
  // and no number goes through text. A joined query sorted every row of the series on disk (ten
  // million rows, 30 s on the server alone), and a query per run (1,000 round trips, in text) took
  // 19 s of `history trend .` (docs/history.md, "Fleet scale").
  template <class Give>
  void copy_series_rows(std::vector<SeriesRun>& runs, const std::vector<std::string>& kept_names,
                        std::size_t from, Give& give) {
    if (from >= runs.size()) return;
    std::vector<std::string> ids;
    for (std::size_t i = from; i < runs.size(); ++i) ids.push_back(runs[i].run_id);
    PGconn& connection = connection_.bulk();
    const std::string ids_literal = quoted_literal(connection, array_literal(ids));
    const std::string statement = sql::series_rows_copy(ids_literal);
    PGresult* started = PQexec(&connection, statement.c_str());
    const ExecStatusType status = PQresultStatus(started);
    PQclear(started);
    if (status != PGRES_COPY_OUT) bulk_failed(connection, "start the read of the series");
    const std::set<std::string, std::less<>> kept(kept_names.begin(), kept_names.end());
    BinaryCopyReader reader;
    std::size_t current = runs.size();
    // One run's rows at a time, in a buffer kept from run to run (unless `give` takes them): a
    // new one each run was a megabyte of fresh pages to fault in, ten thousand rows a run.
    std::vector<SummaryRow> rows;
    const auto finish = [&] {
      if (current == runs.size()) return;
      in_name_order(rows);
      runs[current].summaries.swap(rows);
      give(current, runs[current]);
      rows.swap(runs[current].summaries);
      rows.clear();
      runs[current].summaries = {};
    };
    const auto row = [&](const BinaryCopyReader::Row& read) {
      const std::size_t index = from + static_cast<std::size_t>(read.run) - 1;
      if (read.run < 1 || index >= runs.size() || (current != runs.size() && index < current)) {
        throw std::runtime_error("the server's series rows are not in the order of the runs");
      }
      if (index != current) {
        finish();
        current = index;
      }
      if (!kept.empty() && kept.count(read.benchmark) == 0) return;
      rows.push_back(SummaryRow{.benchmark = std::string(read.benchmark),
                                .median = read.median,
                                .lower = read.lower,
                                .upper = read.upper,
                                .samples = static_cast<std::size_t>(read.samples),
                                .verdict = std::string(read.verdict),
                                .diagnostics = std::string(read.diagnostics)});
    };
    for (bool more = true;;) {
      char* piece = nullptr;
      const int size = PQgetCopyData(&connection, &piece, 0);
      if (size == -1) break;
      if (size < 0) bulk_failed(connection, "read the series");
      try {
        if (more) more = reader.feed(piece, static_cast<std::size_t>(size), row);
      } catch (...) {
        PQfreemem(piece);
        throw;
      }
      PQfreemem(piece);
    }
    bool done = true;
    for (PGresult* result = PQgetResult(&connection); result != nullptr;
         result = PQgetResult(&connection)) {
      done = done && PQresultStatus(result) == PGRES_COMMAND_OK;
      PQclear(result);
    }
    if (!done) bulk_failed(connection, "read the series");
    if (!reader.complete()) throw std::runtime_error("the server's series rows ended mid-row");
    finish();
  }

  // `text` as an SQL string literal (a COPY of a query takes no parameters).
  static std::string quoted_literal(PGconn& connection, const std::string& text) {
    char* quoted = PQescapeLiteral(&connection, text.data(), text.size());
    if (quoted == nullptr) bulk_failed(connection, "quote the runs of the series");
    std::string literal(quoted);
    PQfreemem(quoted);
    return literal;
  }

  // Throws the bulk connection's error: broken_connection when the connection is gone (the
  // read starts again on a new one), else as a failed query.
  [[noreturn]] static void bulk_failed(PGconn& connection, const char* what) {
    const std::string reason = fmt::format("cannot {}: {}", what, PQerrorMessage(&connection));
    if (PQstatus(&connection) != CONNECTION_OK) throw pqxx::broken_connection(reason);
    throw std::runtime_error(reason);
  }

  // A few benchmarks' rows of every run of the series, in one query through
  // summaries_by_benchmark: a trend of one benchmark in ten million rows reads its 1,000.
  std::vector<SeriesRun> series_of(pqxx::work& work, const RunQuery& query) {
    std::vector<SeriesRun> runs;
    const pqxx::result rows =
        work.exec_params(sql::kSeriesOf, query.machine, query.branch, query.since, query.before,
                         array_literal(query.benchmarks));
    for (const pqxx::row& row : rows) {
      const std::string_view id(row[0].c_str(), row[0].size());
      if (runs.empty() || runs.back().run_id != id) {
        runs.push_back(SeriesRun{.run_id = std::string(id),
                                 .date = row[1].as<std::string>(),
                                 .commit = row[2].as<std::string>(),
                                 .group = row[3].as<std::string>(),
                                 .summaries = {}});
      }
      runs.back().summaries.push_back(summary_row(row, 4));
    }
    return runs;
  }

  void backfill(pqxx::work& work) {
    for (const pqxx::row& row : work.exec(sql::kAllRunResults)) {
      StoredRun run;
      run.id = row[0].as<std::string>();
      run.compressed_result = pqxx::binarystring(row[1]).str();
      auto filled = backfill_from_result(std::move(run));
      if (!filled) throw Refusal(filled.error().message);
      work.exec_params(sql::kDeleteSummaries, filled->id);
      work.exec_params(sql::kDeleteTags, filled->id);
      insert_details(work, *filled);
    }
  }

  // `body` in one transaction; when the server drops the connection (a restart), says so on
  // stderr, connects again after each of kReconnectWaits and runs `body` again. Every body may
  // run twice: a run's insert is keyed by its identity (ON CONFLICT DO NOTHING), so one whose
  // commit reached the server before the connection broke is then "stored before", not twice.
  template <class Body>
  auto guarded(const char* operation, Body body) -> model::Result<decltype(body())> {
    for (std::size_t attempt = 0;; ++attempt) {
      std::string lost;
      try {
        return once(operation, body);
      } catch (const pqxx::broken_connection& broken) {
        lost = trimmed(scrub(broken.what(), secret_));
      } catch (const pqxx::in_doubt_error& doubt) {
        lost = trimmed(scrub(doubt.what(), secret_));
      }
      if (attempt == kReconnectWaits.size()) {
        return model::Error{fmt::format(
            "cannot {} history {}: the connection to the server was lost ({}) and {} new "
            "connections over {:.2f} s failed; check that the server runs and try again",
            operation, shown_, lost, kReconnectWaits.size(), total_wait_seconds())};
      }
      std::cerr << fmt::format(
          "warning: the connection to history {} was lost ({}); connecting again in {:.2f} s "
          "(attempt {} of {})\n",
          shown_, lost, std::chrono::duration<double>(kReconnectWaits[attempt]).count(),
          attempt + 1, kReconnectWaits.size());
      std::this_thread::sleep_for(kReconnectWaits[attempt]);
      try {
        connection_.reconnect();
        std::cerr << fmt::format("connected to history {} again; retrying\n", shown_);
      } catch (const std::exception&) {
        // Still down: the next turn of the loop finds the connection broken and waits longer.
      }
    }
  }

  static double total_wait_seconds() {
    std::chrono::milliseconds total{0};
    for (const auto wait : kReconnectWaits) total += wait;
    return std::chrono::duration<double>(total).count();
  }

  // `body` once: its errors, but a lost connection, as values.
  template <class Body>
  auto once(const char* operation, Body body) -> model::Result<decltype(body())> {
    try {
      return body();
    } catch (const Refusal& refusal) {
      return model::Error{fmt::format("cannot {} history {}: {}", operation, shown_,
                                      scrub(refusal.what(), secret_))};
    } catch (const pqxx::broken_connection&) {
      throw;
    } catch (const pqxx::in_doubt_error&) {
      throw;
    } catch (const std::exception& failure) {
      // The server ending the session (a restart) is a lost connection, whichever statement
      // met it (libpqxx 6.4 maps only class 08 to broken_connection: a restart's 57P01 inside a
      // COPY comes as a plain sql_error).
      const auto* sql = dynamic_cast<const pqxx::sql_error*>(&failure);
      if (sql && session_ended(sql->sqlstate())) throw pqxx::broken_connection(failure.what());
      return model::Error{fmt::format("cannot {} history {}: {}", operation, shown_,
                                      trimmed(scrub(failure.what(), secret_)))};
    }
  }

  Connection connection_;
  std::string shown_;
  std::string secret_;
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace

namespace {

model::Result<std::unique_ptr<Store>> connect(const std::string& url) {
  const std::string shown = redact_url(url);
  const std::string secret = password_of(url);
  std::unique_ptr<PostgresStore> store;
  try {
    store = std::make_unique<PostgresStore>(url);
  } catch (const std::exception& failure) {
    const std::string reason = trimmed(scrub(failure.what(), secret));
    const bool login = reason.find("authentication") != std::string::npos ||
                       reason.find("password") != std::string::npos;
    const bool slow = reason.find("timeout") != std::string::npos;
    return model::Error{fmt::format(
        "cannot connect to history {}: {}; {}", shown, reason,
        login  ? "check the user name and password (in the URL or ~/.pgpass)"
        : slow ? fmt::format("no answer within {} s: check the URL's host and port and that "
                             "the network reaches it, or give a longer wait with "
                             "?connect_timeout=SECONDS in the URL",
                             kConnectTimeoutSeconds)
               : "check that the server runs and that the URL's host, port and database are "
                 "right")};
  }
  if (const auto migrated = store->migrate(); !migrated) return migrated.error();
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace

}  // namespace benchkit::store

// The module's one exported symbol (the module is built with hidden visibility): libbenchkit's
// open_postgres_store finds it with dlsym and checks `build` before calling `open`.
extern "C" __attribute__((visibility("default"))) const benchkit::store::PostgresModule*
benchkit_postgres_module_v1() {
  static const benchkit::store::PostgresModule module{benchkit::build_info::module_build,
                                                      &benchkit::store::connect};
  return &module;
}
