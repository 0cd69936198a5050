// The history of runs across commits (docs/history.md): recording runs into a store, and reading
// back the series that `history trend`, `check` and `report` work on. Prints nothing.
//
// A point is one benchmark at one commit, on one machine fingerprint and one branch: the median
// (with its 95% CI) of the newest run recorded for that commit there. A run without a commit (a
// result file from elsewhere) is a point of its own. Runs of other machines or builds of the
// machine are never mixed into one series.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/history_check.hpp"
#include "analysis/history_snapshot.hpp"
#include "analysis/history_trend.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::session {

// The fingerprints a run is stored under (system/fingerprint.hpp), from its context.
std::string machine_id(const Context& context);
std::string build_id(const Context& context);

struct Recorded {
  std::string id = {};  // the run's identity in the store
  bool added = false;   // false: that very run was stored before
};

// Stores `run` (its estimates computed) under run group `group` ("" none). Re-recording the same
// result is a no-op.
model::Result<Recorded> record_run(store::Store& store, const RunResult& run,
                                   const std::string& group = {});

// Opens the history at `location` (store::history_location: "" = the default) and records
// `run` there under its run group (session/run_groups.hpp, run_group: `group` when given, else
// for a shard the CI's run id from this process's environment): what --record does after a
// run.
model::Result<Recorded> record_run_at(const std::string& location, const RunResult& run,
                                      const std::string& group = {});

// Opens the history at `location` (migrating it), to find a store that cannot be opened before
// a run rather than after it.
model::Result<bool> check_history(const std::string& location);

// Loads each result file (estimates recomputed where absent) and records it under its run group
// (as record_run_at). Stops at the first file that cannot be read, before storing anything of
// it; runs stored before it stay.
model::Result<std::vector<Recorded>> add_result_files(store::Store& store,
                                                      const std::vector<std::string>& files,
                                                      const std::string& group = {});

// The result of stored run `id_prefix`, parsed.
model::Result<RunResult> load_stored_run(store::Store& store, std::string_view id_prefix);

// How long each of `names` took to run (session/shard.hpp, benchmark_duration_ns) in the newest
// stored run that has it, reading back at most kDurationRuns runs, newest first (enough for the
// shards of several recent commits). Runs of `this_commit` are passed over: the other shards of
// this very commit may record theirs while the shards choose, and every shard must split alike.
// Names not found are absent. For --shard-by history.
inline constexpr std::size_t kDurationRuns = 64;
model::Result<std::map<std::string, double>> recorded_durations(
    store::Store& store, const std::vector<std::string>& names, const std::string& this_commit);

using analysis::HistoryPoint;

// benchmark name -> its points, oldest first.
using HistorySeries = std::map<std::string, std::vector<HistoryPoint>, std::less<>>;

struct SeriesRequest {
  std::string machine = {};  // "" = the machine of the newest run in the store
  std::string branch = {};   // "" = the branch of the newest run
  std::string pattern = {};  // ECMAScript regex searched in benchmark names; "" = every benchmark
  std::string since = {};    // ISO 8601 date or time; "" = from the first run
  std::string before = {};
};

struct Series {
  std::string machine = {};
  std::string branch = {};
  HistorySeries benchmarks = {};
};

// The series selected; an error for a bad pattern or an empty store.
model::Result<Series> load_series(store::Store& store, SeriesRequest request);

// Turns runs ordered by date into one point per commit (the newest run of each commit wins).
// Rows of benchmarks that `keep` rejects are skipped.
HistorySeries points_of(const std::vector<store::SeriesRun>& runs,
                        const std::function<bool(const std::string&)>& keep);

// The series as a trend: each point with its change from the one before, change points marked.
analysis::Trend trend_of(Series series);

// `history trend`: the series selected, each point with its change from the one before and the
// change points of the series marked (stream_trend, collected).
model::Result<analysis::Trend> history_trend(store::Store& store, const SeriesRequest& request);

// `history trend` benchmark by benchmark, for a trend of every benchmark of a long history:
// `start` gets the machine and branch (a Trend without benchmarks), then `each` every benchmark
// in name order, its change points marked, as soon as its turn comes. The series are read run by
// run (Store::each_series_run) into compact columns (32 bytes a point, no rows of strings); the
// benchmarks are marked a few dozen at a time on every core. The points and marks are those of
// trend_of(load_series(...)). `each` may take the points (move them out) but not change their
// strings in place: the trend's points are reused for the next benchmarks, a point's strings
// rewritten only when it holds another run's.
model::Result<bool> stream_trend(store::Store& store, SeriesRequest request,
                                 const std::function<void(const analysis::Trend&)>& start,
                                 const std::function<void(analysis::BenchmarkTrend&)>& each);

// What stream_trend hands the trend to: `start` the machine and branch first; then, for every
// benchmark, `render` on the marking threads, several benchmarks at once (so it must touch
// nothing shared but its own thread's: a benchmark's text, appended to the empty string it is
// given, whose memory is reused), and `each` in name order on the caller's thread, with what
// `render` wrote ("" when there is no `render`).
struct TrendStream {
  std::function<void(const analysis::Trend&)> start = {};
  std::function<void(const analysis::BenchmarkTrend&, std::string&)> render = {};
  std::function<void(analysis::BenchmarkTrend&, std::string&)> each = {};
};
// stream_trend with each benchmark's text made on the marking threads: a trend of every
// benchmark of a fleet's history writes its text on every core.
model::Result<bool> stream_trend(store::Store& store, SeriesRequest request,
                                 const TrendStream& stream);

struct SnapshotRequest {
  std::string since = {};    // required: the start of the period
  std::string before = {};   // "" = up to now
  std::string machine = {};  // "" = the machine of the newest run
  std::string branch = {};   // "" = the branch of the newest run
  analysis::CompareSettings settings = {};
};

// `history report`: the runs of the period on one machine and branch, the comparison of its
// first run with its newest, and the change points of the period. Needs two runs.
model::Result<analysis::HistorySnapshot> history_snapshot(store::Store& store,
                                                          const SnapshotRequest& request);

struct CheckRequest {
  std::string run = {};  // "" = the newest run in the store
  std::string base_branch = "main";
  // Change points are named when they fall in the newest `last` commits of the series (the
  // base branch's history and the checked run); 10: about two weeks of daily runs, a window a
  // reviewer still relates to recent merges. They are searched in the newest
  // max(analysis::kSearchedHistory, last) points of the history, the window `check` reads, not
  // in the whole series (docs/change-points.md, "The window of check").
  std::size_t last = 10;
  analysis::CompareSettings settings = {};
  // A run group is checked whole: refused (kind input) while fewer than N shards are recorded,
  // N the larger of this and the N its shards recorded (0: theirs).
  std::size_t expect_shards = 0;
  // How long to wait for the missing shards of the group before refusing (0: no wait), looking
  // again every kWaitPollSeconds.
  double wait_seconds = 0;
};

// 1 s between looks at an incomplete group: a shard's record is one transaction, so the group
// is seen whole within a second of its last shard, at one cheap query a second.
inline constexpr double kWaitPollSeconds = 1.0;

// A change of level in a series, between two commits.
using analysis::RecentChange;

struct CheckOutcome {
  store::RunInfo candidate = {};  // a run group's members joined (session/run_groups.hpp)
  std::string shards = {};        // "4/4" for a run group of shards, "" otherwise
  std::size_t history_runs = 0;   // runs of the base branch on the candidate's machine (a run
                                  // group's shards one run)
  analysis::Comparison comparison = {};
  std::vector<RecentChange> changes = {};
};

// `history check`: the checked run (a run group: its shards together) against the history of its
// machine fingerprint on the base branch (analysis/history_check.hpp), its own commit left out;
// the verdicts are written to the store's summary rows of the checked run (of each shard). Reads
// the newest max(kSearchedHistory, request.last) points of the history, not all of it;
// history_runs still counts every run of it.
model::Result<CheckOutcome> check_run(store::Store& store, const CheckRequest& request);

// The portable file of `history export`: every run selected, as results.
model::Result<std::string> export_runs(store::Store& store, const store::RunQuery& query);

// Records every run of an exported file; returns how many were new.
model::Result<std::size_t> import_runs(store::Store& store, const std::string& path);

struct PruneRequest {
  std::size_t keep = 0;     // keep the newest `keep` runs of each machine and branch (0: no limit)
  std::string before = {};  // remove runs dated before this ("" : no limit)
};

// Removes the runs the request selects; returns how many were removed.
model::Result<std::size_t> prune(store::Store& store, const PruneRequest& request);

}  // namespace benchkit::session
