// The one run pipeline every command that measures or compares goes through:
//
//   Plan ──make_measurer──▶ Measurer::measure ──▶ Measured ──finish──▶ Outcome
//   (what to measure)       (one per kind,          (the runs)   (judge, save,      (documents,
//                            each with a fake)                    record)            verdicts,
//                                                                                    exit status)
//
// A command line (src/cli/) maps its flags to a Plan, hands it to run_pipeline with an Observer
// that shows progress, and maps the Outcome to a reporter and its exit status: it measures,
// judges and saves nothing itself. analysis::compare is called here only (judge()), and so is
// the rule that turns what happened into an exit status (Outcome::exit_status).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "model/mode.hpp"
#include "model/progress.hpp"
#include "session/history.hpp"
#include "session/suite.hpp"

namespace benchkit::session {

// What a bench binary measures in each sample (model/mode.hpp).
using Mode = model::Mode;
using model::parse_mode;
using model::to_string;

// Whole commands run interleaved in rounds (`benchkit run --cmd A --cmd B`): how the rounds
// ended and, with two commands or more, every one compared with the reference on the paired
// rounds. That comparison is the measurer's (through judge()): the commands are one run,
// compared among themselves; the comparison with a baseline is the pipeline's.
struct Rounds {
  std::size_t count = 0;
  std::string stop_reason;  // "precision reached", "time budget spent", "--runs reached", ...
  std::string reference;    // the benchmark the others were compared with
  std::optional<analysis::Comparison> against_reference;
};

// What the measuring step gives back: one set of runs, not judged yet.
struct Measured {
  RunResult run;                      // the new run (the candidate of a comparison)
  std::optional<RunResult> baseline;  // what it is compared against, when anything is
  // How the two were measured, shown with the comparison (a side-by-side comparison, a kept
  // binary counted again), or why the saved samples were used instead.
  std::string method_note;
  // Both runs were measured now, side by side: their contexts differ by the build alone, so
  // the comparison carries no warning about machine or build differences.
  bool measured_together = false;
  // Paired rounds side by side: what one benchmark's round cost on average (the comparison's
  // wall time over its benchmark-rounds). The comparison's undecided benchmarks then say how
  // many more rounds, and about how much more time, would settle them
  // (analysis::note_settle_estimates).
  std::optional<double> round_cost_ns;
  bool interrupted = false;  // Ctrl-C: `run` holds what finished before it
  std::optional<Rounds> rounds;
  // What went wrong while measuring without stopping it (a --reference that names none of the
  // commands, found once their names were known): errors of the outcome, the run still kept.
  std::vector<model::Error> errors;
  // Judged while measuring, where the runs alone cannot say how to pair them (whole commands
  // compared on their paired rounds, session/commands.hpp): finish keeps it instead of judging.
  std::optional<analysis::Comparison> comparison;
};

// Progress while measuring: plain data through an interface of model/ (model/progress.hpp), so
// that report/ can turn it into text without knowing the session (report::ProgressPrinter).
using Observer = model::Observer;

// Takes the runs of one kind of plan. An error is for what stops the whole measurement (a
// worker that cannot be started, a baseline that cannot be listed, Ctrl-C before anything was
// kept); a benchmark that crashes, hangs or exits is a failed result inside `run` instead.
class Measurer {
 public:
  virtual ~Measurer() = default;
  virtual model::Result<Measured> measure(Observer& observer) = 0;
};

// Where the pipeline saves: baselines (files under .benchkit/baselines/) and the history
// (SQLite or PostgreSQL). An interface so that a failed save is tested without a disk.
class Keeper {
 public:
  virtual ~Keeper() = default;
  // Saves `run` as baseline `name`; returns the file's path.
  virtual model::Result<std::string> save_baseline(const std::string& name,
                                                   const RunResult& run) = 0;
  // Keeps `executable` with baseline `name` so that a later comparison runs it again beside
  // a new build; returns the kept copy's path.
  virtual model::Result<std::string> keep_executable(const std::string& name,
                                                     const std::string& executable) = 0;
  // Records `run` in the history at `store` ("" = $BENCHKIT_STORE or .benchkit/history.db),
  // under run group `group` (session/run_groups.hpp: "" the default of a shard).
  virtual model::Result<Recorded> record(const std::string& store, const RunResult& run,
                                         const std::string& group) = 0;
};

// The real one: store/baselines.hpp and session/history.hpp.
std::unique_ptr<Keeper> make_keeper();

// What happens to the runs once measured, in this order.
struct Steps {
  // Compares the run with the baseline when there is one (judge()).
  analysis::CompareSettings compare;
  // Saves the run as this baseline ("" none), with `keep_executable` beside it when not "".
  std::string save_baseline;
  std::string keep_executable;
  // Records the run in the history at `record_store` (not an interrupted run).
  bool record = false;
  std::string record_store;
  // The run group (--group ID, session/run_groups.hpp) of what is recorded; "": for a shard,
  // the CI's run id (or commit and build), and none for a whole run.
  std::string group;
  // Records the baseline too, before the run: both were measured now (ab's two revisions).
  bool record_baseline = false;
  // A confirmed regression makes the exit status 1.
  bool fail_on_regression = false;
  // A benchmark that failed to run, or a scenario whose checks failed, makes the exit status 1.
  // Off where the runs were read rather than measured (compare FILE FILE): their failures are
  // shown as invalid verdicts, and the command answers only for the comparison.
  bool fail_on_failed_benchmark = true;
  // Both sides were measured now (ab's bench binaries): a benchmark that failed to run on
  // either side makes the exit status 1, and a scenario's failed checks are left to the
  // comparison (an invalid verdict) rather than to the exit status.
  bool both_sides_measured = false;
};

// A comparison of `candidate` against `baseline` with the notes every comparison carries: how
// they were measured and, unless they were measured together, the machine and build
// differences of the two runs. The one call of analysis::compare outside tests.
analysis::Comparison judge(const RunResult& baseline, const RunResult& candidate,
                           const analysis::CompareSettings& settings,
                           const std::string& method_note = {}, bool measured_together = false);

struct SavedBaseline {
  std::string name;
  std::string path;
  std::optional<std::string> executable;  // the kept bench binary, when it could be kept
  std::string executable_problem;         // why it could not (a warning: samples still saved)
};

struct Outcome {
  RunResult run;
  std::optional<RunResult> baseline;
  std::optional<analysis::Comparison> comparison;
  std::optional<SavedBaseline> saved;
  std::optional<Recorded> recorded;
  std::optional<Recorded> recorded_baseline;  // Steps::record_baseline
  std::string record_store;                   // where `recorded` went, as given
  bool interrupted = false;
  std::optional<Rounds> rounds;  // whole commands in rounds: compared among themselves too
  bool fail_on_regression = false;
  bool fail_on_failed_benchmark = true;
  bool both_sides_measured = false;
  // False when measuring failed: there is no run to report, only `errors`.
  bool measured = false;
  // What went wrong, in order: measuring (then nothing else happened, unless the measurer kept
  // the run: Measured::errors), a save, a record, or what the command line adds afterwards (a
  // report it could not write). Each is also said where it happened; the first decides the
  // exit status.
  std::vector<model::Error> errors;

  // Benchmarks that failed to run (threw, crashed, hung, exited).
  std::size_t failed_benchmarks() const;
  // Scenario runs (and benchmarks) whose checks failed, once per run, with the failed checks.
  std::vector<std::pair<std::string, std::vector<std::string>>> invalid_runs() const;
  // A confirmed regression against the baseline, or (commands in rounds) against the reference.
  bool regressed() const;
  // The comparison a report shows as the one that decides: against the baseline, else (commands
  // in rounds) against the reference; null when there is neither.
  const analysis::Comparison* deciding_comparison() const;

  // The one rule from what happened to the exit status: 130 interrupted; else the first
  // error's (2 usage or input, 1 a failed run); else 1 for a regression under
  // --fail-on-regression, or (unless the steps turned it off) a benchmark that failed or a
  // scenario whose checks failed (both sides measured: a benchmark that failed on either side);
  // else 0.
  int exit_status() const;
};

// Status of an error's kind: 2 usage or input, 1 failed, 130 interrupted.
int exit_status_of(model::ErrorKind kind);

// The steps after measuring: judges the runs when there is a baseline, saves the baseline and
// records the run as `steps` ask (a save that fails is an error of the outcome; the others still
// happen), and says how it went.
Outcome finish(Measured measured, const Steps& steps, Keeper& keeper);

// measure, then finish. A measurer's error ends the pipeline with an outcome that holds it.
Outcome run_pipeline(Measurer& measurer, const Steps& steps, Observer& observer, Keeper& keeper);

}  // namespace benchkit::session
