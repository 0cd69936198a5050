// The flags several commands share, each declared here once so that its spelling, its help
// and its default are the same wherever it appears (cli/commands.hpp).
#include <CLI/CLI.hpp>
#include <algorithm>

#include "cli/commands.hpp"

namespace benchkit::cli {

void add_comparison_flags(CLI::App& command, ComparisonFlags& flags, bool with_all_samples) {
  command
      .add_option("--count-threshold", flags.count_threshold,
                  "Counts (--mode instructions, counters): changes within ±this fraction are "
                  "'unchanged' (default 0.001 = ±0.1%; counts repeat exactly, so any larger "
                  "change is a verdict; docs/instructions.md)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--noise-threshold", flags.noise_threshold,
                  "Changes within ±this fraction are 'unchanged' (default 0.02 = ±2%)")
      ->check(CLI::Range(0.0, 1.0));
  command
      .add_option("--adjust", flags.adjustment,
                  "Correction of p-values across the benchmarks: holm (default), bh "
                  "(Benjamini-Hochberg) or none")
      ->check(CLI::IsMember({"holm", "bh", "none"}));
  if (with_all_samples) {
    command.add_flag("--all-samples", flags.all_samples,
                     "Compare every sample, also those taken while the machine ran slow (by "
                     "default both sides are cut at one machine speed, read from a reference "
                     "loop timed between samples; docs/verdicts.md)");
  }
}

void add_power_flags(CLI::App& command, ComparisonFlags& flags) {
  // "1%" or "0.01", read by session::parse_change.
  const CLI::Validator fraction(
      [](std::string& text) -> std::string {
        const auto change = session::parse_change(text);
        if (!change) return change.error().message;
        text = std::to_string(*change);
        return {};
      },
      "CHANGE");
  command
      .add_option("--mde", flags.mde,
                  "The smallest change that matters, e.g. 1% (or 0.01): side-by-side rounds are "
                  "planned for --power at that change beyond the noise threshold, from the "
                  "scatter of the rounds so far; a benchmark stops once it has them, and an "
                  "undecided one says whether the planned power was reached (docs/verdicts.md)")
      ->transform(fraction);
  command
      .add_option("--power", flags.power,
                  "The chance of finding a change of --mde that the rounds are planned for, and "
                  "of the detectable change each comparison reports (default 0.8)")
      ->check(CLI::Range(0.5, 0.999));
  command.parse_complete_callback([&flags] {
    if (auto refused = session::check_power(flags)) {
      throw CLI::ValidationError("--mde", refused->message);
    }
  });
}

namespace {

// --mode's words (time, instructions, counters) as a session::Mode, only those of `accepted`:
// a word is parsed here, at the boundary, and a number is refused.
CLI::Validator mode_names(const std::vector<session::Mode>& accepted) {
  std::string names;
  for (const session::Mode mode : accepted) {
    names += (names.empty() ? "" : ", ") + std::string(session::to_string(mode));
  }
  return CLI::Validator(
      [accepted, names](std::string& text) -> std::string {
        const auto mode = session::parse_mode(text);
        if (!mode || std::find(accepted.begin(), accepted.end(), *mode) == accepted.end()) {
          return "\"" + text + "\" is not a mode here; choose " + names;
        }
        // CLI11 stores an enum from its number.
        text = std::to_string(static_cast<int>(*mode));
        return {};
      },
      "{" + names + "}");
}

}  // namespace

void add_mode_option(CLI::App& command, session::Mode& mode,
                     const std::vector<session::Mode>& accepted, const std::string& meaning) {
  command.add_option("--mode", mode, "What to measure: time (default)" + meaning)
      ->transform(mode_names(accepted));
}

void add_fail_on_regression_flag(CLI::App& command, bool& flag, const std::string& against) {
  command.add_flag("--fail-on-regression", flag,
                   "Exit with status 1 when a benchmark regressed" +
                       (against.empty() ? std::string() : " " + against) + " (for CI)");
}

void add_max_rounds_option(CLI::App& command, std::size_t& max_rounds) {
  command
      .add_option("--max-rounds", max_rounds,
                  "Side-by-side comparisons: benchmarks not yet decided after --rounds get "
                  "more rounds, one at a time, each look read at its level of a sequential "
                  "design, up to N (default 9 x --rounds; equal to --rounds: no more); one that "
                  "even a favourable estimate says needs more than N stops at that look "
                  "(docs/verdicts.md)")
      ->check(CLI::Range(std::size_t{2}, std::size_t{3000}));
}

void add_budget_option(CLI::App& command, std::string& budget) {
  command.add_option("--budget", budget,
                     "Wall time for the whole comparison (e.g. 30s, 2min): after --rounds, each "
                     "next round goes to the undecided benchmarks furthest from settled while it "
                     "lasts; each one still undecided says how many more rounds would settle it "
                     "(default: no budget, up to --max-rounds)");
}

void add_record_flag(CLI::App& command, bool& record, const std::string& what) {
  command.add_flag("--record", record,
                   "Record " + what +
                       " in the history, each run with its commit, branch and machine, for "
                       "benchkit history trend and check (docs/history.md)");
}

void add_save_baseline_option(CLI::App& command, std::string& name) {
  command.add_option("--save-baseline", name,
                     "Save this run as baseline NAME (under .benchkit/baselines/, or "
                     "$BENCHKIT_DIR)");
}

void add_quiet_flag(CLI::App& command, bool& quiet) {
  command.add_flag("--quiet,-q", quiet, "No table and no progress");
}

void add_filter_option(CLI::App& command, std::string& filter, const std::string& which,
                       bool bench_alias) {
  command.add_option(bench_alias ? "--filter,--bench" : "--filter", filter,
                     which +
                         " whose name matches this regular expression (searched anywhere in the "
                         "name, e.g. 'sort|hash' or '^codec/level=3')");
}

void add_precision_option(CLI::App& command, double& precision) {
  command
      .add_option("--precision", precision,
                  "Stop once the median's 95% CI is within ±this fraction of it (default 0.01 = "
                  "±1%)")
      ->check(CLI::Range(1e-6, 1.0));
}

void add_worker_timeout_option(CLI::App& command, std::string& timeout) {
  command.add_option("--worker-timeout", timeout,
                     "Side-by-side comparisons: a worker that takes longer than this to set up, "
                     "to take one sample or to write its results is taken for hung, killed, and "
                     "the comparison stops with an error naming it (default 120s)");
}

void add_store_option(CLI::App& command, std::string& store) {
  command.add_option("--store", store,
                     "The history: an SQLite file, or a postgresql:// URL (default "
                     "$BENCHKIT_STORE, else .benchkit/history.db)");
}

void add_group_option(CLI::App& command, std::string& group) {
  command.add_option("--group", group,
                     "The run group (ID) to record this run under: the history shows the runs of "
                     "one group and commit as one run. Default: "
                     "for a shard (--shard K/N), the CI's run id (GITHUB_RUN_ID, CI_PIPELINE_ID, "
                     "...), else the commit and build (docs/history.md)");
}

void add_shard_options(CLI::App& command, std::string& shard, std::string* by) {
  command.add_option("--shard", shard,
                     "K/N: measure only the K-th of N disjoint parts of the selected benchmarks "
                     "(after --filter and skip tags), for a suite split across CI runners; "
                     "join the parts' result files with benchkit merge (docs/ci.md)");
  if (by) {
    command.add_option("--shard-by", *by,
                       "How --shard splits: count (equal numbers of benchmarks, the default) or "
                       "history (equal durations, as recorded in --store)");
  }
}

void add_rounds_option(CLI::App& command, std::size_t& rounds, std::size_t least) {
  command
      .add_option("--rounds", rounds,
                  "Side-by-side comparisons: rounds of fresh process pairs per benchmark, each "
                  "with --time-budget / N of sampling a side (default 10; paired rounds need at "
                  "least 6 for a verdict)")
      ->check(CLI::Range(least, std::size_t{1000}));
}

void add_time_budget_option(CLI::App& command, std::string& budget,
                            const std::string& default_note) {
  command.add_option("--time-budget", budget,
                     "Measuring time per benchmark (side by side: per side, over --rounds) after "
                     "which it stops even if imprecise; units ns, us, ms, s, m (" +
                         default_note + ")");
}

void add_processes_option(CLI::App& command, std::size_t& processes,
                          const std::string& default_note, std::size_t least, std::size_t most) {
  command
      .add_option("--processes", processes,
                  "Fresh processes of the bench binary, one after another, their results merged: "
                  "the process becomes the unit of variation, so what changes between runs "
                  "(memory layout, machine state) is accounted for (" +
                      default_note + ")")
      ->check(CLI::Range(least, most));
}

void add_seed_option(CLI::App& command, std::uint64_t& seed) {
  command.add_option("--seed", seed,
                     "Seed of every random choice (benchkit run: --order random), recorded with "
                     "the results (default 0)");
}

void add_param_option(CLI::App& command, std::vector<std::string>& params) {
  command
      .add_option("--param", params,
                  "Replace the values of a bench binary's parameter: --param items=10000000 or "
                  "--param size=64,4096 (repeatable; applies to every benchmark and scenario "
                  "with that parameter)")
      ->check([](const std::string& text) {
        const auto equals = text.find('=');
        return equals == std::string::npos || equals == 0 || equals + 1 == text.size()
                   ? std::string("a parameter is NAME=VALUE[,VALUE...], e.g. --param items=1000")
                   : std::string();
      });
}

void add_color_option(CLI::App& command, std::string& color, const std::string& help) {
  command.add_option("--color", color, help)->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_out_option(CLI::App& command, std::string& out, const std::string& help) {
  command.add_option("--out", out, help);
}

}  // namespace benchkit::cli
