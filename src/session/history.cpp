#include "session/history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "analysis/estimates.hpp"
#include "formats/history_file.hpp"
#include "formats/result_json.hpp"
#include "session/result_files.hpp"
#include "store/atomic_file.hpp"
#include "system/fingerprint.hpp"

namespace benchkit::session {

std::string machine_id(const Context& context) {
  return system::machine_fingerprint(context, context.machine).id();
}

std::string build_id(const Context& context) {
  return system::build_fingerprint(context).id();
}

model::Result<Recorded> record_run(store::Store& store, const RunResult& run) {
  const store::StoredRun stored =
      store::make_stored_run(run, machine_id(run.context), build_id(run.context));
  const auto added = store.add(stored);
  if (!added) return added.error();
  return Recorded{.id = stored.id, .added = *added};
}

model::Result<std::vector<Recorded>> add_result_files(store::Store& store,
                                                      const std::vector<std::string>& files) {
  std::vector<Recorded> recorded;
  for (const std::string& file : files) {
    const auto run = load_result_file(file);
    if (!run) return run.error();
    const auto one = record_run(store, *run);
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

HistorySeries points_of(const std::vector<store::SeriesRow>& rows,
                        const std::function<bool(const std::string&)>& keep) {
  HistorySeries series;
  std::map<std::string, bool, std::less<>> kept;  // the regex once per name, not once per row
  for (const store::SeriesRow& row : rows) {
    auto verdict = kept.find(row.summary.benchmark);
    if (verdict == kept.end()) {
      verdict = kept.emplace(row.summary.benchmark, keep(row.summary.benchmark)).first;
    }
    if (!verdict->second) continue;
    std::vector<HistoryPoint>& points = series[row.summary.benchmark];
    HistoryPoint point{.run_id = row.run_id,
                       .commit = row.commit,
                       .date = row.date,
                       .median = row.summary.median,
                       .lower = row.summary.lower,
                       .upper = row.summary.upper};
    // Rows come by date: a newer run of the commit of the last point replaces it. A commit met
    // again after another one (a revert, a rebuilt old commit) starts a new point.
    if (!points.empty() && !row.commit.empty() && points.back().commit == row.commit) {
      points.back() = std::move(point);
    } else {
      points.push_back(std::move(point));
    }
  }
  return series;
}

model::Result<Series> load_series(store::Store& store, SeriesRequest request) {
  std::optional<std::regex> pattern;
  try {
    if (!request.pattern.empty()) pattern.emplace(request.pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    return model::Error{fmt::format("\"{}\" is not a regular expression ({}); give an "
                                    "ECMAScript regex such as 'sort|hash'",
                                    request.pattern, error.what()),
                        model::ErrorKind::usage};
  }
  if (request.machine.empty() || request.branch.empty()) {
    const auto runs = store.list({});
    if (!runs) return runs.error();
    if (runs->empty()) {
      return model::Error{
          fmt::format("history {} holds no run yet; record one with --record or "
                      "benchkit history add FILE",
                      store.location())};
    }
    if (request.machine.empty()) request.machine = runs->back().machine;
    if (request.branch.empty()) request.branch = runs->back().branch;
  }
  const auto rows = store.series({.machine = request.machine,
                                  .branch = request.branch,
                                  .since = request.since,
                                  .before = request.before});
  if (!rows) return rows.error();
  Series series{.machine = request.machine, .branch = request.branch, .benchmarks = {}};
  series.benchmarks = points_of(*rows, [&](const std::string& name) {
    return !pattern || std::regex_search(name, *pattern);
  });
  return series;
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
  // Runs come oldest first: count from the newest of each machine and branch.
  std::map<std::pair<std::string, std::string>, std::size_t> newer;
  for (auto run = runs->rbegin(); run != runs->rend(); ++run) {
    const std::size_t rank = newer[{run->machine, run->branch}]++;
    const bool too_many = request.keep > 0 && rank >= request.keep;
    const bool too_old = !request.before.empty() && run->date < request.before;
    if (too_many || too_old) doomed.push_back(run->id);
  }
  if (doomed.empty()) return std::size_t{0};
  return store.remove(doomed);
}

}  // namespace benchkit::session
