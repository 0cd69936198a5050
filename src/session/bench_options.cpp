#include "session/bench_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "analysis/compare.hpp"
#include "clock/callgrind.hpp"
#include "clock/perf_counters.hpp"
#include "process/spawn.hpp"
#include "session/history.hpp"
#include "session/result_files.hpp"
#include "session/shard.hpp"
#include "session/skips.hpp"
#include "store/baselines.hpp"
#include "store/open_store.hpp"
#include "vcs/git.hpp"

namespace benchkit::session {
namespace {

// One --param value: an integer or a number when it reads as one, text otherwise.
ParamValue parse_param_value(const std::string& text) {
  std::int64_t integer = 0;
  const char* end = text.data() + text.size();
  if (auto [at, error] = std::from_chars(text.data(), end, integer);
      error == std::errc() && at == end) {
    return ParamValue(integer);
  }
  double number = 0.0;
  if (auto [at, error] = std::from_chars(text.data(), end, number);
      error == std::errc() && at == end) {
    return ParamValue(number);
  }
  return ParamValue(text);
}

// --mode counters needs the CPU's counters (not to --list the benchmarks).
std::optional<model::Error> check_counters(Mode mode, bool list) {
  if (mode != Mode::counters || list) return std::nullopt;
  const auto counters = clock::open_hardware_counters();
  if (counters->available()) return std::nullopt;
  return usage_error(
      fmt::format("--mode counters reads instructions:u from the CPU's counters, and this "
                  "machine has none ({}). Count them under simulation with --mode "
                  "instructions instead (valgrind: the same count in every run, about 50x "
                  "slower)",
                  counters->unavailable_reason()));
}

// The registered benchmarks the selection matches; the error says why none can run.
model::Result<std::vector<measure::Instance>> select_registered(
    const process::WorkerInvocation& selection) {
  std::vector<measure::Instance> chosen;
  try {
    chosen = select(measure::expand_registered(parse_param_overrides(selection.params)),
                    selection.filter, selection.exact);
  } catch (const std::invalid_argument& error) {
    return usage_error(error.what());
  }
  if (!chosen.empty() || selection.list) return chosen;
  if (measure::expand_registered().empty()) {
    return usage_error(
        "this binary registers no benchmarks; add BENCHKIT(function) next to a function taking "
        "benchkit::Bencher&, or BENCHKIT_SCENARIO(function) next to one taking "
        "benchkit::Scenario&");
  }
  return usage_error(fmt::format(
      "no benchmark matches --filter \"{}\"; run with --list to see the names", selection.filter));
}

// Scenarios are whole workloads of millions of items, timed phase by phase: under callgrind
// they would take minutes each and their times would be the simulation's. A counted run and its
// workers leave them out alike (the workers' benchmark numbers must match). Returns how many.
model::Result<std::size_t> leave_out_scenarios(Mode mode, bool list,
                                               std::vector<measure::Instance>& chosen) {
  if (mode != Mode::instructions || list) return std::size_t{0};
  const auto left_out = static_cast<std::size_t>(std::erase_if(
      chosen, [](const measure::Instance& instance) { return instance.is_scenario(); }));
  if (chosen.empty()) {
    return usage_error(
        "--mode instructions counts micro benchmarks, and these are all "
        "scenarios: run them with --mode time");
  }
  return left_out;
}

// The baseline to compare with, read before the run so that a missing one costs nothing.
model::Result<std::optional<RunResult>> load_compared(const BenchOptions& o) {
  if (o.baseline.empty() && o.baseline_file.empty()) return std::optional<RunResult>();
  auto loaded = o.baseline.empty() ? load_result_file(o.baseline_file) : load_baseline(o.baseline);
  if (!loaded) return loaded.error();
  return std::optional<RunResult>(std::move(*loaded));
}

bool given(const BenchOptions& o, const std::string& flag) {
  return std::find(o.given.begin(), o.given.end(), flag) != o.given.end();
}

// A bad --out or --html path is found now, not after a long run whose results it would lose.
std::optional<model::Error> check_output_folders(const BenchOptions& o) {
  for (const auto& [flag, path] : {std::pair{"--out", &o.out}, std::pair{"--html", &o.html}}) {
    if (path->empty()) continue;
    const std::filesystem::path out(*path);
    const std::filesystem::path folder =
        out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || access(folder.c_str(), W_OK) != 0) {
      return model::Error{fmt::format(
          "cannot write {} {}: folder {} {}", flag, *path, folder.string(),
          error ? "cannot be created (" + error.message() + ")" : std::string("is not writable"))};
    }
  }
  return std::nullopt;
}

}  // namespace

std::size_t max_rounds_of(const BenchOptions& o) {
  return o.max_rounds > 0 ? o.max_rounds : kMaxRoundsFactor * o.rounds;
}

void default_processes(BenchOptions& o) {
  if (o.processes != 0) return;
  const bool verdict_run = !o.save_baseline.empty() || !o.baseline.empty() ||
                           !o.baseline_file.empty() || o.fail_on_regression;
  o.processes = o.mode == Mode::instructions ? 1 : verdict_run ? 3 : 1;
}

model::Result<RunSettings> run_settings(BenchOptions& o) {
  process::WorkerInvocation invocation;
  for (const auto& [text, name, target] :
       {std::tuple{&o.time_budget, "--time-budget", &invocation.time_budget_ns},
        std::tuple{&o.warm_up, "--warm-up", &invocation.warm_up_ns},
        std::tuple{&o.timeout, "--timeout", &invocation.timeout_ns}}) {
    std::int64_t ns = 0;
    if (auto error = duration_flag(*text, name, ns)) return *error;
    if (!text->empty()) *target = ns;
  }
  if (auto error = duration_flag(o.worker_timeout, "--worker-timeout", o.worker_timeout_ns)) {
    return *error;
  }
  const auto budget = parse_budget(o.budget);
  if (!budget) return budget.error();
  o.budget_ns = *budget;
  invocation.seed = o.seed;
  invocation.no_counters = o.no_counters;
  invocation.no_machine_warnings = o.no_machine_warnings;
  invocation.tags = o.tags;
  invocation.test = o.test;
  invocation.mode = o.mode;
  invocation.repetitions = o.repetitions;
  invocation.sample_size = o.sample_size;
  invocation.precision = o.precision;
  return run_settings(invocation);
}

RunSettings run_settings(const process::WorkerInvocation& invocation) {
  RunSettings settings;
  settings.seed = invocation.seed.value_or(0);
  settings.counters = !invocation.no_counters;
  settings.machine_warnings = !invocation.no_machine_warnings;
  for (const std::string& tag : invocation.tags) {
    const auto equals = tag.find('=');
    settings.tags[tag.substr(0, equals)] = tag.substr(equals + 1);
  }
  settings.engine.test_mode = invocation.test;
  settings.callgrind_dumps = invocation.callgrind_dumps;
  if (invocation.mode == Mode::instructions) {
    // The machine does not change a count: no warnings about it, no hardware counters.
    settings.machine_warnings = false;
    settings.counters = false;
    if (invocation.sample_size > 0) settings.engine.counted_samples = invocation.sample_size;
  }
  settings.repetitions = std::max<std::size_t>(1, invocation.repetitions);
  if (invocation.sample_size > 0) settings.engine.choose_sample_size(invocation.sample_size);
  if (invocation.precision > 0) settings.engine.precision = invocation.precision;
  if (invocation.time_budget_ns) settings.engine.time_budget_ns = *invocation.time_budget_ns;
  if (invocation.warm_up_ns) settings.engine.choose_warm_up(*invocation.warm_up_ns);
  settings.timeout_ns = invocation.timeout_ns.value_or(kDefaultTimeoutNs);
  return settings;
}

measure::ParamOverrides parse_param_overrides(const std::vector<std::string>& params) {
  measure::ParamOverrides overrides;
  for (const std::string& param : params) {
    const auto equals = param.find('=');
    std::vector<ParamValue>& values = overrides[param.substr(0, equals)];
    values.clear();
    std::size_t start = equals + 1;
    while (start <= param.size()) {
      const auto comma = std::min(param.find(',', start), param.size());
      if (comma > start) values.push_back(parse_param_value(param.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  return overrides;
}

process::WorkerInvocation selection_of(const BenchOptions& o) {
  process::WorkerInvocation selection;
  selection.filter = o.filter;
  selection.exact = o.exact;
  selection.params = o.params;
  selection.skip_tags = o.skip_tags;
  selection.list = o.list;
  return selection;
}

process::WorkerInvocation shared_worker_invocation(const BenchOptions& o,
                                                   const RunSettings& settings) {
  process::WorkerInvocation invocation = selection_of(o);
  invocation.sample_size = o.sample_size;
  // Only the user's --warm-up: without it a side-by-side worker may end its warm-up early
  // (turns_plan), and every other worker warms up for the engine's default.
  if (!o.warm_up.empty()) invocation.warm_up_ns = settings.engine.warm_up_ns;
  invocation.seed = settings.seed;
  invocation.repetitions = o.repetitions;
  invocation.no_counters = o.no_counters;
  invocation.no_machine_warnings = o.no_machine_warnings;
  invocation.tags = o.tags;
  return invocation;
}

std::optional<model::Error> check_mode(const BenchOptions& o) {
  if (o.mode == Mode::instructions && clock::running_on_valgrind()) {
    return usage_error(
        "--mode instructions starts valgrind itself: run this binary without valgrind in "
        "front of it (or drop --mode instructions to profile it under your own valgrind)");
  }
  return check_counters(o.mode, o.list);
}

std::optional<model::Error> check_worker_mode(const process::WorkerInvocation& invocation) {
  using Role = process::WorkerInvocation::Role;
  const Mode mode = invocation.mode.value_or(Mode::time);
  if (mode == Mode::instructions) {
    if (!clock::running_on_valgrind() || invocation.callgrind_dumps.empty()) {
      return usage_error(
          "a counted worker runs under valgrind --tool=callgrind with --callgrind-dumps: start "
          "it through --mode instructions, not by hand");
    }
    if (invocation.role() == Role::turns) {
      return usage_error("--mode instructions does not take turns with another build");
    }
  }
  if (invocation.role() == Role::counted && invocation.stream_fd < 0) {
    return usage_error(
        "a counted worker writes its results on --worker-stream: start it through --mode "
        "instructions, not by hand");
  }
  return check_counters(mode, invocation.list);
}

model::Result<Chosen> choose(const process::WorkerInvocation& selection, Mode mode) {
  auto chosen = select_registered(selection);
  if (!chosen) return chosen.error();
  Chosen all;
  all.chosen = std::move(*chosen);
  all.skipped = take_skipped(all.chosen, selection.skip_tags);
  const auto left_out = leave_out_scenarios(mode, selection.list, all.chosen);
  if (!left_out) return left_out.error();
  all.scenarios_left_out = *left_out;
  if (selection.shard_positions) {
    std::vector<measure::Instance> part;
    for (const std::size_t position : *selection.shard_positions) {
      if (position >= all.chosen.size()) {
        return usage_error(fmt::format(
            "--worker-shard {}: this binary chose only {} benchmarks; a driver gives "
            "--worker-shard from the same selection (start it through --shard, not by hand)",
            position, all.chosen.size()));
      }
      part.push_back(all.chosen[position]);
    }
    all.chosen = std::move(part);
    all.shard_positions = selection.shard_positions;
  }
  return all;
}

model::Result<Chosen> choose_for_run(const BenchOptions& o) {
  std::optional<ShardSpec> spec;
  if (!o.shard.empty() || given(o, "--shard-by")) {
    if (o.shard.empty()) {
      return usage_error("--shard-by applies to a run split into shards: add --shard K/N");
    }
    auto parsed = parse_shard(o.shard, o.shard_by);
    if (!parsed) return parsed.error();
    spec = *parsed;
  }
  auto chosen = choose(selection_of(o), o.mode);
  if (!chosen || !spec) return chosen;
  std::vector<std::string> names;
  for (const measure::Instance& instance : chosen->chosen) names.push_back(instance.name);
  std::map<std::string, double> durations;
  if (spec->by == ShardBy::history) {
    auto store = store::open_history(store::history_location(o.store));
    if (!store) return store.error();
    auto recorded = recorded_durations(**store, names, vcs::git_facts(".").commit);
    if (!recorded) return recorded.error();
    durations = std::move(*recorded);
  }
  const std::vector<std::size_t> positions = shard_positions(names, *spec, durations);
  std::vector<measure::Instance> part;
  for (const std::size_t position : positions) part.push_back(chosen->chosen[position]);
  chosen->chosen = std::move(part);
  if (spec->index != 1) chosen->skipped.clear();
  chosen->shard = shard_record(*spec, positions.size(), names.size());
  chosen->shard_positions = positions;
  return chosen;
}

std::optional<model::Error> check_before_running(const BenchOptions& o) {
  if (o.max_rounds > 0 && o.max_rounds < o.rounds) {
    return usage_error(fmt::format(
        "--max-rounds {} is below --rounds {}: give at least as many (equal: no rounds beyond "
        "--rounds)",
        o.max_rounds, o.rounds));
  }
  if (!o.save_baseline.empty()) {
    if (const auto path = store::baseline_path(o.save_baseline); !path) {
      return usage_error("--save-baseline: " + path.error().message);
    }
  }
  if (o.fail_on_regression && o.baseline.empty() && o.baseline_file.empty()) {
    return usage_error(
        "--fail-on-regression needs --baseline NAME or --baseline-file PATH to compare against");
  }
  for (const char* side_by_side_flag :
       {"--rounds", "--max-rounds", "--budget", "--worker-timeout", "--saved-samples"}) {
    if (given(o, side_by_side_flag) && o.baseline.empty()) {
      return usage_error(
          fmt::format("{} applies to comparisons against a saved baseline: add --baseline NAME",
                      side_by_side_flag));
    }
  }
  // --shard-by history reads --store as --record writes it.
  const bool reads_history = !o.shard.empty() && o.shard_by == "history";
  if (auto problem = check_record_flags(o.record || reads_history, o.store)) return problem;
  return check_output_folders(o);
}

model::Result<Plan> plan_for(const BenchOptions& o, RunSettings settings, Chosen chosen) {
  if (auto problem = check_before_running(o)) return *problem;
  auto baseline = load_compared(o);
  if (!baseline) return baseline.error();
  settings.command_line = o.command_line;
  BenchPlan what;
  what.mode = o.mode;
  what.worker = shared_worker_invocation(o, settings);
  what.settings = std::move(settings);
  what.chosen = std::move(chosen.chosen);
  what.skipped = std::move(chosen.skipped);
  what.scenarios_left_out = chosen.scenarios_left_out;
  what.shard = chosen.shard;
  what.worker.shard_positions = chosen.shard_positions;
  what.test = o.test;
  what.in_process = o.in_process;
  what.processes = o.processes;
  what.baseline = std::move(*baseline);
  what.baseline_name = o.baseline;
  what.saved_samples = o.saved_samples;
  what.rounds = o.rounds;
  what.max_rounds = max_rounds_of(o);
  what.worker_timeout_ns = o.worker_timeout_ns;
  what.budget_ns = o.budget_ns;
  what.side_by_side_budget_ns =
      o.time_budget.empty() ? kSideBySideBudgetNs : what.settings.engine.time_budget_ns;
  what.compare = comparison_settings(o.comparison);
  // Side by side, the rounds are looked at as they come: each look is read at its level of the
  // sequential design (analysis::sequential_levels), the looks and the verdicts shown alike.
  if (!o.baseline.empty() && !o.saved_samples) {
    what.compare.sequential_alpha =
        analysis::sequential_levels(what.rounds, what.max_rounds, what.compare.alpha);
  }
  what.counted_order = o.counted_order;
  what.keep_env = o.keep_env;
  Steps then;
  then.compare = what.compare;
  then.save_baseline = o.save_baseline;
  // Kept so that --baseline can run it again beside a new build.
  if (!o.save_baseline.empty()) then.keep_executable = process::self_executable();
  then.record = o.record;
  then.record_store = o.store;
  then.group = o.group;
  then.fail_on_regression = o.fail_on_regression;
  return Plan{std::move(what), std::move(then)};
}

Plan turns_plan(const process::WorkerInvocation& invocation, RunSettings settings, Chosen chosen,
                measure::SampleGate& gate) {
  settings.gate = &gate;
  settings.measuring_only = true;
  // The other side waits while this one warms up: stop once the code proves steady, unless the
  // user chose a warm-up (measure::Settings::warm_up_until_steady).
  settings.engine.warm_up_until_steady = !invocation.warm_up_ns.has_value();
  BenchPlan what;
  what.mode = invocation.mode.value_or(Mode::time);
  what.settings = std::move(settings);
  what.chosen = std::move(chosen.chosen);
  what.skipped = std::move(chosen.skipped);
  what.scenarios_left_out = chosen.scenarios_left_out;
  what.test = invocation.test;
  what.in_process = true;
  return Plan{std::move(what), {}};
}

std::optional<model::Error> check_profiled(std::optional<std::int64_t> duration_ns,
                                           const std::string& shown,
                                           const std::vector<measure::Instance>& chosen) {
  if (!duration_ns || *duration_ns <= 0) {
    return usage_error(fmt::format(
        "--profile-time \"{}\" is not a positive duration; write e.g. 5s or 500ms", shown));
  }
  if (chosen.size() == 1) return std::nullopt;
  std::string names;
  for (std::size_t i = 0; i < chosen.size() && i < 5; ++i) {
    names += (i ? ", " : "") + chosen[i].name;
  }
  return usage_error(
      fmt::format("--profile-time runs one benchmark, and {} match ({}{}): choose one with "
                  "--filter NAME --exact",
                  chosen.size(), names, chosen.size() > 5 ? ", ..." : ""));
}

std::string gbench_flag_hint(const std::vector<std::string>& words) {
  const auto gbench = std::find_if(words.begin(), words.end(), [](const std::string& word) {
    return word.starts_with("--benchmark_");
  });
  if (gbench == words.end()) return {};
  const std::string flag = gbench->substr(0, gbench->find('='));
  static const std::pair<const char*, const char*> kForms[] = {
      {"--benchmark_filter", "--filter REGEX"},
      {"--benchmark_list_tests", "--list"},
      {"--benchmark_out", "--out FILE"},
      {"--benchmark_format", "--format FORMAT"},
      {"--benchmark_out_format", "--format FORMAT"},
      {"--benchmark_min_time", "--time-budget DURATION"},
      {"--benchmark_repetitions", "--processes N (fresh processes)"},
  };
  std::string form;
  for (const auto& [google, ours] : kForms) {
    if (flag == google) form = fmt::format(" (here: {})", ours);
  }
  return fmt::format(
      "\n{} is Google Benchmark's flag; this is a benchkit bench binary{}: "
      "docs/porting-from-google-benchmark.md gives each Google Benchmark flag's benchkit form",
      flag, form);
}

}  // namespace benchkit::session
