// `benchkit profile ./bench NAME --tool TOOL`: one benchmark's measured routine under a
// profiler, summarised (session/profile.hpp, docs/profiling.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "report/html_reporter.hpp"
#include "report/profile_report.hpp"
#include "session/profile.hpp"

namespace benchkit::cli {
namespace {

struct ProfileOptions {
  std::string binary;
  std::string benchmark;
  std::string tool;
  std::string profile_time = "5s";
  std::string format = "console";
  std::string html;
  std::string out_dir;
  std::size_t top = 15;
  std::vector<std::string> params;
};

}  // namespace

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
  command->add_option("--tool", options->tool, "callgrind, massif, heaptrack, strace or perf")
      ->required()
      ->check(CLI::IsMember(session::profile_tools()));
  command->add_option("--profile-time", options->profile_time,
                      "How long the routine runs under the tool (default 5s; under valgrind the "
                      "routine runs 20-100x slower, so it makes fewer iterations in that time)");
  command->add_option("--format", options->format, "console (default) or json")
      ->check(CLI::IsMember({"console", "json"}));
  command->add_option("--html", options->html,
                      "Also write the profile as an HTML report to this file (flame graph and "
                      "tables)");
  command->add_option("--out-dir", options->out_dir,
                      "Where the raw profiler files, the flame graph (flame.svg) and the folded "
                      "stacks are kept (default .benchkit/profiles/NAME-TOOL)");
  command->add_option("--top", options->top, "Functions and sites listed (default 15)")
      ->check(CLI::Range(1, 1000));
  command->add_option("--param", options->params,
                      "NAME=V1,V2: the bench binary's parameter values (repeatable), as its own "
                      "--param");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    const auto duration = parse_duration_ns(options->profile_time);
    if (!duration || *duration <= 0) {
      return report_error(model::Error{
          fmt::format("--profile-time \"{}\" is not a positive duration; write e.g. 5s or 500ms",
                      options->profile_time),
          model::ErrorKind::usage});
    }
    session::ProfileRequest request;
    request.binary = options->binary;
    request.benchmark = options->benchmark;
    request.tool = options->tool;
    request.duration_ns = *duration;
    request.out_dir = options->out_dir;
    request.top = options->top;
    for (const std::string& param : options->params) {
      request.bench_flags.insert(request.bench_flags.end(), {"--param", param});
    }
    const auto profile = session::run_profile(request);
    if (!profile) return report_error(profile.error());
    int status = 0;
    if (!options->html.empty()) {
      RunResult run;
      run.context.command_line = tool_command_line();
      const std::string page = report::html::render_page(report::Document{.results = &run},
                                                         report::profile_sections(*profile));
      status = print_or_write(page, options->html);
    }
    std::cout << (options->format == "json" ? report::profile_json(*profile)
                                            : report::profile_console(*profile, options->top));
    return status;
  };
}

}  // namespace benchkit::cli
