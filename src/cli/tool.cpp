// The `benchkit` command: subcommands wired together; each lives in its own *_command.cpp.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "benchkit_build_info.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "model/spelling.hpp"
#include "session/plans.hpp"
#include "store/atomic_file.hpp"
#include "store/redaction.hpp"

namespace benchkit::cli {

int print_or_write(const std::string& text, const std::string& out) {
  if (out.empty()) {
    std::cout << text;
    return 0;
  }
  if (const auto written = store::write_file_atomically(out, text); !written) {
    return report_error(written.error());
  }
  return 0;
}

int render_or_write(report::Format format, const report::Document& document,
                    const std::string& out) {
  if (auto refused = report::format_refusal(format, document)) return report_error(*refused);
  return print_or_write(report::make_reporter(format)->render(document), out);
}

CommandRunner when_parsed(const CLI::App* command, std::function<int()> run) {
  return [command, run = std::move(run)] { return command->parsed() ? run() : -1; };
}

std::vector<std::string> given_flags(const CLI::App& command) {
  std::vector<std::string> given;
  for (const CLI::Option* option : command.parse_order()) given.push_back(option->get_name());
  return given;
}

int run_and_report(model::Result<session::Plan> plan, session::Observer& observer,
                   const std::function<int(session::Outcome&)>& report) {
  if (!plan) return report_error(plan.error());
  session::Outcome outcome = session::run(std::move(*plan), observer);
  return report(outcome);
}

namespace {
std::vector<std::string> trailing;
std::string whole_command_line;
}  // namespace

const std::vector<std::string>& trailing_arguments() {
  return trailing;
}
const std::string& tool_command_line() {
  return whole_command_line;
}

namespace {

using Adder = CommandRunner (*)(CLI::App&);
constexpr std::pair<const char*, Adder> kSubcommands[] = {
    {"report", add_report_command},   {"compare", add_compare_command},
    {"system", add_system_command},   {"run", add_run_command},
    {"noise", add_noise_command},     {"ab", add_ab_command},
    {"bisect", add_bisect_command},   {"history", add_history_command},
    {"data", add_data_command},       {"import", add_import_command},
    {"profile", add_profile_command}, {"merge", add_merge_command},
};

// "unknown subcommand ..." with the one it likely misspells.
model::Error unknown_subcommand(const std::string& asked) {
  std::vector<std::string> names;
  for (const auto& [name, add] : kSubcommands) names.emplace_back(name);
  const auto meant = model::likely_meant(asked, names);
  return model::Error{fmt::format("unknown subcommand \"{}\"{}; run benchkit --help to see the "
                                  "subcommands",
                                  asked, meant ? " (did you mean " + *meant + "?)" : ""),
                      model::ErrorKind::usage};
}

}  // namespace

std::vector<CommandRunner> add_subcommands(CLI::App& app, const std::string& only) {
  // Each subcommand's options are made only when it is the one asked for (`benchkit run ...`
  // builds `run`'s alone): building all eleven was 2.8 million instructions of every start.
  // The top-level --help and a misspelt name need them all.
  std::vector<CommandRunner> runners;
  for (const auto& [name, add] : kSubcommands) {
    if (only.empty() || only == name) runners.push_back(add(app));
  }
  return runners;
}

int run_tool(int argc, char** argv) {
  // Kept in results, the history and reports: without the password of a --store URL.
  whole_command_line = store::recorded_command_line(argc, argv);
  // `run`, `noise`, `ab` and `bisect` take a command after `--` (`compare`, flags for two
  // binaries): its words are not benchkit's options.
  if (argc > 1 && (std::string(argv[1]) == "run" || std::string(argv[1]) == "noise" ||
                   std::string(argv[1]) == "ab" || std::string(argv[1]) == "bisect" ||
                   std::string(argv[1]) == "compare")) {
    for (int i = 2; i < argc; ++i) {
      if (std::string(argv[i]) == "--") {
        trailing.assign(argv + i + 1, argv + argc);
        argc = i;
        break;
      }
    }
  }
  CLI::App app{"", "benchkit"};
  app.set_version_flag("--version", build_info::version);
  app.require_subcommand(1);
  const std::string asked = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
  std::vector<CommandRunner> runners = add_subcommands(app, asked);
  if (runners.empty()) return report_error(unknown_subcommand(asked));
  // The descriptions only serve --help: read only for it.
  if (asks_for_help(argc, argv)) describe(app, "benchkit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    // run writes files with --export-FORMAT, where the other commands take --format and --out.
    const std::string what = error.what();
    const bool run_out = asked == "run" && (what.find("--out") != std::string::npos ||
                                            what.find("--format") != std::string::npos);
    // A Google Benchmark flag before `--` (run, compare): the binary's own flags go after it.
    const bool gbench_flag = what.find("--benchmark_") != std::string::npos;
    const CLI::App& chosen = asked.empty() ? app : *app.get_subcommand(asked);
    return report_error(model::Error{
        fmt::format("{}\n{}{}{}Run benchkit --help to see the subcommands, or benchkit SUBCOMMAND "
                    "--help for one.",
                    what,
                    misspelt_flags(chosen, asked.empty() ? "benchkit" : "benchkit " + asked,
                                   std::vector<std::string>(argv + 1, argv + argc)),
                    run_out ? "benchkit run writes its results with --export-json FILE (or "
                              "--export-markdown, --export-csv, --export-junit); benchkit report "
                              "FILE --format F renders a file in any format.\n"
                            : "",
                    gbench_flag ? "A Google Benchmark binary's own flags go after --: benchkit "
                                  "run ./gb_bench -- --benchmark_min_time=0.1 (and --filter "
                                  "REGEX, before --, selects its benchmarks).\n"
                                : ""),
        model::ErrorKind::usage});
  }
  for (const CommandRunner& runner : runners) {
    const int status = runner();
    if (status >= 0) return status;
  }
  return report_error(model::Error{"no subcommand given; run benchkit --help to see them",
                                   model::ErrorKind::usage});
}

}  // namespace benchkit::cli
