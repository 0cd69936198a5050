// The flags several commands share, each declared here once so that its spelling, its help
// and its default are the same wherever it appears (cli/commands.hpp).
#include <fmt/format.h>

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
  // "1%" or "0.01".
  const CLI::Validator fraction(
      [](std::string& text) -> std::string {
        std::string number = text;
        const bool percent = !number.empty() && number.back() == '%';
        if (percent) number.pop_back();
        double value = 0.0;
        try {
          std::size_t used = 0;
          value = std::stod(number, &used);
          if (used != number.size()) return "\"" + text + "\" is not a change: give 1% or 0.01";
        } catch (const std::exception&) {
          return "\"" + text + "\" is not a change: give 1% or 0.01";
        }
        if (percent) value /= 100.0;
        if (!(value > 0.0 && value < 1.0)) return "\"" + text + "\" is not between 0 and 100%";
        text = std::to_string(value);
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
    if (flags.mde > 0.0 && flags.mde <= flags.noise_threshold) {
      throw CLI::ValidationError(
          "--mde", fmt::format("--mde {:g}% is not above --noise-threshold {:g}%: a change that "
                               "small is called unchanged; give a larger --mde or a smaller "
                               "--noise-threshold",
                               flags.mde * 100.0, flags.noise_threshold * 100.0));
    }
  });
}

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
                  "design, up to N (default 9 x --rounds; equal to --rounds: no more)")
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

void add_color_option(CLI::App& command, std::string& color, const std::string& help) {
  command.add_option("--color", color, help)->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_out_option(CLI::App& command, std::string& out, const std::string& help) {
  command.add_option("--out", out, help);
}

}  // namespace benchkit::cli
