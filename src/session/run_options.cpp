#include "session/run_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <tuple>

#include "model/duration.hpp"
#include "process/handshake.hpp"
#include "process/spawn.hpp"
#include "session/command_options.hpp"
#include "session/gbench_binary.hpp"
#include "session/result_files.hpp"
#include "session/shard.hpp"
#include "store/baselines.hpp"

namespace benchkit::session {
namespace {

// The --cmd/--name/--env options in the order they were given: a --name or --env applies to
// the --cmd before it (an --env before every --cmd applies to all of them).
struct CommandLineLayout {
  std::vector<std::vector<std::string>> env_per_command;
  std::vector<std::string> env_for_all;
  std::vector<std::string> name_per_command;
  std::string error;
};

CommandLineLayout layout(const RunOptions& o, std::size_t count) {
  CommandLineLayout out;
  out.env_per_command.resize(count);
  out.name_per_command.resize(count);
  std::size_t cmd = 0;
  std::size_t env = 0;
  std::size_t name = 0;
  bool seen_cmd = false;
  for (const std::string& flag : o.flag_order) {
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

bool is_gbench_binary(const RunOptions& o) {
  return o.positional.size() == 1 && o.commands.empty() &&
         o.positional.front().find('/') != std::string::npos &&
         ::access(o.positional.front().c_str(), X_OK) == 0 &&
         links_google_benchmark(o.positional.front());
}

// A bench binary writes one result file (--out): --export-json becomes it; the other exports and
// a second --out after -- are refused with the way to get them (they were once dropped unsaid).
std::optional<model::Error> check_bench_binary_exports(const RunOptions& o) {
  for (const auto& [flag, path, format] :
       {std::tuple{"--export-markdown", o.export_markdown, "markdown"},
        std::tuple{"--export-csv", o.export_csv, "csv"},
        std::tuple{"--export-junit", o.export_junit, "junit"}}) {
    if (path.empty()) continue;
    return usage_error(
        fmt::format("{} is for commands; a bench binary writes one result file: benchkit run {} "
                    "--export-json run.json, then benchkit report run.json --format {} --out {}",
                    flag, o.positional.front(), format, path));
  }
  const bool out_after_dashes =
      std::find(o.trailing.begin(), o.trailing.end(), "--out") != o.trailing.end();
  if (!o.export_json.empty() && out_after_dashes) {
    return usage_error(
        "--export-json and the bench binary's --out name the same file: give one of them");
  }
  return std::nullopt;
}

// The bench binary's command line: in fresh worker processes, with the comparison, baseline and
// history options passed on, then its own flags.
BenchBinaryCommand bench_binary_command(const RunOptions& o) {
  // Counts repeat from one process to the next: one process unless asked for more.
  const std::size_t default_processes = o.mode == Mode::instructions ? 1 : 5;
  std::vector<std::string> argv = {
      o.positional.front(), "--processes",
      std::to_string(o.processes == 0 ? default_processes : o.processes)};
  if (o.mode != Mode::time) argv.insert(argv.end(), {"--mode", to_string(o.mode)});
  auto forward = [&argv](const char* flag, const std::string& value) {
    if (!value.empty()) argv.insert(argv.end(), {flag, value});
  };
  forward("--save-baseline", o.save_baseline);
  forward("--baseline", o.baseline);
  forward("--html", o.html);
  forward("--out", o.export_json);  // the bench binary writes JSON to --out by default
  if (o.fail_on_regression) argv.push_back("--fail-on-regression");
  if (o.record) argv.push_back("--record");
  forward("--filter", o.filter);
  forward("--shard", o.shard);
  forward("--shard-by", o.shard_by);
  forward("--store", o.store);
  forward("--group", o.group);
  if (o.rounds > 0) argv.insert(argv.end(), {"--rounds", std::to_string(o.rounds)});
  if (o.max_rounds > 0) argv.insert(argv.end(), {"--max-rounds", std::to_string(o.max_rounds)});
  forward("--budget", o.budget);
  argv.insert(argv.end(), {"--noise-threshold", fmt::format("{}", o.comparison.noise_threshold)});
  argv.insert(argv.end(), {"--count-threshold", fmt::format("{}", o.comparison.count_threshold)});
  argv.insert(argv.end(), {"--adjust", o.comparison.adjustment});
  argv.insert(argv.end(), o.trailing.begin(), o.trailing.end());
  return BenchBinaryCommand{std::move(argv)};
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
    if (!words) return usage_error("--cmd " + words.error().message);
    spec.argv = std::move(*words);
  }
  return spec;
}

// --save-baseline is checked and --baseline loaded before anything runs.
model::Result<std::optional<RunResult>> baseline_of(const RunOptions& o) {
  if (!o.save_baseline.empty()) {
    if (const auto path = store::baseline_path(o.save_baseline); !path) {
      return usage_error("--save-baseline: " + path.error().message);
    }
  }
  if (o.baseline.empty()) return std::optional<RunResult>{};
  auto loaded = load_file_or_baseline(o.baseline);
  if (!loaded) return usage_error(loaded.error().message);
  return std::optional<RunResult>{std::move(*loaded)};
}

// The options as a request to the commands' session.
model::Result<CommandRequest> command_request(const RunOptions& o) {
  CommandRequest request;
  auto specs = command_specs(o);
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

// What happens to every kind of run once measured.
Steps steps_of(const RunOptions& o) {
  Steps then;
  then.compare = comparison_settings(o.comparison);
  then.save_baseline = o.save_baseline;
  then.record = o.record;
  then.record_store = o.store;
  then.group = o.group;
  then.fail_on_regression = o.fail_on_regression;
  return then;
}

// The plan of `what` (the kinds compared with --baseline), with that baseline loaded now, before
// anything runs, and the steps that follow the measuring.
template <class What>
model::Result<Plan> plan_of(const RunOptions& o, What what, std::size_t commands) {
  auto baseline = baseline_of(o);
  if (!baseline) return baseline.error();
  // --fail-on-regression with nothing to compare would always pass: refused.
  if (o.fail_on_regression && !*baseline && commands < 2) {
    return usage_error(
        "--fail-on-regression needs something to compare: --baseline NAME, or several "
        "commands (compared with the --reference)");
  }
  what.baseline = std::move(*baseline);
  what.command_line = o.command_line;
  return Plan{std::move(what), steps_of(o)};
}

// --mode instructions -- CMD: the whole command counted under callgrind in --runs fresh runs
// (default 3), shown and exported as a result of counts.
model::Result<Plan> counted_plan(const RunOptions& o) {
  CountedCommandPlan what;
  what.request.argv = o.trailing.empty() ? o.positional : o.trailing;
  if (what.request.argv.empty() || !o.commands.empty()) {
    return usage_error(
        "--mode instructions counts one command given after --: benchkit run --mode "
        "instructions -- CMD ARGS (--cmd and rounds of several commands are for --mode time)");
  }
  if (!o.names.empty()) what.request.name = o.names.front();
  what.request.runs = o.runs == 0 ? 3 : o.runs;
  what.seed = o.seed;
  return plan_of(o, std::move(what), 1);
}

// ./gb_binary --baseline NAME, when NAME kept the Google Benchmark binary that made it: both run
// again side by side in paired rounds, as `benchkit compare KEPT ./gb_binary` does, where the
// drift between two runs made at different times cancels (docs/interop.md).
// --timeout SECONDS given with a Google Benchmark binary: how long each of its benchmarks may
// take in a process.
std::optional<std::chrono::milliseconds> gbench_timeout(const RunOptions& o) {
  if (o.timeout <= 0.0) return std::nullopt;
  return std::chrono::milliseconds(std::llround(o.timeout * 1000.0));
}

// --rounds, --max-rounds and --budget given to a run that compares nothing side by side: the
// error says where they apply.
std::optional<model::Error> side_by_side_only(const RunOptions& o) {
  const char* given = o.rounds > 0        ? "--rounds"
                      : o.max_rounds > 0  ? "--max-rounds"
                      : !o.budget.empty() ? "--budget"
                                          : nullptr;
  if (!given) return std::nullopt;
  return model::Error{
      fmt::format("{} sets the rounds of a side-by-side comparison with a baseline: a bench "
                  "binary's --baseline NAME, or a Google Benchmark binary's when NAME kept its "
                  "binary (benchkit run ./gb --save-baseline NAME); here nothing runs side by "
                  "side ({}): leave it out, or use --runs and --time-budget",
                  given, o.baseline.empty() ? "no --baseline" : "the baseline kept no binary"),
      model::ErrorKind::usage};
}

// --together given where no Google Benchmark binary runs beside a kept one (`what`).
model::Error together_refused(const std::string& what) {
  return model::Error{
      fmt::format("--together runs a round's benchmarks of a Google Benchmark binary beside its "
                  "baseline's kept binary (benchkit run ./gb --baseline NAME) in one process a "
                  "build; here {}: leave --together out",
                  what),
      model::ErrorKind::usage};
}

model::Result<Plan> gbench_beside_plan(const RunOptions& o, std::string kept,
                                       std::optional<ShardSpec> shard) {
  if (o.processes != 0) {
    return usage_error(fmt::format(
        "--processes: baseline {} kept its Google Benchmark binary, which runs side by side with "
        "this one in rounds of fresh process pairs; leave --processes out",
        o.baseline));
  }
  const std::size_t rounds = o.rounds > 0 ? o.rounds : BinariesPlan{}.rounds;
  if (o.max_rounds > 0 && o.max_rounds < rounds) {
    return usage_error(fmt::format("--max-rounds {} is below --rounds {}", o.max_rounds, rounds));
  }
  const auto budget = parse_budget(o.budget);
  if (!budget) return budget.error();
  BinariesPlan binaries;
  binaries.base = std::move(kept);
  binaries.candidate = o.positional.front();
  binaries.flags = o.trailing;
  binaries.filter = o.filter;
  binaries.shard = std::move(shard);
  binaries.worker_timeout = gbench_timeout(o);
  binaries.rounds = rounds;
  binaries.budget_ns = *budget;
  binaries.together = o.together;
  Steps then = steps_of(o);
  look_after_every_round(binaries, then, o.max_rounds);
  binaries.command_line = o.command_line;
  if (!o.save_baseline.empty()) then.keep_executable = binaries.candidate;
  return Plan{std::move(binaries), std::move(then)};
}

// ./gb_binary [-- --benchmark_filter=X ...]: a Google Benchmark binary in --processes fresh
// processes (docs/interop.md), merged; --save-baseline keeps the binary with the baseline.
model::Result<Plan> gbench_plan(const RunOptions& o) {
  GbenchRunPlan what;
  what.executable = o.positional.front();
  what.processes = o.processes == 0 ? kGbenchProcesses : o.processes;
  what.flags = o.trailing;
  what.filter = o.filter;
  what.timeout = gbench_timeout(o);
  auto shard = optional_shard(o.shard);
  if (!shard) return shard.error();
  if (!o.baseline.empty()) {
    if (auto kept = store::baseline_executable(o.baseline)) {
      return gbench_beside_plan(o, std::move(*kept), *shard);
    }
  }
  if (auto problem = side_by_side_only(o)) return *problem;
  if (o.together) {
    return together_refused(o.baseline.empty() ? "no --baseline" : "the baseline kept no binary");
  }
  what.shard = *shard;
  auto plan = plan_of(o, std::move(what), 1);
  if (plan && !o.save_baseline.empty()) plan->then.keep_executable = o.positional.front();
  return plan;
}

// -- CMD, or --cmd (several): interleaved in rounds, compared with the reference.
model::Result<Plan> commands_plan(const RunOptions& o) {
  if (o.processes != 0) {
    return usage_error(
        "--processes applies to benchkit bench binaries (which answer --benchkit-info); a "
        "command's runs are each a fresh process already");
  }
  CommandsPlan what;
  auto request = command_request(o);
  if (!request) return request.error();
  auto planned = plan_commands(*request);
  if (!planned) return planned.error();
  auto settings = round_settings(o);
  if (!settings) return settings.error();
  request->settings = std::move(*settings);
  const std::size_t count = planned->measured();
  what.request = std::move(*request);
  what.planned = std::move(*planned);
  return plan_of(o, std::move(what), count);
}

}  // namespace

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
      return usage_error(fmt::format(
          "--pin \"{}\": \"{}\" is not a CPU number or range (write e.g. 0,2-3)", text, item));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

model::Result<std::vector<int>> ignored_exit_codes(const std::string& text) {
  std::vector<int> codes;
  const auto words = process::list_parameter("--ignore-failure", text);
  for (const std::string& code : words ? words->values : std::vector<std::string>{""}) {
    char* end = nullptr;
    const long value = std::strtol(code.c_str(), &end, 10);
    if (!end || *end != '\0' || value < 0 || value > 255) {
      return usage_error(fmt::format(
          "--ignore-failure={}: write exit codes 0-255 separated by commas, or --ignore-failure "
          "alone for every failure",
          text));
    }
    codes.push_back(static_cast<int>(value));
  }
  return codes;
}

model::Result<std::vector<process::Parameter>> parameters(const RunOptions& o) {
  std::vector<process::Parameter> parameters;
  for (const auto& scan : o.scans) {
    // CLI11 hands over what it got: "--parameter-scan n=1" is one word, not three.
    if (scan.size() != 3) {
      return usage_error(
          "--parameter-scan takes three words, NAME MIN MAX: --parameter-scan n 1 10");
    }
    char* end = nullptr;
    const double min = std::strtod(scan[1].c_str(), &end);
    const bool min_ok = end && *end == '\0' && !scan[1].empty();
    const double max = std::strtod(scan[2].c_str(), &end);
    const bool max_ok = end && *end == '\0' && !scan[2].empty();
    if (!min_ok || !max_ok) {
      return usage_error(fmt::format("--parameter-scan {} {} {}: MIN and MAX must be numbers",
                                     scan[0], scan[1], scan[2]));
    }
    auto p = process::scan_parameter(scan[0], min, max, o.step);
    if (!p) return usage_error(p.error().message);
    parameters.push_back(std::move(*p));
  }
  for (const auto& list : o.lists) {
    // "--parameter-list n=1,2" is one word: it read past the end of the list (a crash).
    if (list.size() != 2) {
      return usage_error(
          "--parameter-list takes two words, NAME and VALUES: --parameter-list n 1,2,3");
    }
    auto p = process::list_parameter(list[0], list[1]);
    if (!p) return usage_error(p.error().message);
    parameters.push_back(std::move(*p));
  }
  return parameters;
}

model::Result<std::vector<process::CommandSpec>> command_specs(const RunOptions& o) {
  const bool use_shell = !o.shell.empty();
  if (!o.positional.empty() && !o.trailing.empty()) {
    // A path to nothing: what is wrong is the path, not where it stands.
    if (names_nothing(o.positional.front())) {
      return usage_error(
          fmt::format("{}: no such file; check the path (a bench binary, or a "
                      "Google Benchmark binary, is given by its path)",
                      o.positional.front()));
    }
    return usage_error(fmt::format(
        "{} is not a benchkit bench binary (it does not answer --benchkit-info), so nothing may "
        "come before --: write benchkit run [options] -- {} ...",
        o.positional.front(), o.positional.front()));
  }
  std::vector<process::CommandSpec> specs;
  const std::vector<std::string> direct = !o.trailing.empty() ? o.trailing : o.positional;
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
    return usage_error(
        "no command to run; write benchkit run -- CMD ARGS..., or --cmd \"...\" (repeatable) to "
        "compare several");
  }
  const CommandLineLayout layout_of = layout(o, specs.size());
  if (!layout_of.error.empty()) return usage_error(layout_of.error);
  for (const std::string& e : o.env) {
    if (e.find('=') == std::string::npos || e.front() == '=') {
      return usage_error(fmt::format("--env \"{}\" is not KEY=VALUE", e));
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

model::Result<process::RunRequest> run_template(const RunOptions& o) {
  process::RunRequest run;
  run.input_path = o.input;
  if (!o.input.empty() && ::access(o.input.c_str(), R_OK) != 0) {
    return usage_error(
        fmt::format("--input {}: cannot be read ({})", o.input, std::strerror(errno)));
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
      return usage_error(fmt::format(
          "--output {}: cannot be written (use null, pipe, inherit or a file path)", o.output));
    }
  }
  if (!o.pin.empty()) {
    auto cpus = parse_cpus(o.pin);
    if (!cpus) return cpus.error();
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
    return usage_error(
        fmt::format("--max-runs {} is below --min-runs {}", o.max_runs, settings.min_runs));
  }
  const auto budget = model::parse_duration_ns(o.time_budget);
  if (!budget || *budget <= 0) {
    return usage_error(
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

model::Result<RunTarget> plan_for(const RunOptions& o) {
  // --shard-by history reads --store as --record writes it.
  const bool reads_history = !o.shard.empty() && o.shard_by == "history";
  if (auto problem = check_record_flags(o.record || reads_history, o.store)) return *problem;
  if (!o.positional.empty() && o.commands.empty() && is_bench_binary(o.positional.front())) {
    if (o.positional.size() > 1) {
      return usage_error("a bench binary's own flags go after --: benchkit run " +
                         o.positional.front() + " -- --filter X");
    }
    if (!o.shard.empty() || !o.shard_by.empty()) {
      if (o.shard.empty()) {
        return usage_error("--shard-by applies to a run split into shards: add --shard K/N");
      }
      const auto shard = parse_shard(o.shard, o.shard_by.empty() ? "count" : o.shard_by);
      if (!shard) return shard.error();
    }
    if (auto problem = check_bench_binary_exports(o)) return *problem;
    if (o.together) return together_refused("a benchkit bench binary runs");
    return RunTarget{bench_binary_command(o)};
  }
  if (o.mode == Mode::counters) {
    return usage_error(
        "benchkit run --mode counters: run the bench binary itself with --mode counters (it "
        "reads the CPU's counters around each benchmark's region)");
  }
  const bool gbench = is_gbench_binary(o);
  if (!o.filter.empty() && !gbench) {
    return usage_error(
        "--filter selects the benchmarks of a bench binary or a Google Benchmark binary; "
        "commands are run whole: drop --filter, or name the ones to run with --cmd");
  }
  if ((!o.shard.empty() && !gbench) || !o.shard_by.empty()) {
    return usage_error(
        !o.shard_by.empty()
            ? "--shard-by history weighs a benchkit bench binary's benchmarks by their recorded "
              "durations; a Google Benchmark binary is split by count: drop --shard-by"
            : "--shard splits the benchmarks of a bench binary or a Google Benchmark binary; a "
              "command is one whole program: drop --shard");
  }
  if (!gbench) {
    if (auto problem = side_by_side_only(o)) return *problem;
    if (o.together) return together_refused("commands run");
  }
  model::Result<Plan> plan = o.mode == Mode::instructions ? counted_plan(o)
                             : gbench                     ? gbench_plan(o)
                                                          : commands_plan(o);
  if (!plan) return plan.error();
  return RunTarget{std::move(*plan)};
}

model::Result<int> run_bench_binary(const BenchBinaryCommand& command) {
  const auto exit = process::run_and_wait(command.argv);
  if (!exit) return model::Error{exit.error().message, model::ErrorKind::input};
  if (exit->signal != 0) {
    return model::Error{fmt::format("{} {}", command.argv.front(), exit->describe()),
                        model::ErrorKind::failed};
  }
  return exit->exit_code;
}

}  // namespace benchkit::session
