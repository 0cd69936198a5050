// `benchkit run`: flags -> a session::Plan (whole commands interleaved in rounds, a command
// counted under callgrind, or a Google Benchmark binary in fresh processes) -> the run pipeline
// (session/pipeline.hpp) -> the table, the comparisons and the exports -> the exit status. A
// benchkit bench binary is handed its flags and run instead (it has the pipeline of its own).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "cli/command_progress.hpp"
#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "process/handshake.hpp"
#include "process/plan.hpp"
#include "process/rounds.hpp"
#include "process/spawn.hpp"
#include "report/command_table.hpp"
#include "report/comparison.hpp"
#include "report/reporter.hpp"
#include "session/commands.hpp"
#include "session/gbench_binary.hpp"
#include "session/history.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"
#include "session/result_files.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"

namespace benchkit::cli {
namespace {

struct RunOptions {
  std::vector<std::string> positional;  // before `--`: a bench binary, or a command
  std::vector<std::string> commands;    // --cmd
  std::vector<std::string> names;       // --name
  std::string shell;                    // --shell[=PATH]
  std::size_t warmup = 1;
  std::size_t runs = 0;
  std::size_t min_runs = 10;
  std::size_t max_runs = 0;
  std::string time_budget = "3s";
  double precision = 0.01;
  std::string setup, prepare, conclude, cleanup;
  std::vector<std::vector<std::string>> scans;  // NAME MIN MAX
  double step = 1.0;
  std::vector<std::vector<std::string>> lists;  // NAME a,b,c
  double timeout = 0.0;
  std::string ignore_failure;  // "", "all" or "1,2"
  std::string input;
  std::string output = "null";
  std::string pin;
  std::vector<std::string> env;
  std::string order = "alternate";
  std::uint64_t seed = 0;
  std::string reference;
  std::string export_json, export_markdown, export_csv, export_junit;
  std::string html;  // the results and their comparisons as one HTML page
  bool quiet = false;
  std::string color = "auto";
  ComparisonFlags comparison;
  std::string save_baseline, baseline;
  bool fail_on_regression = false;
  std::size_t processes = 0;
  bool record = false;
  std::string store;
  // Mode::instructions: counted under valgrind (docs/instructions.md).
  session::Mode mode = session::Mode::time;
};

// "0,2-3" -> {0, 2, 3}.
model::Result<std::vector<int>> parse_cpus(const std::string& text) {
  std::vector<int> cpus;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    int first = 0;
    int last = 0;
    char dash = 0;
    char extra = 0;
    const int fields = std::sscanf(item.c_str(), "%d%c%d%c", &first, &dash, &last, &extra);
    if (fields == 1 && first >= 0) {
      cpus.push_back(first);
    } else if (fields == 3 && dash == '-' && first >= 0 && last >= first && last < 4096) {
      for (int c = first; c <= last; ++c) cpus.push_back(c);
    } else {
      return model::Error{fmt::format(
          "--pin \"{}\": \"{}\" is not a CPU number or range (write e.g. 0,2-3)", text, item)};
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

// The --cmd/--name/--env options in the order they were given: a --name or --env applies to
// the --cmd before it (an --env before every --cmd applies to all of them).
struct CommandLineLayout {
  std::vector<std::vector<std::string>> env_per_command;
  std::vector<std::string> env_for_all;
  std::vector<std::string> name_per_command;
  std::string error;
};

CommandLineLayout layout(const CLI::App& command, const RunOptions& o, std::size_t count) {
  CommandLineLayout out;
  out.env_per_command.resize(count);
  out.name_per_command.resize(count);
  std::size_t cmd = 0;
  std::size_t env = 0;
  std::size_t name = 0;
  bool seen_cmd = false;
  for (const CLI::Option* option : command.parse_order()) {
    const std::string& flag = option->get_name();
    if (flag == "--cmd") {
      seen_cmd = true;
      ++cmd;
    } else if (flag == "--env" && env < o.env.size()) {
      if (seen_cmd) {
        out.env_per_command[cmd - 1].push_back(o.env[env++]);
      } else {
        out.env_for_all.push_back(o.env[env++]);
      }
    } else if (flag == "--name" && name < o.names.size()) {
      const std::size_t target = seen_cmd ? cmd - 1 : name;
      if (target >= count) {
        out.error = "more --name than commands: give one --name after each --cmd";
        return out;
      }
      if (!out.name_per_command[target].empty()) {
        out.error = fmt::format("two --name values for command {}", target + 1);
        return out;
      }
      out.name_per_command[target] = o.names[name++];
    }
  }
  return out;
}

// Whether `program` answers the bench-binary handshake (docs/commands.md).
bool is_bench_binary(const std::string& program) {
  if (program.find('/') == std::string::npos || ::access(program.c_str(), X_OK) != 0) return false;
  const auto answer = process::probe_bench_binary(program);
  return answer && answer->benchkit;
}

// `benchkit run ./my_bench`: the binary runs itself in fresh worker processes and merges them.
int run_bench_binary(const RunOptions& o, const std::vector<std::string>& bench_flags) {
  // Counts repeat from one process to the next: one process unless asked for more.
  const std::size_t default_processes = o.mode == session::Mode::instructions ? 1 : 5;
  std::vector<std::string> argv = {
      o.positional.front(), "--processes",
      std::to_string(o.processes == 0 ? default_processes : o.processes)};
  if (o.mode != session::Mode::time) {
    argv.insert(argv.end(), {"--mode", session::to_string(o.mode)});
  }
  auto forward = [&argv](const char* flag, const std::string& value) {
    if (!value.empty()) argv.insert(argv.end(), {flag, value});
  };
  forward("--save-baseline", o.save_baseline);
  forward("--baseline", o.baseline);
  forward("--html", o.html);
  if (o.fail_on_regression) argv.push_back("--fail-on-regression");
  if (o.record) argv.push_back("--record");
  forward("--store", o.store);
  argv.insert(argv.end(), {"--noise-threshold", fmt::format("{}", o.comparison.noise_threshold)});
  argv.insert(argv.end(), {"--count-threshold", fmt::format("{}", o.comparison.count_threshold)});
  argv.insert(argv.end(), {"--adjust", o.comparison.adjustment});
  argv.insert(argv.end(), bench_flags.begin(), bench_flags.end());
  if (!o.quiet) std::cerr << "benchkit run: " << fmt::format("{}", fmt::join(argv, " ")) << "\n";
  const auto exit = process::run_and_wait(argv);
  if (!exit) return report_error(model::Error{exit.error().message, model::ErrorKind::input});
  if (exit->signal != 0) {
    return report_error(model::Error{fmt::format("{} {}", o.positional.front(), exit->describe()),
                                     model::ErrorKind::failed});
  }
  return exit->exit_code;
}

model::Error usage(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::usage};
}

// One command as the runner takes it: `argv` when given, else `text` split into words; through
// the shell, the text itself.
model::Result<process::CommandSpec> command_spec(std::vector<std::string> argv,
                                                 const std::string& text, bool use_shell) {
  process::CommandSpec spec;
  if (use_shell) {
    spec.shell_command = text.empty() ? fmt::format("{}", fmt::join(argv, " ")) : text;
  } else if (!argv.empty()) {
    spec.argv = std::move(argv);
  } else {
    auto words = process::split_words(text);
    if (!words) return usage("--cmd " + words.error().message);
    spec.argv = std::move(*words);
  }
  return spec;
}

// The commands to measure: the one after -- (or without --, the words given), then every --cmd,
// each with its --name and --env.
model::Result<std::vector<process::CommandSpec>> command_specs(const CLI::App& command,
                                                               const RunOptions& o) {
  const std::vector<std::string>& trailing = trailing_arguments();
  const bool use_shell = !o.shell.empty();
  if (!o.positional.empty() && !trailing.empty()) {
    return usage(fmt::format(
        "{} is not a benchkit bench binary (it does not answer --benchkit-info), so nothing may "
        "come before --: write benchkit run [options] -- {} ...",
        o.positional.front(), o.positional.front()));
  }
  std::vector<process::CommandSpec> specs;
  const std::vector<std::string> direct = !trailing.empty() ? trailing : o.positional;
  if (!direct.empty()) {
    auto spec =
        command_spec(direct, use_shell ? fmt::format("{}", fmt::join(direct, " ")) : "", use_shell);
    if (!spec) return spec.error();
    specs.push_back(std::move(*spec));
  }
  for (const std::string& text : o.commands) {
    auto spec = command_spec({}, text, use_shell);
    if (!spec) return spec.error();
    specs.push_back(std::move(*spec));
  }
  if (specs.empty()) {
    return usage(
        "no command to run; write benchkit run -- CMD ARGS..., or --cmd \"...\" (repeatable) to "
        "compare several");
  }
  const CommandLineLayout layout_of = layout(command, o, specs.size());
  if (!layout_of.error.empty()) return usage(layout_of.error);
  for (const std::string& e : o.env) {
    if (e.find('=') == std::string::npos || e.front() == '=') {
      return usage(fmt::format("--env \"{}\" is not KEY=VALUE", e));
    }
  }
  for (std::size_t c = 0; c < specs.size(); ++c) {
    specs[c].name = layout_of.name_per_command[c];
    specs[c].env = layout_of.env_for_all;
    specs[c].env.insert(specs[c].env.end(), layout_of.env_per_command[c].begin(),
                        layout_of.env_per_command[c].end());
  }
  return specs;
}

// --parameter-scan and --parameter-list, in that order.
model::Result<std::vector<process::Parameter>> parameters(const RunOptions& o) {
  std::vector<process::Parameter> parameters;
  for (const auto& scan : o.scans) {
    // CLI11 hands over what it got: "--parameter-scan n=1" is one word, not three.
    if (scan.size() != 3) {
      return usage("--parameter-scan takes three words, NAME MIN MAX: --parameter-scan n 1 10");
    }
    char* end = nullptr;
    const double min = std::strtod(scan[1].c_str(), &end);
    const bool min_ok = end && *end == '\0' && !scan[1].empty();
    const double max = std::strtod(scan[2].c_str(), &end);
    const bool max_ok = end && *end == '\0' && !scan[2].empty();
    if (!min_ok || !max_ok) {
      return usage(fmt::format("--parameter-scan {} {} {}: MIN and MAX must be numbers", scan[0],
                               scan[1], scan[2]));
    }
    auto p = process::scan_parameter(scan[0], min, max, o.step);
    if (!p) return usage(p.error().message);
    parameters.push_back(std::move(*p));
  }
  for (const auto& list : o.lists) {
    // "--parameter-list n=1,2" is one word: it read past the end of the list (a crash).
    if (list.size() != 2) {
      return usage("--parameter-list takes two words, NAME and VALUES: --parameter-list n 1,2,3");
    }
    auto p = process::list_parameter(list[0], list[1]);
    if (!p) return usage(p.error().message);
    parameters.push_back(std::move(*p));
  }
  return parameters;
}

// --ignore-failure=1,2: the exit codes that count as runs.
model::Result<std::vector<int>> ignored_exit_codes(const std::string& text) {
  std::vector<int> codes;
  const auto words = process::list_parameter("--ignore-failure", text);
  for (const std::string& code : words ? words->values : std::vector<std::string>{""}) {
    char* end = nullptr;
    const long value = std::strtol(code.c_str(), &end, 10);
    if (!end || *end != '\0' || value < 0 || value > 255) {
      return usage(fmt::format(
          "--ignore-failure={}: write exit codes 0-255 separated by commas, or --ignore-failure "
          "alone for every failure",
          text));
    }
    codes.push_back(static_cast<int>(value));
  }
  return codes;
}

// --input, --output and --pin: what every measured run gets. An --output file is truncated now.
model::Result<process::RunRequest> run_template(const RunOptions& o) {
  process::RunRequest run;
  run.input_path = o.input;
  if (!o.input.empty() && ::access(o.input.c_str(), R_OK) != 0) {
    return usage(fmt::format("--input {}: cannot be read ({})", o.input, std::strerror(errno)));
  }
  if (o.output == "null") {
    run.output = process::Output::null;
  } else if (o.output == "pipe") {
    run.output = process::Output::pipe;
  } else if (o.output == "inherit") {
    run.output = process::Output::inherit;
  } else {
    run.output = process::Output::file;
    run.output_path = o.output;
    std::ofstream truncate(o.output, std::ios::trunc);
    if (!truncate) {
      return usage(fmt::format(
          "--output {}: cannot be written (use null, pipe, inherit or a file path)", o.output));
    }
  }
  if (!o.pin.empty()) {
    auto cpus = parse_cpus(o.pin);
    if (!cpus) return usage(cpus.error().message);
    run.cpus = std::move(*cpus);
  }
  return run;
}

model::Result<process::RoundSettings> round_settings(const RunOptions& o) {
  process::RoundSettings settings;
  settings.warmup = o.warmup;
  settings.runs = o.runs;
  settings.min_runs = o.runs > 0 ? o.runs : o.min_runs;
  settings.max_runs = o.max_runs;
  if (o.max_runs > 0 && o.max_runs < settings.min_runs) {
    return usage(
        fmt::format("--max-runs {} is below --min-runs {}", o.max_runs, settings.min_runs));
  }
  const auto budget = parse_duration_ns(o.time_budget);
  if (!budget || *budget <= 0) {
    return usage(
        fmt::format("--time-budget \"{}\" is not a positive duration; write e.g. 500ms, 3s or 1m",
                    o.time_budget));
  }
  settings.budget_ns = static_cast<double>(*budget);
  settings.timeout_seconds = o.timeout;
  settings.order = o.order == "random" ? process::Order::random : process::Order::alternate;
  settings.seed = o.seed;
  if (o.ignore_failure == "all") {
    settings.ignore_all_failures = true;
  } else if (!o.ignore_failure.empty()) {
    auto codes = ignored_exit_codes(o.ignore_failure);
    if (!codes) return codes.error();
    settings.ignored_exit_codes = std::move(*codes);
  }
  if (!o.shell.empty()) settings.hook_shell = o.shell;
  auto run = run_template(o);
  if (!run) return run.error();
  settings.run_template = std::move(*run);
  return settings;
}

// --save-baseline is checked and --baseline loaded before anything runs.
model::Result<std::optional<RunResult>> baseline_of(const RunOptions& o) {
  if (!o.save_baseline.empty()) {
    if (const auto path = store::baseline_path(o.save_baseline); !path) {
      return usage("--save-baseline: " + path.error().message);
    }
  }
  if (o.baseline.empty()) return std::optional<RunResult>{};
  auto loaded = session::load_file_or_baseline(o.baseline);
  if (!loaded) return usage(loaded.error().message);
  return std::optional<RunResult>{std::move(*loaded)};
}

// The flags as a request to the session; the error names the flag and the fix.
model::Result<session::CommandRequest> command_request(const CLI::App& command,
                                                       const RunOptions& o) {
  session::CommandRequest request;
  auto specs = command_specs(command, o);
  if (!specs) return specs.error();
  request.commands = std::move(*specs);
  auto scanned = parameters(o);
  if (!scanned) return scanned.error();
  request.parameters = std::move(*scanned);
  request.shell = o.shell;
  request.hooks = {o.setup, o.prepare, o.conclude, o.cleanup};
  request.precision = o.precision;
  request.reference = o.reference;
  request.compare = comparison_settings(o.comparison);
  request.checkpoints = !o.export_json.empty() || !o.export_markdown.empty() ||
                        !o.export_csv.empty() || !o.export_junit.empty();
  return request;
}

// Writes every requested export; says why each that cannot be written could not, and returns
// those errors (kind input: exit status 2).
std::vector<model::Error> write_exports(const RunOptions& o, const RunResult& run) {
  std::vector<model::Error> errors;
  for (const auto& [path, format] : {std::pair{o.export_json, report::Format::json},
                                     std::pair{o.export_markdown, report::Format::markdown},
                                     std::pair{o.export_csv, report::Format::csv},
                                     std::pair{o.export_junit, report::Format::junit}}) {
    if (path.empty()) continue;
    const std::string text = report::make_reporter(format)->render(run);
    if (const auto written = store::write_file_atomically(path, text); !written) {
      errors.push_back(model::Error{written.error().message, model::ErrorKind::input});
      say_error(errors.back());
    }
  }
  return errors;
}

// The kinds of run `benchkit run` makes through the pipeline; each shows its results its way.
enum class RunKind { commands, counted, gbench };

// What happens to every kind of run once measured.
session::Steps steps_of(const RunOptions& o) {
  session::Steps then;
  then.compare = comparison_settings(o.comparison);
  then.save_baseline = o.save_baseline;
  then.record = o.record;
  then.record_store = o.store;
  then.fail_on_regression = o.fail_on_regression;
  return then;
}

// The plan of `what` (the kinds compared with --baseline), with that baseline loaded now, before
// anything runs, and the steps that follow the measuring.
template <class What>
model::Result<session::Plan> plan_of(const RunOptions& o, What what, std::size_t commands) {
  auto baseline = baseline_of(o);
  if (!baseline) return baseline.error();
  // --fail-on-regression with nothing to compare would always pass: refused.
  if (o.fail_on_regression && !*baseline && commands < 2) {
    return usage(
        "--fail-on-regression needs something to compare: --baseline NAME, or several "
        "commands (compared with the --reference)");
  }
  what.baseline = std::move(*baseline);
  what.command_line = tool_command_line();
  return session::Plan{std::move(what), steps_of(o)};
}

// --mode instructions -- CMD: the whole command counted under callgrind in --runs fresh runs
// (default 3), shown and exported as a result of counts.
model::Result<session::Plan> counted_plan(const RunOptions& o) {
  session::CountedCommandPlan what;
  what.request.argv = trailing_arguments().empty() ? o.positional : trailing_arguments();
  if (what.request.argv.empty() || !o.commands.empty()) {
    return usage(
        "--mode instructions counts one command given after --: benchkit run --mode "
        "instructions -- CMD ARGS (--cmd and rounds of several commands are for --mode time)");
  }
  if (!o.names.empty()) what.request.name = o.names.front();
  what.request.runs = o.runs == 0 ? 3 : o.runs;
  what.seed = o.seed;
  return plan_of(o, std::move(what), 1);
}

// ./gb_binary [-- --benchmark_filter=X ...]: a Google Benchmark binary in --processes fresh
// processes (docs/interop.md), merged.
model::Result<session::Plan> gbench_plan(const RunOptions& o) {
  session::GbenchRunPlan what;
  what.executable = o.positional.front();
  what.processes = o.processes == 0 ? 5 : o.processes;
  what.flags = trailing_arguments();
  return plan_of(o, std::move(what), 1);
}

// -- CMD, or --cmd (several): interleaved in rounds, compared with the reference.
model::Result<session::Plan> commands_plan(const CLI::App& command, const RunOptions& o) {
  if (o.processes != 0) {
    return usage(
        "--processes applies to benchkit bench binaries (which answer --benchkit-info); a "
        "command's runs are each a fresh process already");
  }
  session::CommandsPlan what;
  auto request = command_request(command, o);
  if (!request) return request.error();
  auto planned = session::plan_commands(*request);
  if (!planned) return planned.error();
  auto settings = round_settings(o);
  if (!settings) return settings.error();
  request->settings = std::move(*settings);
  const std::size_t count = planned->measured();
  what.request = std::move(*request);
  what.planned = std::move(*planned);
  return plan_of(o, std::move(what), count);
}

bool is_gbench_binary(const RunOptions& o) {
  return o.positional.size() == 1 && o.commands.empty() &&
         o.positional.front().find('/') != std::string::npos &&
         ::access(o.positional.front().c_str(), X_OK) == 0 &&
         session::links_google_benchmark(o.positional.front());
}

// The kind of run the flags ask for, and its plan; the error names the flag and the fix.
model::Result<session::Plan> run_plan(const CLI::App& command, const RunOptions& o, RunKind& kind) {
  if (o.mode == session::Mode::counters) {
    return usage(
        "benchkit run --mode counters: run the bench binary itself with --mode counters (it "
        "reads the CPU's counters around each benchmark's region)");
  }
  kind = o.mode == session::Mode::instructions ? RunKind::counted
         : is_gbench_binary(o)                 ? RunKind::gbench
                                               : RunKind::commands;
  switch (kind) {
    case RunKind::counted:
      return counted_plan(o);
    case RunKind::gbench:
      return gbench_plan(o);
    case RunKind::commands:
      break;
  }
  return commands_plan(command, o);
}

// What is about to run, on stderr.
void say_what_runs(const RunOptions& o, const session::Plan& plan) {
  if (o.quiet) return;
  if (const auto* commands = std::get_if<session::CommandsPlan>(&plan.what)) {
    const std::size_t count = commands->planned.measured();
    std::cerr << fmt::format("benchkit run: {} benchmark{}{}, interleaved in rounds ({} order)\n",
                             count, count == 1 ? "" : "s",
                             commands->planned.shell_probe ? " and the shell's start-up" : "",
                             o.order);
  } else if (const auto* counted = std::get_if<session::CountedCommandPlan>(&plan.what)) {
    const session::CountedCommandRequest& request = counted->request;
    std::cerr << fmt::format(
        "benchkit run: counting {} under valgrind's callgrind, children traced, {} run{}\n",
        fmt::join(request.argv, " "), request.runs, request.runs == 1 ? "" : "s");
  }
}

// What the user sees while the run goes: the commands' progress line and failures
// (CommandProgress), the exports rewritten at each checkpoint, the processes of a Google
// Benchmark binary, and a note on how the runs are made.
class RunProgress final : public session::Observer {
 public:
  explicit RunProgress(const RunOptions& o)
      : o_(o), commands_(!o.quiet && stderr_is_terminal(), [&o](const RunResult& so_far) {
          write_exports(o, so_far);
        }) {}

  void command_run_started(const std::string& name, std::size_t round, bool warmup,
                           double elapsed_seconds) override {
    commands_.run_started(name, round, warmup, elapsed_seconds);
  }
  void benchmark_failed(const std::string& name, const std::string& message) override {
    commands_.failed(name, message);
  }
  void checkpoint(const RunResult& so_far) override { commands_.checkpoint(so_far); }
  void started(std::size_t process, std::size_t processes, std::size_t /*index*/,
               std::size_t /*total*/, const std::string& /*name*/) override {
    if (o_.quiet) return;
    std::cerr << fmt::format("\r\033[K[process {}/{}] Google Benchmark suite", process + 1,
                             processes)
              << std::flush;
    processes_shown_ = true;
  }
  void note(const std::string& text) override {
    if (!o_.quiet) std::cerr << (processes_shown_ ? "\r\033[K" : "") << "note: " << text << "\n";
  }
  void measuring_ended() override {
    commands_.clear();
    if (processes_shown_) std::cerr << "\r\033[K";
  }

 private:
  const RunOptions& o_;
  CommandProgress commands_;
  bool processes_shown_ = false;
};

// The results, as each kind shows them, with how they were measured.
void print_results(const RunOptions& o, RunKind kind, const session::Outcome& outcome,
                   const report::Options& options) {
  const RunResult& run = outcome.run;
  if (kind == RunKind::commands) {
    std::cout << report::render_command_table(run, options);
    const std::size_t rounds = outcome.rounds ? outcome.rounds->count : 0;
    std::cout << fmt::format("{} round{}: {}\n", rounds, rounds == 1 ? "" : "s",
                             outcome.rounds ? outcome.rounds->stop_reason : "");
    return;
  }
  std::cout << report::make_reporter(report::Format::console, options)
                   ->render(report::Document{.results = &run});
  if (kind == RunKind::gbench) {
    const std::size_t processes = o.processes == 0 ? 5 : o.processes;
    std::cout << fmt::format("{} fresh process{} of {}\n", processes, processes == 1 ? "" : "es",
                             o.positional.front());
  }
}

// The commands against the reference, then the run against the baseline.
void print_comparisons(const RunOptions& o, const session::Outcome& outcome,
                       const report::Options& options) {
  if (outcome.rounds && outcome.rounds->against_reference) {
    std::cout << fmt::format("\nagainst {} (paired rounds):\n",
                             report::terminal_safe(outcome.rounds->reference, false))
              << report::render_comparison(*outcome.rounds->against_reference,
                                           report::Format::console, options);
  }
  if (outcome.comparison) {
    std::cout << fmt::format("\nagainst baseline {}:\n", o.baseline)
              << report::render_comparison(*outcome.comparison, report::Format::console, options);
  }
}

// Says, as each kind says it, what failed or stopped the run.
void say_what_failed(const RunOptions& o, RunKind kind, const session::Outcome& outcome) {
  const RunResult& run = outcome.run;
  if (outcome.interrupted) {
    std::cerr << "interrupted: the runs so far are in the table"
              << (o.export_json.empty() ? "" : " and in " + o.export_json) << "\n";
    return;
  }
  std::size_t failed = 0;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.valid()) continue;
    ++failed;
    if (kind == RunKind::gbench) {
      say_error(model::Error{fmt::format("{}: {}", b.name, b.failures.front())});
    } else if (kind == RunKind::counted && b.failure) {
      say_error(model::Error{b.failures.front()});
    }
  }
  if (kind == RunKind::commands && failed > 0) {
    std::cerr << fmt::format("{} benchmark{} failed\n", failed, failed == 1 ? "" : "s");
  }
}

// The exports, the results and comparisons, the HTML page, what was saved and what failed;
// returns the exit status (Outcome::exit_status).
int report_outcome(const RunOptions& o, RunKind kind, session::Outcome& outcome) {
  const std::vector<model::Error> pipeline_errors = outcome.errors;
  if (!outcome.measured) {
    for (const model::Error& error : pipeline_errors) say_error(error);
    return outcome.exit_status();
  }
  const RunResult& run = outcome.run;
  for (model::Error& error : write_exports(o, run)) outcome.errors.push_back(std::move(error));
  const report::Options options{want_color(o.color)};
  if (!o.quiet) {
    print_results(o, kind, outcome, options);
    print_comparisons(o, outcome, options);
  }
  // A --reference that names no command, a baseline or a history that could not be written.
  for (const model::Error& error : pipeline_errors) say_error(error);
  if (!o.html.empty()) {
    // One page: the results, and the comparison that decides (against the baseline, else
    // against the reference command).
    const analysis::Comparison* shown = outcome.comparison ? &*outcome.comparison
                                        : outcome.rounds && outcome.rounds->against_reference
                                            ? &*outcome.rounds->against_reference
                                            : nullptr;
    if (auto error = write_html_file(o.html, {.results = &run, .comparison = shown})) {
      say_error(*error);
      outcome.errors.push_back(model::Error{error->message, model::ErrorKind::input});
    }
  }
  if (outcome.saved && !o.quiet) {
    std::cout << fmt::format("baseline {} saved to {}\n", outcome.saved->name, outcome.saved->path);
  }
  if (outcome.recorded && !o.quiet) say_recorded(*outcome.recorded, outcome.record_store);
  std::cout.flush();
  say_what_failed(o, kind, outcome);
  return outcome.exit_status();
}

// `benchkit run`: a bench binary, `-- CMD ARGS`, or --cmd (several).
int run_commands(const CLI::App& command, const RunOptions& o) {
  if (!o.store.empty() && !o.record) {
    return report_error(usage("--store names the history that --record writes to: add --record"));
  }
  // A history that cannot be opened is found now, not after the run it would have kept.
  if (o.record) {
    if (const auto opened = session::check_history(o.store); !opened) {
      return report_error(opened.error());
    }
  }
  if (!o.positional.empty() && o.commands.empty() && is_bench_binary(o.positional.front())) {
    if (o.positional.size() > 1) {
      return report_error(usage("a bench binary's own flags go after --: benchkit run " +
                                o.positional.front() + " -- --filter X"));
    }
    return run_bench_binary(o, trailing_arguments());
  }
  RunKind kind = RunKind::commands;
  auto plan = run_plan(command, o, kind);
  if (!plan) return report_error(plan.error());
  say_what_runs(o, *plan);
  RunProgress progress(o);
  session::Outcome outcome = session::run(std::move(*plan), progress);
  return report_outcome(o, kind, outcome);
}

}  // namespace

namespace {

// How the commands are run and measured: shell, runs and budget, hooks, parameters, timeout,
// input and output, pinning, environment, order.
void add_measuring_flags(CLI::App& command, RunOptions& o) {
  command.add_flag("--shell{/bin/sh}", o.shell,
                   "Run commands through a shell (--shell=PATH for another); its start-up "
                   "time is measured in the same rounds and subtracted");
  command.add_option("--warmup", o.warmup, "Runs per command before measuring (default 1)");
  command.add_option("--runs", o.runs, "Exactly this many measured runs per command");
  command.add_option("--min-runs", o.min_runs, "At least this many runs (default 10)");
  command.add_option("--max-runs", o.max_runs, "At most this many runs (default: no limit)");
  command.add_option("--time-budget", o.time_budget,
                     "Measuring time per command after --min-runs before stopping even if "
                     "imprecise (default 3s)");
  command
      .add_option("--precision", o.precision,
                  "Stop once the median's 95% CI is within ±this fraction (default 0.01)")
      ->check(CLI::Range(1e-6, 1.0));
  command.add_option("--setup", o.setup, "Shell command run once per benchmark, before it");
  command.add_option("--prepare", o.prepare, "Shell command run before every run (not timed)");
  command.add_option("--conclude", o.conclude, "Shell command run after every run (not timed)");
  command.add_option("--cleanup", o.cleanup, "Shell command run once per benchmark, after it");
  command
      .add_option("--parameter-scan", o.scans,
                  "NAME MIN MAX: run once per value, {NAME} replaced (repeatable: cartesian)")
      ->expected(3)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--parameter-step-size", o.step, "Step of --parameter-scan (default 1)");
  command
      .add_option("--parameter-list", o.lists,
                  "NAME a,b,c: run once per value, {NAME} replaced (repeatable: cartesian)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      .add_option("--timeout", o.timeout,
                  "Seconds per run; then SIGTERM to its process group, SIGKILL 1 s later")
      ->check(CLI::PositiveNumber);
  command.add_flag("--ignore-failure{all}", o.ignore_failure,
                   "Count runs that fail (non-zero exit, signal) instead of stopping; "
                   "--ignore-failure=1,2 for these exit codes only");
  command.add_option("--input", o.input, "File given to every run as standard input");
  command.add_option("--output", o.output,
                     "Standard output of the runs: null (default), pipe (read by benchkit), "
                     "inherit, or a file path");
  command.add_option("--pin", o.pin, "Run on these CPUs only, e.g. 0 or 2-3");
  command
      .add_option("--env", o.env,
                  "KEY=VALUE for the --cmd before it (for all when before every --cmd)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      .add_option("--order", o.order,
                  "Order within a round: alternate (A B, B A, ...; default) or random "
                  "(seeded by --seed)")
      ->check(CLI::IsMember({"alternate", "random"}));
  command.add_option("--seed", o.seed, "Seed of --order random (recorded in the results)");
}

// What is written and compared: the reference, the exports, the baseline, the history.
void add_output_flags(CLI::App& command, RunOptions& o) {
  command.add_option("--reference", o.reference,
                     "The benchmark the others are compared with (default: the first)");
  command.add_option("--export-json", o.export_json,
                     "Write the results (benchkit result format, kind command) to this file; "
                     "rewritten as the rounds go, so a failure loses nothing");
  command.add_option("--export-markdown", o.export_markdown, "Write a Markdown table");
  command.add_option("--export-csv", o.export_csv, "Write a CSV table");
  command.add_option("--export-junit", o.export_junit,
                     "Write JUnit XML (a test case per command, for CI servers)");
  add_html_option(command, o.html);
  command.add_flag("--quiet,-q", o.quiet, "No table and no progress");
  command.add_option("--color", o.color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  add_comparison_flags(command, o.comparison);
  command.add_option("--save-baseline", o.save_baseline, "Save the results as baseline NAME");
  command.add_option("--baseline", o.baseline,
                     "Compare against a baseline name or result file, with verdicts");
  add_fail_on_regression_flag(command, o.fail_on_regression,
                              "against --baseline, or against the --reference");
  command.add_flag("--record", o.record,
                   "Record the results in the history (docs/history.md), for benchkit history "
                   "trend and check");
  add_store_option(command, o.store);
  command
      .add_option("--processes", o.processes,
                  "Bench binaries: fresh worker processes to run the suite in (default 5)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
}

}  // namespace
CommandRunner add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run",
      "Measure whole processes: benchkit run [options] -- CMD ARGS..., or --cmd \"...\" "
      "repeated to compare several (run interleaved in rounds A B, B A, ... so that drift hits "
      "all alike, and compared on the paired rounds). Commands are spawned without a shell "
      "unless --shell. A benchkit bench binary (benchkit run ./my_bench [-- bench flags]) is run "
      "in --processes fresh worker processes and its samples merged; so is a Google Benchmark "
      "binary "
      "(benchkit run ./gb_bench [-- --benchmark_filter=X], docs/interop.md). Exit status: 0; 1 "
      "when a "
      "command failed or, with --fail-on-regression, regressed; 2 for usage errors; 130 when "
      "interrupted.");
  command->add_option("program", o->positional,
                      "A bench binary, or (without --) the command to measure");
  command
      ->add_option("--cmd", o->commands,
                   "A command to measure (repeatable); split into words like a shell would, "
                   "but without one unless --shell")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("--name", o->names,
                   "Name of the --cmd before it (default: the command); may use {PARAM}")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_measuring_flags(*command, *o);
  add_output_flags(*command, *o);
  command
      ->add_option("--mode", o->mode,
                   "time (default); instructions: a bench binary counts its benchmarks under "
                   "valgrind's callgrind, and a command after -- is counted whole, its children "
                   "traced, in --runs runs (default 3; docs/instructions.md)")
      ->transform(
          mode_names({session::Mode::time, session::Mode::instructions, session::Mode::counters}));
  return [command, o]() -> int {
    if (!command->parsed()) return -1;
    return run_commands(*command, *o);
  };
}

}  // namespace benchkit::cli
