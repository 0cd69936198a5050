// The `benchkit` command's subcommands, one file each: add_X_command registers the
// subcommand on the app and returns the function to run when it was chosen.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "report/reporter.hpp"
#include "session/command_options.hpp"
#include "session/history.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace benchkit::cli {

// Exit status of a subcommand: 0 success, 1 a finding (e.g. a regression), 2 usage/input error;
// -1 when it was not the subcommand chosen.
using CommandRunner = std::function<int()>;

// The runner of `command`: -1 when another was chosen, else `run()`.
CommandRunner when_parsed(const CLI::App* command, std::function<int()> run);
// The flags given to `command`, in the order given (a default may depend on which were).
std::vector<std::string> given_flags(const CLI::App& command);
// A plan through the pipeline (session::run) with `observer`, its outcome handed to `report`; a
// plan that could not be made is reported, with its exit status.
int run_and_report(model::Result<session::Plan> plan, session::Observer& observer,
                   const std::function<int(session::Outcome&)>& report);

CommandRunner add_report_command(CLI::App& app);
CommandRunner add_compare_command(CLI::App& app);
CommandRunner add_system_command(CLI::App& app);
CommandRunner add_run_command(CLI::App& app);

// For `run` and `noise`: the words after the first `--` (a command, or a bench binary's own
// flags), kept away from the option parser. Empty when there was no `--`.
const std::vector<std::string>& trailing_arguments();

// The whole `benchkit ...` command line, for the results' context.
const std::string& tool_command_line();
CommandRunner add_noise_command(CLI::App& app);
CommandRunner add_ab_command(CLI::App& app);
CommandRunner add_bisect_command(CLI::App& app);
CommandRunner add_history_command(CLI::App& app);
CommandRunner add_data_command(CLI::App& app);
CommandRunner add_import_command(CLI::App& app);
CommandRunner add_merge_command(CLI::App& app);
CommandRunner add_profile_command(CLI::App& app);

// The comparison flags of every command that compares (session/command_options.hpp).
using session::comparison_settings;
using session::ComparisonFlags;

// The flags several commands declare alike, each spelt once here: those with a check or a parse
// of their own, and those of the gate and the history. Every other flag is one add_option or
// add_flag line where its command declares it; the description of each, shared or its command's
// own, is in docs/cli.md (cli/help.hpp).

// --fail-on-regression: exit status 1 when a benchmark regressed (Outcome::exit_status).
void add_fail_on_regression_flag(CLI::App& command, bool& flag);
// --store: the history (an SQLite file or a postgresql:// URL; default $BENCHKIT_STORE, else
// .benchkit/history.db).
void add_store_option(CLI::App& command, std::string& store);
// --record, --store and --group ID (the run group a run is recorded under,
// session/run_groups.hpp), of a command that records its runs in the history.
void add_recording_flags(CLI::App& command, bool& record, std::string& store, std::string& group);

// --noise-threshold, --count-threshold and --adjust into `flags`; `with_all_samples` adds
// --all-samples (keep the samples taken while the machine ran slow), for the commands whose
// samples carry a machine-speed probe.
void add_comparison_flags(CLI::App& command, ComparisonFlags& flags, bool with_all_samples = false);
// --mde CHANGE (1% or 0.01) and --power P: rounds planned for the smallest change that matters;
// an --mde not above --noise-threshold is refused when the flags are read.
void add_power_flags(CLI::App& command, ComparisonFlags& flags);
// --mode MODE, one of `accepted` (time, instructions, counters), parsed here into a session::Mode
// (a number is refused).
void add_mode_option(CLI::App& command, session::Mode& mode,
                     const std::vector<session::Mode>& accepted);
// --max-rounds of a side-by-side comparison (compare OLD NEW, ab): 0 leaves the default,
// session::kMaxRoundsFactor times --rounds.
void add_max_rounds_option(CLI::App& command, std::size_t& max_rounds);
// --rounds N of a side-by-side comparison, from `least` to 1000.
void add_rounds_option(CLI::App& command, std::size_t& rounds, std::size_t least);
// --precision FRACTION: the median's 95% CI half-width, relative, that stops sampling.
void add_precision_option(CLI::App& command, double& precision);
// --shard K/N and --shard-by count|history (session/shard.hpp, docs/ci.md). `by` is null for a
// command that splits by count only (it has no history to weigh benchmarks by).
void add_shard_options(CLI::App& command, std::string& shard, std::string* by);
// --processes N, fresh processes of a bench binary, from `least` to `most`.
void add_processes_option(CLI::App& command, std::size_t& processes, std::size_t least,
                          std::size_t most);
// --param NAME=V1,V2 (repeatable), a bench binary's parameter values; a word without a name or
// a value is refused.
void add_param_option(CLI::App& command, std::vector<std::string>& params);
// --color: auto (colour on a terminal, unless NO_COLOR), always or never.
void add_color_option(CLI::App& command, std::string& color);

// Prints "error: MESSAGE" on stderr and returns the exit status of the error's kind: 2 for usage
// and input, 1 for a failed run, 130 for an interrupted one (session::exit_status_of).
int report_error(const model::Error& error);
// Prints "error: MESSAGE" on stderr, for an error whose status the pipeline's outcome decides.
void say_error(const model::Error& error);

// Prints `text` on stdout, or writes it atomically to `out` when that is not empty. Returns the
// exit status: 0, or 2 (after saying why) when the file cannot be written.
int print_or_write(const std::string& text, const std::string& out);

// "recorded run ID in LOCATION" (or "already recorded: ..."), for a run recorded at `store`.
void say_recorded(const session::Recorded& recorded, const std::string& store);
// What the pipeline kept, after the run's report: the baseline saved (and its bench binary, or on
// stderr why it could not be kept) and the runs recorded (ab's baseline first). `quiet` (--quiet,
// or one machine-readable document on stdout) leaves out all but the warning.
void say_what_was_kept(const session::Outcome& outcome, bool quiet);
// Renders `document` in `format` and prints or writes it as print_or_write does; a format that
// has no form for the document (gbench for a comparison) is an error naming the formats that
// have one (exit status 2).
int render_or_write(report::Format format, const report::Document& document,
                    const std::string& out);

// Adds the subcommand `only` to `app` (every one when it is empty) and returns their runners;
// none when `only` names no subcommand.
std::vector<CommandRunner> add_subcommands(CLI::App& app, const std::string& only = {});

// The whole command; tool_main.cpp only calls this.
int run_tool(int argc, char** argv);

}  // namespace benchkit::cli
