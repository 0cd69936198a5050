#include "session/history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <regex>
#include <set>
#include <thread>
#include <unordered_map>

#include "analysis/estimates.hpp"
#include "analysis/history_check.hpp"
#include "formats/history_file.hpp"
#include "formats/result_json.hpp"
#include "process/large_buffer.hpp"
#include "session/pipeline.hpp"
#include "session/result_files.hpp"
#include "session/run_groups.hpp"
#include "session/runner.hpp"
#include "session/shard.hpp"
#include "store/atomic_file.hpp"
#include "store/open_store.hpp"
#include "store/packed_series.hpp"
#include "system/ci_run.hpp"
#include "system/fingerprint.hpp"

namespace benchkit::session {

std::string machine_id(const Context& context) {
  const system::Fingerprint fingerprint = system::machine_fingerprint(context, context.machine);
  // Nothing known of the machine (a hyperfine export): no hash of nothing that looks like one.
  return fingerprint.fields.empty() ? "unknown" : fingerprint.id();
}

std::string build_id(const Context& context) {
  return system::build_fingerprint(context).id();
}

model::Result<Recorded> record_run(store::Store& store, const RunResult& run,
                                   const std::string& group) {
  const store::StoredRun stored =
      store::make_stored_run(run, machine_id(run.context), build_id(run.context), group);
  const auto added = store.add(stored);
  if (!added) return added.error();
  return Recorded{.id = stored.id, .added = *added};
}

namespace {

// `run` recorded under its run group (run_group, the CI's run id read from the environment).
model::Result<Recorded> record_grouped(store::Store& store, const RunResult& run,
                                       const std::string& group) {
  return record_run(store, run, run_group(run, group, system::ci_run_id_from_environment()));
}

}  // namespace

model::Result<Recorded> record_run_at(const std::string& location, const RunResult& run,
                                      const std::string& group) {
  auto store = store::open_history(store::history_location(location));
  if (!store) return store.error();
  return record_grouped(**store, run, group);
}

model::Result<bool> check_history(const std::string& location) {
  auto store = store::open_history(store::history_location(location));
  if (!store) return store.error();
  return true;
}

model::Result<std::vector<Recorded>> add_result_files(store::Store& store,
                                                      const std::vector<std::string>& files,
                                                      const std::string& group) {
  std::vector<Recorded> recorded;
  for (const std::string& file : files) {
    const auto run = load_result_file(file);
    if (!run) return run.error();
    const auto one = record_grouped(store, *run, group);
    if (!one) return one.error();
    recorded.push_back(*one);
  }
  return recorded;
}

namespace {

model::Result<RunResult> parse_stored(const store::StoredRun& stored) {
  const auto document = store::result_document(stored);
  if (!document) return document.error();
  auto parsed = formats::from_json(*document, "stored run " + stored.id);
  if (!parsed) return parsed.error();
  if (!parsed->estimates_present) analysis::compute_estimates(parsed->run);
  return std::move(parsed->run);
}

}  // namespace

model::Result<RunResult> load_stored_run(store::Store& store, std::string_view id_prefix) {
  const auto stored = store.find(id_prefix);
  if (!stored) return stored.error();
  return parse_stored(*stored);
}

model::Result<std::map<std::string, double>> recorded_durations(
    store::Store& store, const std::vector<std::string>& names, const std::string& this_commit) {
  std::map<std::string, double> durations;
  const auto runs = store.list({});
  if (!runs) return runs.error();
  std::set<std::string, std::less<>> missing(names.begin(), names.end());
  std::size_t read = 0;
  for (auto info = runs->rbegin(); info != runs->rend() && !missing.empty(); ++info) {
    if (!this_commit.empty() && info->commit == this_commit) continue;
    if (++read > kDurationRuns) break;
    auto run = load_stored_run(store, info->id);
    if (!run) return run.error();
    for (const BenchmarkResult& benchmark : run->benchmarks) {
      const auto found = missing.find(benchmark.name);
      if (found == missing.end() || benchmark.samples.empty()) continue;
      durations[benchmark.name] = benchmark_duration_ns(benchmark);
      missing.erase(found);
    }
  }
  return durations;
}

namespace {

// A point's numbers as the fold keeps them until its benchmark's turn (24 bytes; its run is its
// place in its block): not a HistoryPoint with three strings. The run's identity, commit and date
// are kept once per run.
struct Numbers {
  double median;
  double lower;
  double upper;
};

struct RunHead {
  std::string id = {};
  std::string commit = {};
  std::string date = {};
  // The commit's number among the runs' distinct commits (kNoCommit: none): what a point's
  // commit is compared by, ten million times for a fleet's history.
  std::uint32_t commit_number = 0;
};
constexpr std::uint32_t kNoCommit = static_cast<std::uint32_t>(-1);

void in_parallel(std::size_t count, std::size_t points,
                 const std::function<void(std::size_t)>& work);

// The points of every benchmark `keep` keeps, folded run by run (runs by date): one point per
// commit, a newer run of the commit of a series' last point replacing it, and a commit met again
// after another one (a revert, a rebuilt old commit) starting a new point. What points_of,
// stream_trend and check_run fold the runs with.
//
// Runs of the same benchmarks (the same names block) wait in a block of up to kFoldBlock runs;
// the block is then transposed into one array holding each kept benchmark's points of those runs
// side by side, written in order (the transpose shared among the cores). A benchmark's series is
// its rows of every block, read when its turn comes: no vector per benchmark grown run by run,
// which for 10,000 benchmarks was a cache miss and a page of fresh memory after another
// (docs/history.md, "Fleet scale").
struct Columns {
  explicit Columns(std::function<bool(const std::string&)> keeps) : keep(std::move(keeps)) {}

  std::function<bool(const std::string&)> keep;
  std::vector<RunHead> runs = {};
  std::vector<std::string> names = {};  // the kept benchmarks, in the order met
  // Each name met: its index into names, or kRejected when the pattern rejects it (the regex
  // once per name, not once per row).
  std::unordered_map<std::string, std::size_t> index = {};
  static constexpr std::size_t kRejected = static_cast<std::size_t>(-1);
  static constexpr std::uint32_t kAbsent = static_cast<std::uint32_t>(-1);
  static constexpr std::uint32_t kNoRun = static_cast<std::uint32_t>(-1);

  // A block of runs folded: `numbers` holds, for each kept benchmark of its runs, a row of
  // width() points (row_of_column: a benchmark's row, kAbsent when its runs do not have it).
  struct Block {
    std::vector<std::uint32_t> runs = {};
    std::vector<std::uint32_t> row_of_column = {};
    // Written once by flush(): tens of megabytes a block at fleet scale, in huge pages.
    process::LargeBuffer memory = {};
    Numbers* numbers = nullptr;
    std::size_t width() const { return runs.size(); }
  };
  std::vector<Block> blocks = {};
  std::vector<std::size_t> sizes = {};  // the points each kept benchmark has at most

  // The block being filled: its runs' series (swapped out of the store's buffers), all with the
  // names block `packed_names`, whose benchmark i is column packed_columns[i].
  static constexpr std::size_t kFoldBlock = 64;
  std::string packed_names = {};
  std::vector<std::size_t> packed_columns = {};
  std::vector<store::PackedSeries> waiting = std::vector<store::PackedSeries>(kFoldBlock);
  std::vector<std::uint32_t> waiting_runs = {};
  std::unordered_map<std::string, std::uint32_t> commit_numbers = {};
  store::PackedSeries from_rows = {};  // a SeriesRun's rows as a packed series

  // The run's head added to `runs`; returns its number.
  std::uint32_t add_head(const std::string& id, const std::string& commit,
                         const std::string& date) {
    const auto number = static_cast<std::uint32_t>(runs.size());
    std::uint32_t commit_number = kNoCommit;
    if (!commit.empty()) {
      commit_number =
          commit_numbers.emplace(commit, static_cast<std::uint32_t>(commit_numbers.size()))
              .first->second;
    }
    runs.push_back({id, commit, date, commit_number});
    return number;
  }

  // The column of benchmark `name` (kRejected when `keep` rejects it); a name met for the first
  // time gets one.
  std::size_t column_of(const std::string& name) {
    auto found = index.find(name);
    if (found == index.end()) {
      const bool kept = keep(name);
      found = index.emplace(name, kept ? names.size() : kRejected).first;
      if (kept) {
        names.push_back(name);
        sizes.push_back(0);
      }
    }
    return found->second;
  }

  void add(store::PackedRun& run) {
    const std::uint32_t number = add_head(run.run_id, run.commit, run.date);
    const store::PackedSeries& series = run.points;
    // Equal names blocks hold the same names, in the same order (each with its length).
    if (series.names != packed_names) {
      flush();
      packed_names = series.names;
      packed_columns.resize(series.size());
      for (std::size_t i = 0; i < series.size(); ++i) {
        packed_columns[i] = column_of(std::string(series.name(i)));
      }
    }
    std::swap(waiting[waiting_runs.size()], run.points);
    waiting_runs.push_back(number);
    if (waiting_runs.size() == kFoldBlock) flush();
  }

  // A run's rows (in name order) folded as its packed series would be.
  void add(const store::SeriesRun& run) {
    from_rows.names.clear();
    from_rows.name_starts.clear();
    from_rows.name_sizes.clear();
    from_rows.medians.clear();
    from_rows.lowers.clear();
    from_rows.uppers.clear();
    for (const store::SummaryRow& row : run.summaries) {
      // The size first, as a packed names block has it: names differ as blocks when they differ.
      const auto size = static_cast<std::uint32_t>(row.benchmark.size());
      from_rows.names.append(reinterpret_cast<const char*>(&size), sizeof size);
      from_rows.name_starts.push_back(static_cast<std::uint32_t>(from_rows.names.size()));
      from_rows.name_sizes.push_back(size);
      from_rows.names += row.benchmark;
      from_rows.medians.push_back(row.median);
      from_rows.lowers.push_back(row.lower);
      from_rows.uppers.push_back(row.upper);
    }
    store::PackedRun packed{.run_id = run.run_id,
                            .date = run.date,
                            .commit = run.commit,
                            .group = run.group,
                            .points = std::move(from_rows)};
    add(packed);
    from_rows = std::move(packed.points);
  }

  // The waiting runs transposed into a block of their own.
  void flush() {
    if (waiting_runs.empty()) return;
    Block block;
    block.runs = waiting_runs;
    block.row_of_column.assign(names.size(), kAbsent);
    std::vector<std::size_t> packed_of_row;
    for (std::size_t i = 0; i < packed_columns.size(); ++i) {
      const std::size_t column = packed_columns[i];
      if (column == kRejected || block.row_of_column[column] != kAbsent) continue;
      block.row_of_column[column] = static_cast<std::uint32_t>(packed_of_row.size());
      packed_of_row.push_back(i);
      sizes[column] += waiting_runs.size();
    }
    const std::size_t width = waiting_runs.size();
    if (!packed_of_row.empty()) {
      block.memory = process::LargeBuffer(packed_of_row.size() * width * sizeof(Numbers));
      block.numbers = new (block.memory.data()) Numbers[packed_of_row.size() * width];
    }
    // Rows in slices, shared among the cores: each writes its own rows, in order.
    constexpr std::size_t kSlice = 1024;
    const std::size_t slices = (packed_of_row.size() + kSlice - 1) / kSlice;
    in_parallel(slices, packed_of_row.size() * width, [&](std::size_t slice) {
      const std::size_t end = std::min(packed_of_row.size(), (slice + 1) * kSlice);
      for (std::size_t row = slice * kSlice; row < end; ++row) {
        const std::size_t i = packed_of_row[row];
        Numbers* into = block.numbers + row * width;
        for (std::size_t b = 0; b < width; ++b) {
          into[b] = {waiting[b].medians[i], waiting[b].lowers[i], waiting[b].uppers[i]};
        }
      }
    });
    blocks.push_back(std::move(block));
    waiting_runs.clear();
  }

  // The number of points benchmark `i` has at most (before the runs of one commit are merged).
  std::size_t size(std::size_t i) const { return sizes[i]; }

  // Benchmark `i`'s points, oldest first: point(index, run, numbers) for each, `index` counting
  // the series' points (a newer run of the commit of the last point replaces it: the same index
  // again). Returns how many points the series has. flush() first.
  template <typename Point>
  std::size_t each_point(std::size_t i, const Point& point) const {
    std::size_t count = 0;
    std::uint32_t last_commit = kNoCommit;
    for (const Block& block : blocks) {
      if (i >= block.row_of_column.size() || block.row_of_column[i] == kAbsent) continue;
      const Numbers* row = block.numbers + block.row_of_column[i] * block.width();
      for (std::size_t b = 0; b < block.width(); ++b) {
        const RunHead& run = runs[block.runs[b]];
        const bool same =
            count > 0 && run.commit_number != kNoCommit && run.commit_number == last_commit;
        if (!same) ++count;
        point(count - 1, block.runs[b], row[b]);
        last_commit = run.commit_number;
      }
    }
    return count;
  }

  // Benchmark `i`'s points as a trend, written over `trend` (whose strings are reused: a trend
  // of every benchmark of a fleet's history is ten million points of three strings, which
  // allocated each time). `held[k]` is the run whose strings point k of `trend` holds, kept by
  // the caller with the trend: a point already holding its run's is not written again (reading
  // the strings to compare them was a cache miss a point). flush() first.
  void take(std::size_t i, analysis::BenchmarkTrend& trend,
            std::vector<std::uint32_t>& held) const {
    trend.name = names[i];
    // Points taken away (moved out of the trend) hold nothing.
    if (held.size() > trend.points.size()) held.resize(trend.points.size());
    const std::size_t count =
        each_point(i, [&](std::size_t at, std::uint32_t number, const Numbers& numbers) {
          if (at == trend.points.size()) trend.points.emplace_back();
          if (at == held.size()) held.push_back(kNoRun);
          analysis::HistoryPoint& into = trend.points[at];
          if (held[at] != number) {
            const RunHead& run = runs[number];
            into.run_id = run.id;
            into.commit = run.commit;
            into.date = run.date;
            held[at] = number;
          }
          into.median = numbers.median;
          into.lower = numbers.lower;
          into.upper = numbers.upper;
          into.change.reset();
          into.change_point = false;
          into.p_value = 1;
        });
    trend.points.resize(count);
    held.resize(std::min(held.size(), count));
  }
  void take(std::size_t i, analysis::BenchmarkTrend& trend) const {
    std::vector<std::uint32_t> held;
    take(i, trend, held);
  }

  // Benchmark `i`'s points as take() makes them, only their numbers and each point's run (its
  // number in `runs`): what `history check` needs, without three strings a point.
  void take_intervals(std::size_t i, std::vector<stats::IntervalPoint>& points,
                      std::vector<std::uint32_t>& point_runs) const {
    const std::size_t count =
        each_point(i, [&](std::size_t at, std::uint32_t number, const Numbers& numbers) {
          if (at == points.size()) {
            points.emplace_back();
            point_runs.emplace_back();
          }
          points[at] = {.value = numbers.median, .lower = numbers.lower, .upper = numbers.upper};
          point_runs[at] = number;
        });
    points.resize(count);
    point_runs.resize(count);
  }
  analysis::BenchmarkTrend take(std::size_t i) const {
    analysis::BenchmarkTrend trend;
    take(i, trend);
    return trend;
  }

  // Every benchmark's points, by name.
  HistorySeries take_all() {
    flush();
    HistorySeries series;
    for (std::size_t i = 0; i < names.size(); ++i) series[names[i]] = take(i).points;
    return series;
  }
};

}  // namespace

HistorySeries points_of(const std::vector<store::SeriesRun>& runs,
                        const std::function<bool(const std::string&)>& keep) {
  Columns columns(keep);
  for (const store::SeriesRun& run : runs) columns.add(run);
  return columns.take_all();
}

namespace {

// The store holds no run: what to do about it.
model::Error empty_history(store::Store& store) {
  return model::Error{fmt::format(
      "history {} holds no run yet; record one with --record or benchkit history add FILE",
      store.location())};
}

// Fills an empty machine or branch with the newest run's (an error when there is no run).
model::Result<bool> default_to_newest(store::Store& store, std::string& machine,
                                      std::string& branch) {
  if (!machine.empty() && !branch.empty()) return true;
  const auto runs = store.list({});
  if (!runs) return runs.error();
  if (runs->empty()) return empty_history(store);
  if (machine.empty()) machine = runs->back().machine;
  if (branch.empty()) branch = runs->back().branch;
  return true;
}

// The change points of `points`, each with the commits on either side; `last` > 0 keeps only
// those among the newest `last` points (analysis::recent_change_points).
std::vector<RecentChange> named_changes(const std::string& benchmark,
                                        const std::vector<HistoryPoint>& points,
                                        std::size_t last = 0) {
  const auto intervals = analysis::interval_points(points);
  const auto found = last > 0 ? analysis::recent_change_points(intervals, last)
                              : stats::detect_change_points(intervals);
  std::vector<RecentChange> changes;
  for (const stats::ChangePoint& change : found) {
    if (change.index == 0) continue;
    changes.push_back({.benchmark = benchmark,
                       .from_commit = points[change.index - 1].commit,
                       .to_commit = points[change.index].commit,
                       .before = change.before,
                       .after = change.after,
                       .p_value = change.p_value});
  }
  return changes;
}

}  // namespace

namespace {

// What a SeriesRequest selects: the store's query (machine and branch filled in from the newest
// run when not given; the names the pattern matches when it does not match them all) and the
// pattern the rows are kept by. `none`: the pattern matches no stored name.
struct Selection {
  store::RunQuery query = {};
  std::optional<std::regex> pattern = {};
  bool none = false;
  // Whether to read the packed runs (Store::each_packed_run) rather than the rows of the chosen
  // benchmarks: when every name is chosen, or enough of them that most of each run is read
  // anyway (a few benchmarks' rows are found through their index instead).
  bool packed = true;
  bool keeps(const std::string& name) const {
    return !pattern || std::regex_search(name, *pattern);
  }
};

// A pattern choosing at least one stored name in this many reads the packed runs.
constexpr std::size_t kPackedShare = 8;

model::Result<Selection> select_series(store::Store& store, SeriesRequest& request) {
  Selection selection;
  try {
    if (!request.pattern.empty()) {
      selection.pattern.emplace(request.pattern, std::regex::ECMAScript);
    }
  } catch (const std::regex_error& error) {
    return model::Error{fmt::format("\"{}\" is not a regular expression ({}); give an "
                                    "ECMAScript regex such as 'sort|hash'",
                                    request.pattern, error.what()),
                        model::ErrorKind::usage};
  }
  if (const auto chosen = default_to_newest(store, request.machine, request.branch); !chosen) {
    return chosen.error();
  }
  selection.query = {.machine = request.machine,
                     .branch = request.branch,
                     .since = request.since,
                     .before = request.before};
  if (selection.pattern) {
    // A pattern that keeps at least one in kPackedShare of the newest run's benchmarks reads the
    // packed runs, matched name by name as they are folded: no list of every stored name first
    // (an index probe per name, about 0.4 s for 10,000 names on PostgreSQL).
    store::RunQuery newest = selection.query;
    newest.newest = 1;
    std::size_t newest_names = 0;
    std::size_t newest_kept = 0;
    const auto sampled = store.each_packed_run(newest, [&](store::PackedRun& run) {
      newest_names = run.points.size();
      for (std::size_t i = 0; i < run.points.size(); ++i) {
        newest_kept += selection.keeps(std::string(run.points.name(i))) ? 1 : 0;
      }
    });
    if (!sampled) return sampled.error();
    if (newest_names > 0 && newest_kept * kPackedShare >= newest_names) return selection;
    // The names the pattern matches, for the store to read their rows alone (a trend of one
    // benchmark among 10,000); when it matches every name, no list: every row is read anyway.
    auto names = store.benchmark_names();
    if (!names) return names.error();
    const std::size_t stored = names->size();
    std::erase_if(*names, [&](const std::string& name) { return !selection.keeps(name); });
    selection.none = names->empty();
    selection.packed = names->size() * kPackedShare >= stored;
    if (names->size() < stored) selection.query.benchmarks = std::move(*names);
  }
  return selection;
}

}  // namespace

model::Result<Series> load_series(store::Store& store, SeriesRequest request) {
  const auto selection = select_series(store, request);
  if (!selection) return selection.error();
  Series series{.machine = request.machine, .branch = request.branch, .benchmarks = {}};
  if (selection->none) return series;
  const auto runs = store.series(selection->query);
  if (!runs) return runs.error();
  series.benchmarks =
      points_of(*runs, [&](const std::string& name) { return selection->keeps(name); });
  return series;
}

namespace {

// A thread more for every this many points: a point's change-point search and text take about
// 0.3 µs, a thread's start and join tens of µs, so two threads pay from a few thousand points.
// At 20,000, a trend's batch of 64 benchmarks of 500 points stayed on one core
// (docs/history.md, "Fleet scale", eighth round).
constexpr std::size_t kPointsPerThread = 2000;
// Threads beyond this many share memory bandwidth more than they add.
constexpr unsigned kMostThreads = 8;

// work(0), ..., work(count - 1), shared among the cores (a thread each, taking the next index
// as it finishes one) when `points` makes it worth it: each index is a series of its own. Never
// more threads than indices.
void in_parallel(std::size_t count, std::size_t points,
                 const std::function<void(std::size_t)>& work) {
  const auto cores = std::max(1u, std::min(kMostThreads, std::thread::hardware_concurrency()));
  const auto threads = static_cast<unsigned>(
      std::min<std::size_t>({cores, count, std::max<std::size_t>(1, points / kPointsPerThread)}));
  if (threads == 0) return;
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> failures(threads);
  auto share = [&](unsigned worker) {
    try {
      for (std::size_t i = next++; i < count; i = next++) work(i);
    } catch (...) {
      failures[worker] = std::current_exception();
      next = count;
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned worker = 1; worker < threads; ++worker) helpers.emplace_back(share, worker);
  share(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

// mark_changes on every benchmark, the benchmarks shared among the cores: the series are
// independent, and their change points are most of a long trend's time (1,000 series of 500
// points: about 0.5 s on one core).
void mark_all(std::vector<analysis::BenchmarkTrend>& benchmarks) {
  std::size_t points = 0;
  for (const analysis::BenchmarkTrend& benchmark : benchmarks) points += benchmark.points.size();
  in_parallel(benchmarks.size(), points,
              [&](std::size_t i) { analysis::mark_changes(benchmarks[i]); });
}

}  // namespace

analysis::Trend trend_of(Series series) {
  analysis::Trend trend{.machine = series.machine, .branch = series.branch, .benchmarks = {}};
  for (auto& [name, points] : series.benchmarks) {
    trend.benchmarks.push_back({.name = name, .points = std::move(points)});
  }
  mark_all(trend.benchmarks);
  return trend;
}

namespace {

// Benchmarks marked and handed on together: enough points to share among the cores (256 series
// of 1,000 points), few enough that their HistoryPoints stay small beside the compact columns.
constexpr std::size_t kStreamedBenchmarks = 64;

}  // namespace

model::Result<bool> stream_trend(store::Store& store, SeriesRequest request,
                                 const TrendStream& stream) {
  const auto selection = select_series(store, request);
  if (!selection) return selection.error();
  Columns columns([&](const std::string& name) { return selection->keeps(name); });
  if (!selection->none) {
    const auto read = selection->packed
                          ? store.each_packed_run(selection->query,
                                                  [&](store::PackedRun& run) { columns.add(run); })
                          : store.each_series_run(selection->query,
                                                  [&](store::SeriesRun& run) { columns.add(run); });
    if (!read) return read.error();
    columns.flush();
  }
  // Once everything is read: a failed read has printed nothing.
  stream.start(
      analysis::Trend{.machine = request.machine, .branch = request.branch, .benchmarks = {}});
  std::vector<std::size_t> order(columns.names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return columns.names[a] < columns.names[b]; });
  // Two batches: one handed to `each` (written out) on a thread of its own while the next is
  // made, so that writing ten million lines is not a step of its own after each batch. The
  // trends are reused batch after batch (take() writes over their strings).
  struct Batch {
    std::vector<analysis::BenchmarkTrend> trends = {};
    std::vector<std::vector<std::uint32_t>> held = {};  // Columns::take's, trend by trend
    std::vector<std::string> texts = {};
    std::size_t count = 0;
  };
  std::array<Batch, 2> batches;
  std::thread writer;
  std::exception_ptr write_failure;
  const auto hand_on = [&](Batch& batch) {
    try {
      for (std::size_t k = 0; k < batch.count; ++k) stream.each(batch.trends[k], batch.texts[k]);
    } catch (...) {
      write_failure = std::current_exception();
    }
  };
  const auto wait_for_writer = [&] {
    if (writer.joinable()) writer.join();
    if (write_failure) std::rethrow_exception(write_failure);
  };
  try {
    for (std::size_t first = 0, turn = 0; first < order.size();
         first += kStreamedBenchmarks, turn ^= 1) {
      Batch& batch = batches[turn];
      batch.count = std::min(order.size() - first, kStreamedBenchmarks);
      std::size_t points = 0;
      for (std::size_t k = 0; k < batch.count; ++k) {
        points += columns.size(order[first + k]);
      }
      batch.trends.resize(batch.count);
      batch.held.resize(batch.count);
      batch.texts.resize(batch.count);
      // Each benchmark's points made, marked and rendered on the next free core: the series and
      // their texts are independent.
      in_parallel(batch.count, points, [&](std::size_t k) {
        columns.take(order[first + k], batch.trends[k], batch.held[k]);
        analysis::mark_changes(batch.trends[k]);
        batch.texts[k].clear();
        if (stream.render) stream.render(batch.trends[k], batch.texts[k]);
      });
      wait_for_writer();
      writer = std::thread(hand_on, std::ref(batch));
    }
    wait_for_writer();
  } catch (...) {
    if (writer.joinable()) writer.join();
    throw;
  }
  return true;
}

model::Result<bool> stream_trend(store::Store& store, SeriesRequest request,
                                 const std::function<void(const analysis::Trend&)>& start,
                                 const std::function<void(analysis::BenchmarkTrend&)>& each) {
  return stream_trend(store, std::move(request),
                      TrendStream{.start = start,
                                  .render = {},
                                  .each = [&](analysis::BenchmarkTrend& benchmark, std::string&) {
                                    each(benchmark);
                                  }});
}

model::Result<analysis::Trend> history_trend(store::Store& store, const SeriesRequest& request) {
  analysis::Trend trend;
  const auto streamed = stream_trend(
      store, request, [&](const analysis::Trend& head) { trend = head; },
      [&](analysis::BenchmarkTrend& benchmark) {
        trend.benchmarks.push_back(std::move(benchmark));
      });
  if (!streamed) return streamed.error();
  return trend;
}

model::Result<analysis::HistorySnapshot> history_snapshot(store::Store& store,
                                                          const SnapshotRequest& request) {
  analysis::HistorySnapshot snapshot{
      .since = request.since, .machine = request.machine, .branch = request.branch};
  if (const auto chosen = default_to_newest(store, snapshot.machine, snapshot.branch); !chosen) {
    return chosen.error();
  }
  const auto runs = store.list({.machine = snapshot.machine,
                                .branch = snapshot.branch,
                                .since = request.since,
                                .before = request.before});
  if (!runs) return runs.error();
  const std::vector<JoinedRun> joined = join_groups(*runs);
  if (joined.size() < 2) {
    return model::Error{fmt::format(
        "history report needs two runs of machine {} on branch {} since {}, and {} has {}; give "
        "an earlier --since, or --machine and --branch of another series (history list shows "
        "them)",
        snapshot.machine, snapshot.branch, request.since, store.location(), joined.size())};
  }
  for (const JoinedRun& one : joined) {
    const store::RunInfo& run = one.info;
    snapshot.runs.push_back({.id = run.id,
                             .date = run.date,
                             .commit = run.commit,
                             .branch = run.branch,
                             .machine = run.machine,
                             .host = run.hostname,
                             .benchmarks = run.benchmarks});
  }
  const auto first = load_joined_run(store, joined.front());
  if (!first) return first.error();
  const auto last = load_joined_run(store, joined.back());
  if (!last) return last.error();
  snapshot.comparison = judge(*first, *last, request.settings);
  const auto series = load_series(store, {.machine = snapshot.machine,
                                          .branch = snapshot.branch,
                                          .pattern = "",
                                          .since = request.since,
                                          .before = request.before});
  if (!series) return series.error();
  for (const auto& [name, points] : series->benchmarks) {
    for (const RecentChange& change : named_changes(name, points)) {
      snapshot.change_points.push_back({.benchmark = change.benchmark,
                                        .from = change.from_commit,
                                        .to = change.to_commit,
                                        .before = change.before,
                                        .after = change.after,
                                        .p_value = change.p_value});
    }
  }
  snapshot.trend = trend_of(std::move(*series));
  return snapshot;
}

namespace {

// The run `check` judges: `id` when given, else the newest; a run group's members joined.
model::Result<JoinedRun> checked_run(store::Store& store, const std::string& id) {
  if (!id.empty()) return find_joined(store, id);
  const auto runs = store.list({});
  if (!runs) return runs.error();
  if (runs->empty()) return empty_history(store);
  return join_groups(*runs).back();
}

// checked_run once its group is complete: looked up again every kWaitPollSeconds for up to
// request.wait_seconds, then refused when shards are still missing.
model::Result<JoinedRun> complete_run(store::Store& store, const CheckRequest& request) {
  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::max(0.0, request.wait_seconds)));
  for (;;) {
    auto candidate = checked_run(store, request.run);
    if (!candidate) return candidate.error();
    auto problem = incomplete_group(*candidate, request.expect_shards, store.location());
    if (!problem) return candidate;
    const auto remaining = deadline - Clock::now();
    if (remaining <= Clock::duration::zero()) {
      if (request.wait_seconds > 0) {
        problem->message += fmt::format(" (waited {:g} s)", request.wait_seconds);
      }
      return *problem;
    }
    std::this_thread::sleep_for(
        std::min<Clock::duration>(remaining, std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(kWaitPollSeconds))));
  }
}

// How many of the newest of `runs` (oldest first) hold the newest `points` points of a series,
// counted as points_of makes them: runs of one commit in a row are one point, a run without a
// commit is a point of its own. Runs that `left_out` names are passed over (read, then dropped
// by the caller, so counted among the runs but not among the points). The shards of one commit
// are one point; a benchmark measured in fewer of these runs gets fewer points.
std::size_t runs_holding(
    const std::vector<store::RunInfo>& runs, std::size_t points,
    const std::function<bool(const std::string&, const std::string&)>& left_out) {
  std::size_t found = 0;
  const std::string* previous = nullptr;
  for (std::size_t read = 0; read < runs.size(); ++read) {
    const store::RunInfo& run = runs[runs.size() - 1 - read];
    if (left_out(run.id, run.commit)) continue;
    if (previous == nullptr || run.commit.empty() || *previous != run.commit) {
      if (found == points) return read;
      ++found;
    }
    previous = &run.commit;
  }
  return runs.size();
}

using IntervalSeries = std::map<std::string, std::vector<stats::IntervalPoint>, std::less<>>;

// The history `check` reads: each benchmark's points as numbers, and each point's run (its
// number in `columns.runs`) for the commits of a change.
struct CheckedHistory {
  IntervalSeries intervals = {};
  std::map<std::string, std::vector<std::uint32_t>, std::less<>> point_runs = {};
};

CheckedHistory checked_history(Columns& columns) {
  columns.flush();
  CheckedHistory history;
  for (std::size_t i = 0; i < columns.names.size(); ++i) {
    columns.take_intervals(i, history.intervals[columns.names[i]],
                           history.point_runs[columns.names[i]]);
  }
  return history;
}

// The change points among the newest `last` points of each benchmark's history followed by its
// point in `run`, each benchmark's found on the next free core. The points are the history's as
// the gate read them; the commits of a change are looked up through their runs.
std::vector<RecentChange> recent_changes(const Columns& columns, const CheckedHistory& history,
                                         const RunResult& run, const store::RunInfo& candidate,
                                         std::size_t last) {
  std::vector<std::vector<RecentChange>> found(run.benchmarks.size());
  // The history's points decide how many cores share the work.
  std::size_t points = 0;
  for (const auto& [name, series] : history.intervals) points += series.size();
  const std::vector<std::uint32_t> no_runs;
  in_parallel(run.benchmarks.size(), points, [&](std::size_t k) {
    const BenchmarkResult& benchmark = run.benchmarks[k];
    if (!benchmark.valid() || benchmark.samples.empty()) return;
    std::vector<stats::IntervalPoint> series;
    if (const auto known = history.intervals.find(benchmark.name);
        known != history.intervals.end()) {
      series.reserve(known->second.size() + 1);
      series = known->second;
    }
    const auto runs_of = history.point_runs.find(benchmark.name);
    const std::vector<std::uint32_t>& point_runs =
        runs_of != history.point_runs.end() ? runs_of->second : no_runs;
    const Estimate& median = benchmark.estimates.median;
    series.push_back({.value = median.value, .lower = median.lower, .upper = median.upper});
    const auto commit_at = [&](std::size_t i) -> const std::string& {
      return i < point_runs.size() ? columns.runs[point_runs[i]].commit : candidate.commit;
    };
    const auto changes = last > 0 ? analysis::recent_change_points(series, last)
                                  : stats::detect_change_points(series);
    for (const stats::ChangePoint& change : changes) {
      if (change.index == 0) continue;
      found[k].push_back({.benchmark = benchmark.name,
                          .from_commit = commit_at(change.index - 1),
                          .to_commit = commit_at(change.index),
                          .before = change.before,
                          .after = change.after,
                          .p_value = change.p_value});
    }
  });
  std::vector<RecentChange> changes;
  for (std::vector<RecentChange>& some : found) {
    for (RecentChange& change : some) changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace

model::Result<CheckOutcome> check_run(store::Store& store, const CheckRequest& request) {
  CheckOutcome outcome;
  auto joined = complete_run(store, request);
  if (!joined) return joined.error();
  outcome.candidate = joined->info;
  outcome.shards = joined->shards_text(request.expect_shards);
  const store::RunInfo* candidate = &outcome.candidate;
  const auto run = load_joined_run(store, *joined);
  if (!run) return run.error();
  std::set<std::string, std::less<>> members;
  for (const store::RunInfo& member : joined->members) members.insert(member.id);
  // The checked run's own runs and commit are no part of its history.
  const auto left_out = [&](const std::string& id, const std::string& commit) {
    return members.count(id) > 0 || (!candidate->commit.empty() && commit == candidate->commit);
  };
  const auto base = store.list({.machine = candidate->machine, .branch = request.base_branch});
  if (!base) return base.error();
  std::vector<store::RunInfo> earlier_runs;
  std::copy_if(base->begin(), base->end(), std::back_inserter(earlier_runs),
               [&](const store::RunInfo& run) { return !left_out(run.id, run.commit); });
  // A run group's shards are one run, as `history list` shows them.
  outcome.history_runs = join_groups(earlier_runs).size();
  // Only the window the verdicts and change points come from is read (docs/change-points.md,
  // "The window of check"): a few hundred runs of a history of thousands.
  const std::size_t window = std::max(analysis::kSearchedHistory, request.last);
  // Folded run by run as the store reads them: the window's rows are never all held as rows.
  Columns columns([](const std::string&) { return true; });
  const auto read = store.each_packed_run({.machine = candidate->machine,
                                           .branch = request.base_branch,
                                           .newest = runs_holding(*base, window, left_out)},
                                          [&](store::PackedRun& run) {
                                            if (!left_out(run.run_id, run.commit)) columns.add(run);
                                          });
  if (!read) return read.error();
  const CheckedHistory history = checked_history(columns);
  outcome.comparison = analysis::check_against_history(history.intervals, *run, request.settings);
  outcome.changes = recent_changes(columns, history, *run, *candidate, request.last);
  std::map<std::string, std::string> verdicts;
  for (const analysis::BenchmarkComparison& benchmark : outcome.comparison.benchmarks) {
    verdicts[benchmark.name] = analysis::to_string(benchmark.verdict);
  }
  for (const store::RunInfo& member : joined->members) {
    if (const auto written = store.set_verdicts(member.id, verdicts); !written) {
      return written.error();
    }
  }
  return outcome;
}

model::Result<std::string> export_runs(store::Store& store, const store::RunQuery& query) {
  const auto runs = store.list(query);
  if (!runs) return runs.error();
  std::vector<std::string> documents;
  documents.reserve(runs->size());
  for (const store::RunInfo& info : *runs) {
    const auto stored = store.find(info.id);
    if (!stored) return stored.error();
    auto document = store::result_document(*stored);
    if (!document) return document.error();
    documents.push_back(std::move(*document));
  }
  return formats::to_history_file(documents);
}

model::Result<std::size_t> import_runs(store::Store& store, const std::string& path) {
  const auto text = store::read_file(path);
  if (!text) return text.error();
  const auto documents = formats::from_history_file(*text, path);
  if (!documents) return documents.error();
  // Every run is read before any is stored: a damaged file stores nothing.
  std::vector<RunResult> runs;
  for (std::size_t i = 0; i < documents->size(); ++i) {
    auto parsed = formats::from_json((*documents)[i], fmt::format("{}: runs[{}]", path, i));
    if (!parsed) return parsed.error();
    if (!parsed->estimates_present) analysis::compute_estimates(parsed->run);
    runs.push_back(std::move(parsed->run));
  }
  std::size_t added = 0;
  for (const RunResult& run : runs) {
    const auto recorded = record_run(store, run);
    if (!recorded) return recorded.error();
    added += recorded->added ? 1 : 0;
  }
  return added;
}

model::Result<std::size_t> prune(store::Store& store, const PruneRequest& request) {
  const auto runs = store.list({});
  if (!runs) return runs.error();
  std::vector<std::string> doomed;
  // Runs come oldest first: count from the newest of each machine and branch, a run group as
  // one run (its shards kept or removed together).
  const std::vector<JoinedRun> joined = join_groups(*runs);
  std::map<std::pair<std::string, std::string>, std::size_t> newer;
  for (auto one = joined.rbegin(); one != joined.rend(); ++one) {
    const store::RunInfo& run = one->info;
    const std::size_t rank = newer[{run.machine, run.branch}]++;
    const bool too_many = request.keep > 0 && rank >= request.keep;
    const bool too_old = !request.before.empty() && run.date < request.before;
    if (!too_many && !too_old) continue;
    for (const store::RunInfo& member : one->members) doomed.push_back(member.id);
  }
  if (doomed.empty()) return std::size_t{0};
  return store.remove(doomed);
}

}  // namespace benchkit::session
