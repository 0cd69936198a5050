// `benchkit profile ./bench NAME --tool TOOL`: one benchmark's measured routine under a
// profiler, summarised (session/profile.hpp, docs/profiling.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "report/flame_graph.hpp"
#include "report/profile_report.hpp"
#include "session/profile.hpp"
#include "session/profile_options.hpp"

namespace benchkit::cli {

using session::ProfileOptions;

CommandRunner add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile",
      "Runs one benchmark's measured routine alone (its set-up and one warm-up iteration first, "
      "outside the profile) for --profile-time under a profiler, and summarises it: callgrind: "
      "the top functions by exclusive and inclusive instructions with file:line, and a flame "
      "graph; massif or heaptrack: the peak heap and the allocation sites behind it, and "
      "allocations per iteration; strace: the system call table of the measured region only; "
      "perf: a flame graph of cpu-clock samples (the software clock). Raw files are kept in "
      "--out-dir (docs/profiling.md). Exit status: 0; 1 the tool or the benchmark failed; 2 "
      "bad input, an unknown benchmark, a tool that is not installed or perf that cannot run.");
  command->add_option("binary", options->binary, "The bench binary")->required();
  command->add_option("name", options->benchmark, "The benchmark's full name (--list prints them)")
      ->required();
  // Parsed here, once: below the command line the tool is a model::ProfileTool.
  command
      ->add_option_function<std::string>(
          "--tool",
          [options](const std::string& name) {
            const auto tool = model::parse_profile_tool(name);
            if (!tool) {
              throw CLI::ValidationError(
                  "--tool", fmt::format("\"{}\" is not a profiler benchkit runs; choose {}", name,
                                        model::profile_tool_choices()));
            }
            options->tool = *tool;
          },
          model::profile_tool_choices())
      ->required();
  command->add_option("--profile-time", options->profile_time,
                      "How long the routine runs under the tool (default 5s; under valgrind the "
                      "routine runs 20-100x slower, so it makes fewer iterations in that time)");
  add_format_choice(*command, options->format, {model::Format::console, model::Format::json});
  add_html_option(*command, options->html,
                  "the profile as an HTML report (flame graph and tables)");
  command->add_option("--out-dir", options->out_dir,
                      "Where the raw profiler files, the flame graph (flame.svg) and the folded "
                      "stacks are kept (default .benchkit/profiles/NAME-TOOL)");
  command->add_option("--top", options->top, "Functions and sites listed (default 15)")
      ->check(CLI::Range(1, 1000));
  add_param_option(*command, options->params);
  return when_parsed(command, [options]() -> int {
    auto request = session::profile_request(*options);
    if (!request) return report_error(request.error());
    request->draw_flame_graph = report::profile_flame_graph;
    auto profile = session::run_profile(*request);
    if (!profile) return report_error(profile.error());
    int status = 0;
    if (!options->html.empty()) {
      status = print_or_write(report::profile_page(*profile, tool_command_line()), options->html);
    }
    std::cout << (options->format == model::Format::json
                      ? report::profile_json(*profile)
                      : report::profile_console(*profile, options->top));
    return status;
  });
}

}  // namespace benchkit::cli
