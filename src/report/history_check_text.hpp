// What `benchkit history check` prints: a heading naming the run checked and the history it is
// judged against, the verdict table of compare, and the change points among the last commits.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/history_check.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// The run checked and its history, as plain values (commits and identities whole: shown by
// their first 12 digits).
struct CheckReport {
  std::string run = {};
  std::string group = {};   // "" when the run is no group of shards
  std::string shards = {};  // "4/4" for a group ("" shown as "no")
  std::string commit = {};
  std::string branch = {};
  std::string machine = {};
  std::string base_branch = {};
  std::size_t history_runs = 0;
  const analysis::Comparison* comparison = nullptr;
  std::vector<analysis::RecentChange> changes = {};
  std::size_t last = 0;  // the commits the change points were named among
};

// json and csv: the verdict table alone; every other format: "run ID (group G, N shards, commit
// C, branch B) against N earlier run(s) of machine M on BASE", the verdict table, then the
// change points ("no change point in the last N commits" when there are none).
std::string check_report(const CheckReport& check, Format format);

}  // namespace benchkit::report
