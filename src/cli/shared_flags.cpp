// The flags several commands share, each declared here once so that its spelling and its checks
// are the same wherever it appears (cli/commands.hpp); their help is in docs/cli.md.
#include <CLI/CLI.hpp>
#include <algorithm>

#include "analysis/round_budget.hpp"
#include "cli/commands.hpp"

namespace benchkit::cli {

void add_fail_on_regression_flag(CLI::App& command, bool& flag) {
  command.add_flag("--fail-on-regression", flag);
}

void add_store_option(CLI::App& command, std::string& store) {
  command.add_option("--store", store);
}

void add_recording_flags(CLI::App& command, bool& record, std::string& store, std::string& group) {
  command.add_flag("--record", record);
  add_store_option(command, store);
  command.add_option("--group", group);
}

void add_comparison_flags(CLI::App& command, ComparisonFlags& flags, bool with_all_samples) {
  command.add_option("--count-threshold", flags.count_threshold)->check(CLI::Range(0.0, 1.0));
  command.add_option("--noise-threshold", flags.noise_threshold)->check(CLI::Range(0.0, 1.0));
  command.add_option("--adjust", flags.adjustment)->check(CLI::IsMember({"holm", "bh", "none"}));
  if (with_all_samples) {
    command.add_flag("--all-samples", flags.all_samples);
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
  command.add_option("--mde", flags.mde)->transform(fraction);
  command.add_option("--power", flags.power)->check(CLI::Range(0.5, 0.999));
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
                     const std::vector<session::Mode>& accepted) {
  command.add_option("--mode", mode)->transform(mode_names(accepted));
}

void add_max_rounds_option(CLI::App& command, std::size_t& max_rounds) {
  command.add_option("--max-rounds", max_rounds)
      ->check(CLI::Range(std::size_t{2}, analysis::kMostRoundsAllowed));
}

void add_precision_option(CLI::App& command, double& precision) {
  command.add_option("--precision", precision)->check(CLI::Range(1e-6, 1.0));
}

void add_shard_options(CLI::App& command, std::string& shard, std::string* by) {
  command.add_option("--shard", shard);
  if (by) {
    command.add_option("--shard-by", *by);
  }
}

void add_rounds_option(CLI::App& command, std::size_t& rounds, std::size_t least) {
  command.add_option("--rounds", rounds)->check(CLI::Range(least, std::size_t{1000}));
}

void add_processes_option(CLI::App& command, std::size_t& processes, std::size_t least,
                          std::size_t most) {
  command.add_option("--processes", processes)->check(CLI::Range(least, most));
}

void add_param_option(CLI::App& command, std::vector<std::string>& params) {
  command.add_option("--param", params)->check([](const std::string& text) {
    const auto equals = text.find('=');
    return equals == std::string::npos || equals == 0 || equals + 1 == text.size()
               ? std::string("a parameter is NAME=VALUE[,VALUE...], e.g. --param items=1000")
               : std::string();
  });
}

void add_color_option(CLI::App& command, std::string& color) {
  command.add_option("--color", color)->check(CLI::IsMember({"auto", "always", "never"}));
}

}  // namespace benchkit::cli
