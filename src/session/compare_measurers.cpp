// The measurers of `benchkit compare OLD NEW`: two executables run side by side in paired rounds
// (BinariesPlan), or two result files or baselines read (FilesPlan).
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <regex>
#include <set>

#include "analysis/compare.hpp"
#include "clock/phase_trace.hpp"
#include "process/capture.hpp"
#include "process/handshake.hpp"
#include "session/bench_options.hpp"
#include "session/gbench_binary.hpp"
#include "session/name_filter.hpp"
#include "session/plans.hpp"
#include "session/result_files.hpp"
#include "session/side_by_side.hpp"
#include "session/suite_budget.hpp"

namespace benchkit::session {

namespace {

// The names `binary --list` prints (a benchkit bench binary).
model::Result<std::vector<std::string>> benchkit_names(const std::string& binary) {
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(30);
  const auto listed = process::run_captured({binary, "--list"}, options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{fmt::format("{} --list could not list its benchmarks ({})", binary,
                                    listed ? listed->exit.describe() : listed.error().message),
                        model::ErrorKind::failed};
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < listed->out.size()) {
    std::size_t end = listed->out.find('\n', start);
    if (end == std::string::npos) end = listed->out.size();
    if (end > start) names.push_back(listed->out.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

// The benchmarks of `base` that `candidate` has too and whose name `filter` matches (searched
// anywhere in the name; empty matches all), in base's order.
std::vector<std::string> common(const std::vector<std::string>& base,
                                const std::vector<std::string>& candidate,
                                const std::optional<NameFilter>& filter) {
  const std::set<std::string> theirs(candidate.begin(), candidate.end());
  std::vector<std::string> both;
  for (const std::string& name : base) {
    if (theirs.count(name) && (!filter || filter->keeps(name))) both.push_back(name);
  }
  return both;
}

// One executable given to compare: which kind of bench binary it is, and its benchmarks.
struct Probed {
  bool benchkit = false;  // else Google Benchmark
  std::vector<std::string> names;
  double start_s = 0.0;  // a Google Benchmark binary: how long a process took to start
};

model::Result<Probed> probe_binary(const std::string& path, const std::vector<std::string>& flags) {
  const auto answer = process::probe_bench_binary(path);
  if (answer && answer->benchkit && answer->turns) {
    auto names = benchkit_names(path);
    if (!names) return names.error();
    return Probed{true, std::move(*names)};
  }
  std::string why = "it does not answer --benchkit-info and does not link Google Benchmark";
  if (links_google_benchmark(path)) {
    double start_s = 0.0;
    auto listed = list_gbench_benchmarks(path, flags, &start_s);
    if (listed) return Probed{false, std::move(*listed), start_s};
    // A Google Benchmark binary refused by the user's flags (a filter matching nothing, a flag
    // benchkit gives itself): said as it is.
    if (listed.error().kind == model::ErrorKind::usage) return listed.error();
    // It links Google Benchmark but could not list its benchmarks: that is what to mend, not
    // which kind of binary it is.
    return model::Error{
        fmt::format("{} links Google Benchmark, but listing its benchmarks failed: {}", path,
                    listed.error().message),
        model::ErrorKind::usage};
  }
  return model::Error{
      fmt::format("{} is an executable but neither a benchkit bench binary nor a Google "
                  "Benchmark binary ({}): give compare two result files, two baseline names, or "
                  "two bench binaries built with benchkit::main or Google Benchmark",
                  path, why),
      model::ErrorKind::usage};
}

// Each benchkit worker is told which benchmark to run with --filter/--exact: a second one from
// the user would make it refuse its command line.
std::optional<model::Error> check_worker_flags(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags) {
    if (flag == "--filter" || flag.starts_with("--filter=") || flag == "--exact") {
      return model::Error{fmt::format("{} after --: flags after -- go to every worker of "
                                      "both builds; choose benchmarks with compare's own "
                                      "--filter REGEX, before --",
                                      flag),
                          model::ErrorKind::usage};
    }
  }
  return std::nullopt;
}

// The benchmarks both binaries have that the plan's --filter matches; the error says why none.
model::Result<std::vector<std::string>> shared_benchmarks(const BinariesPlan& plan,
                                                          const Probed& base,
                                                          const Probed& candidate) {
  const auto parsed = parse_name_filter(plan.filter, "--filter");
  if (!parsed) return parsed.error();
  const std::optional<NameFilter>& filter = *parsed;
  std::vector<std::string> benchmarks = common(base.names, candidate.names, filter);
  if (benchmarks.empty()) {
    return model::Error{
        fmt::format("{} and {} have no benchmark in common{}: list them with --list (benchkit) "
                    "or --benchmark_list_tests (Google Benchmark)",
                    plan.base, plan.candidate,
                    filter ? fmt::format(" that --filter \"{}\" matches", plan.filter) : ""),
        model::ErrorKind::usage};
  }
  return benchmarks;
}

// The fields both kinds of side-by-side plan share, filled in one place.
template <class Pairs>
Pairs paired(const BinariesPlan& plan, std::vector<std::string> benchmarks, Observer& observer) {
  Pairs pairs;
  pairs.baseline_executable = plan.base;
  pairs.candidate_executable = plan.candidate;
  pairs.benchmarks = std::move(benchmarks);
  pairs.rounds = plan.rounds;
  pairs.max_rounds = plan.max_rounds;
  pairs.progress = [&observer](std::size_t round, std::size_t planned, std::size_t index,
                               std::size_t count, const std::string& name) {
    observer.round_started(round, planned, index, count, name, false);
  };
  return pairs;
}

class BinariesMeasurer final : public Measurer {
 public:
  explicit BinariesMeasurer(BinariesPlan plan) : plan_(std::move(plan)) {}

  model::Result<Measured> measure(Observer& observer) override {
    clock::TracedPhase probing("probe");
    const auto base = probe_binary(plan_.base, plan_.flags);
    if (!base) return base.error();
    const auto candidate = probe_binary(plan_.candidate, plan_.flags);
    if (!candidate) return candidate.error();
    probing.end();
    if (base->benchkit != candidate->benchkit) {
      return model::Error{
          fmt::format("{} is a {} binary and {} a {} one: compare runs two builds of one suite; "
                      "give two binaries of the same kind",
                      plan_.base, base->benchkit ? "benchkit" : "Google Benchmark", plan_.candidate,
                      candidate->benchkit ? "benchkit" : "Google Benchmark"),
          model::ErrorKind::usage};
    }
    if (base->benchkit) {
      if (auto problem = check_worker_flags(plan_.flags)) return *problem;
      if (plan_.together) {
        return model::Error{
            fmt::format("--together runs a round's benchmarks of Google Benchmark binaries in one "
                        "process a build; {} and {} are benchkit bench binaries, whose workers "
                        "run one benchmark each, taking samples in turns with the other build's "
                        "(leave --together out)",
                        plan_.base, plan_.candidate),
            model::ErrorKind::usage};
      }
    }
    auto benchmarks = shared_benchmarks(plan_, *base, *candidate);
    if (!benchmarks) return benchmarks.error();
    std::optional<Shard> shard;
    if (plan_.shard) {
      const std::size_t selected = benchmarks->size();
      *benchmarks = names_in_shard(*benchmarks, *plan_.shard);
      shard = shard_record(*plan_.shard, benchmarks->size(), selected);
      observer.note(describe_shard(*shard));
      suite_size_ = selected;
    }
    Measured measured;
    measured.measured_together = true;
    SuiteBudget budget(plan_.budget_ns, *process_clock().clock);
    budget_ = &budget;
    auto runs = benchmarks->empty() ? model::Result<SideBySideRuns>(SideBySideRuns{})
                : base->benchkit    ? run_benchkit(std::move(*benchmarks), observer, measured)
                                    : run_gbench(std::move(*benchmarks), observer, measured,
                                                 {base->start_s, candidate->start_s});
    if (!runs) return runs.error();
    budget.ended(*runs);
    measured.round_cost_ns = budget.round_cost_ns();
    if (plan_.budget_ns > 0) measured.method_note += "; " + budget.summary();
    measured.method_note += interrupted_note(*runs);
    measured.interrupted = runs->interrupted_in.has_value();
    runs->baseline.context.shard = shard;
    runs->candidate.context.shard = shard;
    identify_build(plan_.base, runs->baseline.context);
    identify_build(plan_.candidate, runs->candidate.context);
    if (!plan_.command_line.empty()) runs->candidate.context.command_line = plan_.command_line;
    measured.baseline = std::move(runs->baseline);
    measured.run = std::move(runs->candidate);
    return measured;
  }

 private:
  // `start_s`: how long a process of each build took to start, timed as it was listed (so the
  // comparison lists neither again).
  model::Result<SideBySideRuns> run_gbench(std::vector<std::string> benchmarks, Observer& observer,
                                           Measured& measured, std::array<double, 2> start_s) {
    auto pairs = paired<GbenchSideBySide>(plan_, std::move(benchmarks), observer);
    pairs.flags = plan_.flags;
    pairs.listed_start_s = start_s;
    if (plan_.together) pairs.together_from_s = 0.0;
    // Three short repetitions a process, longer ones for a benchmark of several threads, unless
    // the user's flags say otherwise (gbench_turn_flags).
    pairs.turn_flags = true;
    std::string added_text;
    for (const std::string& flag : gbench_turn_flags(plan_.flags)) added_text += ", " + flag;
    if (gbench_repetitions_follow_iterations(plan_.flags)) {
      added_text += fmt::format("; --benchmark_min_time={:g} for a benchmark of several threads",
                                kThreadedTurnMinTimeS);
    }
    pairs.note = [&observer](const std::string& line) { observer.note(line); };
    pairs.look_every = 1;
    if (plan_.worker_timeout) pairs.timeout = plan_.worker_timeout;
    auto runs = run_gbench_side_by_side(pairs, undecided());
    if (!runs) return runs;
    // Together: a suite slow to start (GbenchPairs::choose_processes).
    const bool together = runs->together;
    measured.method_note = fmt::format(
        "Google Benchmark binaries: {}, each round a fresh process of each build {} "
        "(--benchmark_filter{}){}, both on one CPU, the first of the two alternating; the "
        "comparison pairs the rounds. {}",
        rounds_text(), together ? "running the benchmarks left" : "per benchmark", added_text,
        !together        ? ""
        : plan_.together ? ", as --together asks"
                         : ", since the suite was slow to start",
        together
            ? "Benchmarks run one after another in a process, alike in both builds"
            : "Each benchmark runs alone in its process, so its times can differ from those "
              "of the suite's own run, where it follows the others in one process (caches, "
              "heap and clock speed as they left them)" +
                  std::string(plan_.together ? "" : "; benchkit compare --together runs them so"));
    return runs;
  }

  model::Result<SideBySideRuns> run_benchkit(std::vector<std::string> benchmarks,
                                             Observer& observer, Measured& measured) {
    auto pairs = paired<SideBySide>(plan_, std::move(benchmarks), observer);
    pairs.worker_flags = plan_.flags;
    // Side by side's sampling time for each benchmark and side, as --baseline's default.
    pairs.round_budget_ns = turn_budget_ns(kSideBySideBudgetNs, plan_.rounds);
    pairs.worker_timeout = plan_.worker_timeout.value_or(std::chrono::seconds(60));
    pairs.clock = process_clock().clock;
    pairs.look_every = 1;
    measured.method_note = fmt::format(
        "benchkit bench binaries: {} of fresh process pairs per benchmark taking samples "
        "in turns; the comparison pairs the rounds",
        rounds_text());
    return run_side_by_side(pairs, undecided());
  }

  // "10 rounds" or "10 rounds (up to 90 for a benchmark still undecided)".
  std::string rounds_text() const {
    if (plan_.max_rounds <= plan_.rounds) return fmt::format("{} rounds", plan_.rounds);
    return fmt::format("{} rounds (up to {} for a benchmark still undecided)", plan_.rounds,
                       plan_.max_rounds);
  }

  // A look after every round, each read at its level of the sequential design
  // (plan_.compare.sequential_alpha, set by compare_plan); with --budget, the next round only for
  // the benchmarks the budget left affords (session/suite_budget.hpp).
  Undecided undecided() const {
    if (plan_.max_rounds <= plan_.rounds) return {};
    // A shard stops by the verdicts of the whole suite it was cut from.
    analysis::CompareSettings looks = plan_.compare;
    looks.suite_size = suite_size_;
    return budget_->looks(looks);
  }

  BinariesPlan plan_;
  std::size_t suite_size_ = 0;     // --shard: the whole selection's benchmarks
  SuiteBudget* budget_ = nullptr;  // of the measure() under way
};

class FilesMeasurer final : public Measurer {
 public:
  explicit FilesMeasurer(FilesPlan plan) : plan_(std::move(plan)) {}

  model::Result<Measured> measure(Observer& /*observer*/) override {
    auto base = load_file_or_baseline(plan_.base);
    if (!base) return model::Error{base.error().message, model::ErrorKind::input};
    auto candidate = load_file_or_baseline(plan_.candidate);
    if (!candidate) return model::Error{candidate.error().message, model::ErrorKind::input};
    Measured measured;
    measured.baseline = std::move(*base);
    measured.run = std::move(*candidate);
    return measured;
  }

 private:
  FilesPlan plan_;
};

}  // namespace

std::unique_ptr<Measurer> make_measurer(BinariesPlan plan) {
  // A bare name is a file of the current folder here (compare was given a file), but a program
  // started by that name would be looked up in PATH.
  for (std::string* path : {&plan.base, &plan.candidate}) {
    if (path->find('/') == std::string::npos) *path = "./" + *path;
  }
  return std::make_unique<BinariesMeasurer>(std::move(plan));
}

std::unique_ptr<Measurer> make_measurer(FilesPlan plan) {
  return std::make_unique<FilesMeasurer>(std::move(plan));
}

}  // namespace benchkit::session
