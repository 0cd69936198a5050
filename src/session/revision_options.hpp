// `benchkit ab` and `benchkit bisect`'s options as plain data (cli/ab_command.cpp binds its
// flags to these fields), and what they become: how the builds run side by side, the plan of
// ab (session/plans.hpp) and the plan of a bisection. Every error names the flag and the fix.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "session/command_options.hpp"
#include "session/plans.hpp"
#include "session/revisions.hpp"

namespace benchkit::session {

struct RevisionOptions {
  std::string base, candidate;  // ab
  std::string good, bad;        // bisect
  BuildChoice build;
  std::vector<std::string> commands;  // --cmd
  std::string bench;
  std::string shard;      // ab --shard K/N: one part of the benchmarks of every bench binary
  bool together = false;  // --together: Google Benchmark binaries, a round's benchmarks together
  std::size_t rounds = 10;
  std::size_t max_rounds = 0;  // 0: kMaxRoundsFactor times `rounds`
  std::string budget;          // ab --budget DURATION of the rounds ("" none)
  std::string time_budget;     // "": kSideBySideBudgetNs for bench binaries, 1 s for a --cmd
  std::string worker_timeout = "120s";
  model::Format format = model::Format::console;
  std::string out;
  std::string html;  // --html: the comparison also as one self-contained HTML page
  std::string log;
  bool faster = false;  // bisect --faster
  bool fail_on_regression = false;
  // ab --mode instructions: each build's binary counted (valgrind)
  Mode mode = Mode::time;
  bool record = false;  // --record: both runs into the history (docs/history.md)
  std::string store;    // --store: which history (default $BENCHKIT_STORE, .benchkit/history.db)
  std::string group;    // --group: the run group of both runs (session/run_groups.hpp)
  ComparisonFlags comparison;
  std::string color = "auto";
  bool quiet = false;
  std::vector<std::string> trailing;  // after --: flags for the bench binaries of both builds
  // The flags given on the command line, as spelled ("--rounds"): those of --mode time are
  // refused with --mode instructions.
  std::vector<std::string> given;
  std::string command_line;  // the whole `benchkit ab ...`, for the commands' context
};

// The options both commands share, checked and turned into how the builds run side by side.
model::Result<PairSettings> pair_settings(const RevisionOptions& options);

// What ab refuses before anything is built: --mode after --, the flags of --mode time (and
// --cmd) with --mode instructions, valgrind missing, --store without --record, a history that
// cannot be opened.
std::optional<model::Error> check_ab(const RevisionOptions& options);

// ab's plan: two revisions built in worktrees and run side by side (or a --cmd of each build in
// rounds), compared, and with --record both recorded.
model::Result<Plan> ab_plan(const RevisionOptions& options);

// bisect's plan: GOOD and BAD, the builds, the pairs of each step and the log.
model::Result<BisectPlan> bisect_plan(const RevisionOptions& options);

}  // namespace benchkit::session
