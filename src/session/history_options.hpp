// `benchkit history`'s options as plain data (cli/history_command.cpp and
// cli/history_gate_command.cpp bind the flags of its subcommands to these fields), and the
// requests of session/history.hpp they make, each checked here: an error names the flag and its
// fix. What `history list` shows of the runs (its JSON document and its table's cells) is here
// too, so that the command only prints it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "session/command_options.hpp"
#include "session/history.hpp"
#include "session/run_groups.hpp"
#include "store/history_store.hpp"

namespace benchkit::session {

// The flags of every `history` subcommand; each subcommand reads the fields it declared.
struct HistoryOptions {
  std::string store = {};
  std::vector<std::string> files = {};
  std::string file = {};
  std::string run = {};
  std::string pattern = {};
  std::string machine = {};
  std::string branch = {};
  std::string since = {};
  std::string before = {};
  model::Format format = model::Format::console;
  std::string out = {};
  std::string html = {};  // --html FILE: also the HTML page (trend, report)
  std::size_t keep = 0;
  std::string group = {};  // add --group
  // check
  std::string base_branch = "main";
  std::size_t last = 10;  // CheckRequest::last says why
  std::size_t expect_shards = 0;
  std::string wait = {};  // --wait DURATION ("90s", "5m")
  bool fail_on_regression = false;
  ComparisonFlags comparison;
};

// The runs `list` and `export` select: --machine, --branch, --since, --before.
store::RunQuery run_query(const HistoryOptions& options);
// `trend`: the benchmarks matching its REGEX on --machine and --branch, over --since/--before.
SeriesRequest trend_request(const HistoryOptions& options);
// `report`: the period --since to --before, with the comparison flags.
SnapshotRequest snapshot_request(const HistoryOptions& options);
// `check`: --wait read as a duration (a usage error naming it when it is none).
model::Result<CheckRequest> check_request(const HistoryOptions& options);
// `check`'s exit status once it compared: 1 when a benchmark regressed and --fail-on-regression
// was given, else 0.
int check_status(const HistoryOptions& options, const analysis::Comparison& comparison);
// `prune`: refused (usage) without --keep N or --before DATE, which would remove nothing.
model::Result<PruneRequest> prune_request(const HistoryOptions& options);

// Run identities and commits are shown by their first 12 hex digits: unique in any history a
// person reads, and what `history show` and `check` accept back (they need 4).
inline constexpr std::size_t kShownDigits = 12;

// `history list --format json`: the benchkit/history-runs document (version 1) of `runs` in the
// store at `location`, each joined run with its whole identity and its members; ends in "\n".
std::string runs_document(const std::vector<JoinedRun>& runs, const std::string& location);

// `history list`'s table: a row per joined run (identities and commits shortened); the group and
// shards columns only when some run has a group.
struct RunsTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right;  // per column: right-aligned (numbers)
};
RunsTable runs_table(const std::vector<JoinedRun>& runs);

}  // namespace benchkit::session
