#include "session/history_options.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "model/duration.hpp"

namespace benchkit::session {

store::RunQuery run_query(const HistoryOptions& o) {
  return {.machine = o.machine, .branch = o.branch, .since = o.since, .before = o.before};
}

SeriesRequest trend_request(const HistoryOptions& o) {
  return {.machine = o.machine,
          .branch = o.branch,
          .pattern = o.pattern,
          .since = o.since,
          .before = o.before};
}

SnapshotRequest snapshot_request(const HistoryOptions& o) {
  return {.since = o.since,
          .before = o.before,
          .machine = o.machine,
          .branch = o.branch,
          .settings = comparison_settings(o.comparison)};
}

model::Result<CheckRequest> check_request(const HistoryOptions& o) {
  double wait_seconds = 0;
  if (!o.wait.empty()) {
    const auto wait_ns = model::parse_duration_ns(o.wait);
    if (!wait_ns) {
      return usage_error(
          fmt::format("--wait {}: not a duration; give one such as 90s or 600 (seconds)", o.wait));
    }
    wait_seconds = static_cast<double>(*wait_ns) / 1e9;
  }
  return CheckRequest{.run = o.run,
                      .base_branch = o.base_branch,
                      .last = o.last,
                      .settings = comparison_settings(o.comparison),
                      .expect_shards = o.expect_shards,
                      .wait_seconds = wait_seconds};
}

int check_status(const HistoryOptions& o, const analysis::Comparison& comparison) {
  return o.fail_on_regression && comparison.any_regression() ? 1 : 0;
}

model::Result<PruneRequest> prune_request(const HistoryOptions& o) {
  if (o.keep == 0 && o.before.empty()) {
    return usage_error(
        "history prune needs --keep N (the newest N runs of each machine and branch) or "
        "--before DATE");
  }
  return PruneRequest{.keep = o.keep, .before = o.before};
}

namespace {

std::string short_text(const std::string& text) {
  return text.substr(0, kShownDigits);
}

std::string tags_text(const std::map<std::string, std::string>& tags) {
  std::string text;
  for (const auto& [name, value] : tags) text += (text.empty() ? "" : ",") + name + "=" + value;
  return text;
}

std::string dirty_text(const std::optional<bool>& dirty) {
  return !dirty ? "?" : *dirty ? "yes" : "no";
}

}  // namespace

std::string runs_document(const std::vector<JoinedRun>& runs, const std::string& location) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const JoinedRun& joined : runs) {
    const store::RunInfo& run = joined.info;
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const store::RunInfo& member : joined.members) {
      members.push_back({{"id", member.id},
                         {"shard", member.shard_index},
                         {"host", member.hostname},
                         {"benchmarks", member.benchmarks}});
    }
    list.push_back({{"id", run.id},
                    {"date", run.date},
                    {"commit", run.commit},
                    {"branch", run.branch},
                    {"dirty", run.dirty ? nlohmann::ordered_json(*run.dirty) : nullptr},
                    {"machine", run.machine},
                    {"build", run.build},
                    {"host", run.hostname},
                    {"benchmarks", run.benchmarks},
                    {"tags", run.tags},
                    {"group", run.group},
                    {"shards", joined.shards_text()},
                    {"members", std::move(members)}});
  }
  const nlohmann::ordered_json document = {{"schema", "benchkit/history-runs"},
                                           {"version", 1},
                                           {"store", location},
                                           {"runs", std::move(list)}};
  return document.dump(2) + "\n";
}

RunsTable runs_table(const std::vector<JoinedRun>& runs) {
  RunsTable table{.header = {"run", "date", "commit", "branch", "dirty", "machine", "host",
                             "benchmarks", "tags"},
                  .rows = {},
                  .right = {false, false, false, false, false, false, false, true, false}};
  bool grouped = false;
  for (const JoinedRun& one : runs) {
    const store::RunInfo& run = one.info;
    grouped = grouped || !run.group.empty();
    table.rows.push_back({short_text(run.id), run.date, short_text(run.commit), run.branch,
                          dirty_text(run.dirty), run.machine, run.hostname,
                          std::to_string(run.benchmarks), tags_text(run.tags), run.group,
                          one.shards_text()});
  }
  if (grouped) {
    table.header.insert(table.header.end(), {"group", "shards"});
    table.right.insert(table.right.end(), {false, true});
  } else {
    for (auto& row : table.rows) row.resize(table.header.size());
  }
  return table;
}

}  // namespace benchkit::session
