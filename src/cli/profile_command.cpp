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
  CLI::App* command = app.add_subcommand("profile");
  command->add_option("binary", options->binary)->required();
  command->add_option("name", options->benchmark)->required();
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
          })
      ->required();
  command->add_option("--profile-time", options->profile_time);
  add_format_choice(*command, options->format, {model::Format::console, model::Format::json});
  command->add_option("--html", options->html);
  command->add_option("--out-dir", options->out_dir);
  command->add_option("--top", options->top)->check(CLI::Range(1, 1000));
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
