// `benchkit compare BASE NEW`'s options as plain data (cli/compare_command.cpp binds its flags
// to these fields), and its plan: two executables run now, or two result files or baselines read.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "session/command_options.hpp"
#include "session/plans.hpp"

namespace benchkit::session {

struct CompareOptions {
  std::string base;
  std::string candidate;
  model::Format format = model::Format::console;
  std::string out;
  std::string html;
  ComparisonFlags comparison;
  bool fail_on_regression = false;
  std::size_t rounds = 10;
  std::size_t max_rounds = 0;  // 0: kMaxRoundsFactor times `rounds`
  std::string budget;          // --budget DURATION of the whole comparison ("" none)
  std::string worker_timeout;  // --worker-timeout DURATION ("" the defaults, BinariesPlan)
  std::string filter;
  std::vector<std::string> trailing;  // after --: flags for both executables
  std::string shard;                  // --shard K/N: two executables, one part of their benchmarks
  bool together = false;              // --together (BinariesPlan::together)
};

// BASE and NEW: two executables (BinariesPlan), or two result files or baselines (FilesPlan);
// one of each is a usage error. The exit status answers for the comparison alone.
model::Result<Plan> plan_for(const CompareOptions& options);

}  // namespace benchkit::session
