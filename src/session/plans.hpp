// The typed plans of the run pipeline (session/pipeline.hpp): what to measure, one struct per
// kind of measurement, each turned into its Measurer by make_measurer. A command line fills one
// from its flags; nothing here knows a flag's spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "measure/instances.hpp"
#include "process/worker_invocation.hpp"
#include "session/pipeline.hpp"
#include "session/runner.hpp"

namespace benchkit::session {

// A bench binary's own run of the benchmarks it chose: its suite (each benchmark in a forked
// worker, all in this process, or the suite in N fresh processes), side by side with the
// baseline's kept binary, or counted under valgrind (Mode::instructions).
struct BenchPlan {
  Mode mode = Mode::time;
  RunSettings settings;
  std::vector<measure::Instance> chosen;
  // Left out by --skip-tag: reported with the results, not run.
  std::vector<BenchmarkResult> skipped;
  // Mode::instructions counts micro benchmarks only: how many scenarios were left out.
  std::size_t scenarios_left_out = 0;
  bool test = false;        // each benchmark once (a smoke run)
  bool in_process = false;  // no worker: a crash ends the run
  std::size_t processes = 1;

  // What the workers this run starts are told, whatever their role (each measurer adds the
  // role, the budget and the benchmarks): how to choose the same benchmarks as this process
  // (filter, exact, skip tags, params), the sample size the user asked for (0: the engine's),
  // and what changes what a benchmark measures or records (warm-up, seed, repetitions, no
  // counters, no machine warnings, tags).
  process::WorkerInvocation worker;

  // The run compared against, loaded before measuring (a missing baseline costs nothing).
  std::optional<RunResult> baseline;
  // --baseline NAME: the bench binary kept with it runs again side by side with this one,
  // unless `saved_samples` (compare the saved samples) or it cannot take turns.
  std::string baseline_name;
  bool saved_samples = false;
  // Side by side: fresh process pairs per benchmark, and up to `max_rounds` for those still
  // inconclusive; a worker silent for longer than `worker_timeout_ns` is killed.
  std::size_t rounds = 10;
  std::size_t max_rounds = 0;
  std::int64_t worker_timeout_ns = 0;
  analysis::CompareSettings compare;  // for the looks that decide extra rounds

  // Mode::instructions: "" = each benchmark in a fresh valgrind process; "forward" or
  // "reverse": all in one process in that order. `keep_env`: variables passed through.
  std::string counted_order;
  std::vector<std::string> keep_env;
};

// `benchkit compare OLD NEW` of two executables: both benchkit bench binaries (sampling in
// turns) or both Google Benchmark binaries, run side by side in paired rounds.
struct BinariesPlan {
  std::string base;
  std::string candidate;
  std::vector<std::string> flags;  // given to every process of both (after `--`)
  std::string filter;              // ECMAScript regex searched in the names ("" all)
  std::size_t rounds = 10;
};

// `benchkit compare OLD NEW` of two result files or baselines: nothing to measure, both read.
struct FilesPlan {
  std::string base;
  std::string candidate;
};

struct Plan {
  std::variant<BenchPlan, BinariesPlan, FilesPlan> what;
  Steps then;
};

// The measurer of a plan's kind.
std::unique_ptr<Measurer> make_measurer(BenchPlan plan);
// The same with the suite's workers from `launchers` (tests give fakes, session/launcher.hpp);
// side-by-side and counted runs still start real processes.
std::unique_ptr<Measurer> make_measurer(BenchPlan plan, LauncherFactory launchers);
std::unique_ptr<Measurer> make_measurer(BinariesPlan plan);
std::unique_ptr<Measurer> make_measurer(FilesPlan plan);

// The whole pipeline with the real measurer and keeper.
Outcome run(Plan plan, Observer& observer);

// True when `path` is a program to run rather than a result file: an executable regular file
// whose first byte does not start a JSON document.
bool is_program(const std::string& path);

}  // namespace benchkit::session
