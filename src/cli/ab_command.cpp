// `benchkit ab BASE [NEW]` and `benchkit bisect GOOD BAD`: revisions checked out in worktrees,
// built like the user's build (session/revisions.hpp), their bench binaries run side by side
// (session/ab.hpp) or, with --cmd, their commands interleaved in rounds (session/commands.hpp);
// bisect walks the commits between (session/bisect.hpp). Flags -> request -> session ->
// reporter -> exit status.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "cli/command_progress.hpp"
#include "cli/commands.hpp"
#include "cli/duration.hpp"
#include "cli/report_output.hpp"
#include "cli/terminal.hpp"
#include "process/interrupt.hpp"
#include "process/plan.hpp"
#include "process/run.hpp"
#include "report/command_table.hpp"
#include "report/reporter.hpp"
#include "session/ab.hpp"
#include "session/bisect.hpp"
#include "session/commands.hpp"
#include "session/counted.hpp"
#include "session/history.hpp"
#include "session/revisions.hpp"
#include "store/atomic_file.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::cli {
namespace {

namespace fs = std::filesystem;

// Benchmarks still inconclusive after --rounds get more, up to this many times --rounds: the
// bench binary's --baseline default (cli/bench_flags.hpp, kMaxRoundsFactor), for the same reason.
constexpr std::size_t kMaxRoundsFactor = 9;

struct AbOptions {
  std::string base, candidate;  // ab
  std::string good, bad;        // bisect
  session::BuildChoice build;
  std::vector<std::string> commands;  // --cmd
  std::string bench;
  std::size_t rounds = 10;
  std::size_t max_rounds = 0;
  std::string time_budget = "1s";
  std::string worker_timeout = "120s";
  std::string format = "console";
  std::string out;
  std::string html;  // --html: the comparison also as one self-contained HTML page
  std::string log;
  bool fail_on_regression = false;
  std::string mode = "time";  // ab --mode instructions: each build's binary counted (valgrind)
  bool record = false;        // --record: both runs into the history (docs/history.md)
  std::string store;  // --store: which history (default $BENCHKIT_STORE, .benchkit/history.db)
  ComparisonFlags comparison;
  std::string color = "auto";
  bool quiet = false;
};

std::size_t max_rounds_of(const AbOptions& o) {
  return o.max_rounds > 0 ? o.max_rounds : kMaxRoundsFactor * o.rounds;
}

model::Error usage(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::usage};
}

// Ctrl-C is recorded (not fatal) while revisions are built and run, so that a build's process
// group is killed and the worktree being made removed; the default comes back at the end.
struct InterruptScope {
  InterruptScope() { process::install_interrupt_handler(); }
  ~InterruptScope() { process::restore_default_interrupt_action(); }
};

// What stays the same for every revision of one command: the repository, how to build.
struct Setup {
  std::string root;
  vcs::BuildRecipe recipe;
  std::string description;  // how revisions are built, for the method note
  std::int64_t round_budget_ns = 0;
  std::chrono::milliseconds worker_timeout{0};
};

model::Result<Setup> setup_of(const AbOptions& o) {
  if (o.rounds == 0) return usage("--rounds must be at least 1");
  if (o.max_rounds > 0 && o.max_rounds < o.rounds) {
    return usage(fmt::format("--max-rounds {} is below --rounds {}", o.max_rounds, o.rounds));
  }
  const auto budget = parse_duration_ns(o.time_budget);
  if (!budget || *budget <= 0) {
    return usage(fmt::format("--time-budget \"{}\" is not a positive duration (e.g. 500ms, 2s)",
                             o.time_budget));
  }
  const auto timeout = parse_duration_ns(o.worker_timeout);
  if (!timeout || *timeout <= 0) {
    return usage(fmt::format("--worker-timeout \"{}\" is not a positive duration (e.g. 120s)",
                             o.worker_timeout));
  }
  if (o.commands.size() > 1) {
    return usage(
        "give one --cmd: benchkit ab compares one command's two builds (run it once per "
        "command)");
  }
  Setup setup;
  // Each side samples for budget/rounds per round, at least 1 ms (a shorter turn is all
  // process start-up), as the bench binary's --baseline does.
  setup.round_budget_ns =
      std::max<std::int64_t>(1'000'000, *budget / static_cast<std::int64_t>(o.rounds));
  setup.worker_timeout = std::chrono::milliseconds(*timeout / 1'000'000);
  std::error_code error;
  const auto root = vcs::repository_root(fs::current_path(error).string());
  if (!root) return root.error();
  setup.root = *root;
  session::BuildChoice choice = o.build;
  // Whole commands: the binaries they run are not known, so the whole project is built.
  choice.all_targets = !o.commands.empty();
  auto recipe = session::build_recipe(setup.root, choice, setup.description);
  if (!recipe) return recipe.error();
  setup.recipe = std::move(*recipe);
  return setup;
}

// Prepares one revision, saying on stderr what it does and whether the build was kept.
model::Result<session::Prepared> prepare(const Setup& setup, const session::Revision& revision,
                                         const vcs::Checkout& checkout,
                                         const vcs::BuildRecipe& recipe, bool quiet) {
  auto say = [&](const session::Revision& r, const std::string& step) {
    if (!quiet) std::cerr << fmt::format("benchkit: {}: {}\n", r.label(), step);
  };
  auto prepared = session::prepare_revision(setup.root, revision, checkout, recipe, say);
  if (!prepared) return prepared.error();
  if (!quiet) {
    std::cerr << fmt::format(
        "benchkit: {}: {}\n", revision.label(),
        prepared->built.cached ? fmt::format("build kept from an earlier run, nothing rebuilt ({})",
                                             prepared->built.build_folder)
                               : fmt::format("built in {:.1f} s ({})", prepared->built.seconds,
                                             prepared->built.build_folder));
  }
  return prepared;
}

// The recipe for BASE once NEW is built: the same bench targets (so that a target BASE does
// not have is named as such).
vcs::BuildRecipe recipe_like(const vcs::BuildRecipe& recipe, const session::Prepared& built) {
  vcs::BuildRecipe same = recipe;
  if (same.cmake && same.targets.empty() && !same.all_targets) {
    for (const auto& e : built.built.executables) same.targets.push_back(e.name);
  }
  return same;
}

std::vector<session::BinaryPair> binary_pairs(const session::Prepared& base,
                                              const session::Prepared& candidate) {
  std::vector<session::BinaryPair> pairs;
  for (const auto& ours : candidate.built.executables) {
    for (const auto& theirs : base.built.executables) {
      if (theirs.name == ours.name) pairs.push_back({ours.name, theirs.artifact, ours.artifact});
    }
  }
  return pairs;
}

session::AbRequest ab_request(const AbOptions& o, const Setup& setup,
                              const std::vector<std::string>& bench_flags, bool visible) {
  session::AbRequest request;
  request.bench_regex = o.bench;
  request.bench_flags = bench_flags;
  request.rounds = o.rounds;
  request.max_rounds = max_rounds_of(o);
  request.round_budget_ns = setup.round_budget_ns;
  request.worker_timeout = setup.worker_timeout;
  request.compare = comparison_settings(o.comparison);
  if (visible) {
    request.progress = [](const std::string& target, std::size_t round, std::size_t planned,
                          std::size_t index, std::size_t count, const std::string& name) {
      std::cerr << fmt::format("\r\033[K[round {}/{}] [{}/{}] {} {} (both builds in turns)",
                               round + 1, planned, index + 1, count, target, name)
                << std::flush;
    };
  }
  request.failed = [visible](const std::string& name, const std::string& message) {
    if (visible) std::cerr << "\r\033[K";
    std::cerr << fmt::format("error: {} failed: {}\n", name, message);
  };
  return request;
}

std::string method_note(const session::Prepared& base, const session::Prepared& candidate,
                        const Setup& setup, const std::string& rounds, const AbOptions& o) {
  if (o.mode == "instructions") {
    return fmt::format(
        "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the "
        "same way ({}); each build's bench binary counted its benchmarks under valgrind's "
        "callgrind (--mode instructions: a fresh process per benchmark, pinned cache geometry, "
        "no address randomisation), one build after the other; counts repeat exactly, so a "
        "change beyond ±{:g}% is a verdict",
        candidate.revision.label(), base.revision.label(), setup.description,
        100.0 * o.comparison.count_threshold);
  }
  return fmt::format(
      "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the same "
      "way ({}); their bench binaries ran side by side, {} rounds of fresh process pairs per "
      "benchmark taking samples in turns, so both met the machine in the same state{}",
      candidate.revision.label(), base.revision.label(), setup.description, rounds,
      max_rounds_of(o) > o.rounds
          ? fmt::format("; benchmarks still inconclusive after {} get more, up to {}", o.rounds,
                        max_rounds_of(o))
          : "");
}

// Prints (or writes to --out) the comparison; returns the exit status.
int report_comparison(const AbOptions& o, const analysis::Comparison& comparison,
                      const RunResult* commands_run, bool failures) {
  const auto format = report::parse_format(o.format);
  if (!format) return report_error(usage(format.error().message));
  const report::Options options{want_color(o.color)};
  const auto reporter = report::make_reporter(*format, options);
  const report::Document document{.comparison = &comparison};
  if (const std::string refused = reporter->refusal(document); !refused.empty()) {
    return report_error(usage(fmt::format(
        "--format {}: {}; choose console, markdown, json, csv, html or junit for a comparison",
        o.format, refused)));
  }
  int status = 0;
  if (!o.html.empty()) status = write_html(o.html, document);
  if (!o.out.empty()) {
    if (const auto written = store::write_file_atomically(o.out, reporter->render(document));
        !written) {
      status = report_error(written.error());
    }
  }
  if (*format == report::Format::console || !o.out.empty()) {
    if (!o.quiet) {
      if (commands_run) std::cout << report::render_command_table(*commands_run, options) << "\n";
      std::cout << report::make_reporter(report::Format::console, options)->render(document);
      if (!o.out.empty() && status == 0) std::cout << fmt::format("written to {}\n", o.out);
    }
  } else {
    std::cout << reporter->render(document);
  }
  std::cout.flush();
  if (status != 0) return status;
  if (failures) return 1;
  return o.fail_on_regression && comparison.any_regression() ? 1 : 0;
}

bool any_failed(const RunResult& run) {
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.failure) return true;
  }
  return false;
}

// --cmd: the command of each build, {src} and {build} filled in, interleaved in rounds as
// benchkit run does, NEW compared with BASE on the paired rounds.
int run_ab_commands(const AbOptions& o, const session::Prepared& base,
                    const session::Prepared& candidate) {
  const auto words = process::split_words(o.commands.front());
  if (!words) return report_error(usage("--cmd " + words.error().message));
  session::CommandRequest request;
  for (const session::Prepared* side : {&base, &candidate}) {
    process::CommandSpec spec;
    for (const std::string& word : *words) {
      spec.argv.push_back(
          vcs::fill_placeholders(word, side->worktree.path, side->built.build_folder, false));
    }
    spec.name = side == &base ? "BASE " + vcs::short_commit(base.revision.commit)
                              : "NEW " + vcs::short_commit(candidate.revision.commit) +
                                    (candidate.revision.dirty ? "+dirty" : "");
    request.commands.push_back(std::move(spec));
  }
  request.reference = request.commands.front().name;
  request.compare = comparison_settings(o.comparison);
  const auto plan = session::plan_commands(request);
  if (!plan) return report_error(plan.error());
  const auto budget = parse_duration_ns(o.time_budget);
  request.settings.budget_ns = static_cast<double>(budget.value_or(3'000'000'000));
  request.context = session::command_context(0, tool_command_line());
  process::ExecutorChoice executor = process::make_executor();
  CommandProgress progress(!o.quiet && stderr_is_terminal());
  session::CommandOutcome outcome = session::run_command_rounds(request, *plan, *executor.executor,
                                                                clock::steady_clock(), progress);
  progress.clear();
  if (outcome.interrupted) {
    return report_error(model::Error{"interrupted while the commands ran: nothing compared",
                                     model::ErrorKind::interrupted});
  }
  if (!outcome.against_reference) {
    return report_error(model::Error{outcome.reference_error
                                         ? outcome.reference_error->message
                                         : "the commands did not run far enough to be compared",
                                     model::ErrorKind::failed});
  }
  analysis::Comparison comparison = *outcome.against_reference;
  comparison.method_note = fmt::format(
      "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the same "
      "way; the command of each build ran interleaved in {} rounds (BASE NEW, NEW BASE, ...), "
      "compared on the paired rounds",
      candidate.revision.label(), base.revision.label(), outcome.rounds);
  return report_comparison(o, comparison, &outcome.run, outcome.failed > 0);
}

int run_ab(const AbOptions& o) {
  const InterruptScope interrupts;
  const auto setup = setup_of(o);
  if (!setup) return report_error(setup.error());
  const auto base = session::resolve_revision(setup->root, "BASE", o.base);
  if (!base) return report_error(base.error());
  const auto candidate = session::resolve_revision(setup->root, "NEW", o.candidate);
  if (!candidate) return report_error(candidate.error());
  // NEW first: its bench targets are the ones BASE must have.
  const auto built_new =
      prepare(*setup, candidate->first, candidate->second, setup->recipe, o.quiet);
  if (!built_new) return report_error(built_new.error());
  const auto built_base =
      prepare(*setup, base->first, base->second, recipe_like(setup->recipe, *built_new), o.quiet);
  if (!built_base) return report_error(built_base.error());
  if (!o.commands.empty()) return run_ab_commands(o, *built_base, *built_new);

  const bool visible = !o.quiet && stderr_is_terminal();
  session::AbRequest request = ab_request(o, *setup, trailing_arguments(), visible);
  request.binaries = binary_pairs(*built_base, *built_new);
  if (o.mode == "instructions") {
    request.counted = true;
    request.progress = nullptr;
    if (!o.quiet) {
      request.counting = [&](const std::string& target, bool baseline, std::size_t benchmarks) {
        std::cerr << fmt::format(
            "benchkit: {}: counting {} benchmark{} of {} under valgrind (a fresh process "
            "each)\n",
            (baseline ? built_base : built_new)->revision.label(), benchmarks,
            benchmarks == 1 ? "" : "s", target);
      };
    }
  }
  auto outcome = session::run_ab(request);
  if (visible) std::cerr << "\r\033[K" << std::flush;
  if (!outcome) return report_error(outcome.error());
  session::record_revision(built_base->revision, outcome->baseline.context);
  session::record_revision(built_new->revision, outcome->candidate.context);
  outcome->comparison.method_note =
      method_note(*built_base, *built_new, *setup, outcome->rounds, o);
  if (o.record) {
    // The lines saying where the runs were recorded stay off a machine format on stdout.
    const bool document_on_stdout = o.format != "console" && o.out.empty();
    for (const RunResult* run : {&outcome->baseline, &outcome->candidate}) {
      if (const int status = record_in_history(o.store, *run, o.quiet || document_on_stdout);
          status != 0) {
        return status;
      }
    }
  }
  return report_comparison(o, outcome->comparison, nullptr,
                           any_failed(outcome->baseline) || any_failed(outcome->candidate));
}

// bisect: the judge builds each commit (cached) and compares it with the reference.
int run_bisect(const AbOptions& o) {
  const InterruptScope interrupts;
  if (!o.commands.empty())
    return report_error(usage("bisect compares bench binaries; --cmd is for ab"));
  const auto setup = setup_of(o);
  if (!setup) return report_error(setup.error());
  const auto good = session::resolve_revision(setup->root, "GOOD", o.good);
  if (!good) return report_error(good.error());
  const auto bad = session::resolve_revision(setup->root, "BAD", o.bad);
  if (!bad) return report_error(bad.error());
  const auto candidates = vcs::commits_between(setup->root, good->first.commit, bad->first.commit);
  if (!candidates) return report_error(candidates.error());
  // In a folder git ignores, like the worktrees: the user's git status stays as it was.
  std::string log_path = o.log;
  if (log_path.empty()) {
    const auto folder =
        vcs::make_ignored_folder((fs::path(vcs::benchkit_folder(setup->root)) / "bisect").string());
    if (!folder) return report_error(folder.error());
    log_path = (fs::path(*folder) / "bisect.log").string();
  }
  std::ofstream log(log_path, std::ios::trunc);
  if (!log)
    return report_error(model::Error{fmt::format("cannot write the bisection log {}", log_path)});
  log << fmt::format("# benchkit bisect {} {} --bench \"{}\": {} commits between\n",
                     good->first.commit, bad->first.commit, o.bench, candidates->size());
  log << "# step\tcommit\toutcome\tverdict\tratio\t95% CI\trounds\treference\tbenchmark\n";
  log.flush();

  // Every commit is built at most once: the two ends first, each step's commit when it comes.
  std::map<std::string, session::Prepared> built;
  vcs::BuildRecipe recipe = setup->recipe;
  std::size_t steps = 0;
  auto build = [&](const std::string& commit) -> model::Result<const session::Prepared*> {
    if (const auto found = built.find(commit); found != built.end()) return &found->second;
    session::Revision revision;
    revision.role = commit == good->first.commit  ? "GOOD"
                    : commit == bad->first.commit ? "BAD"
                                                  : fmt::format("step {}", steps);
    revision.name = commit;
    revision.commit = commit;
    revision.subject = vcs::commit_subject(setup->root, commit);
    auto prepared = prepare(*setup, revision, vcs::Checkout{commit, "", ""}, recipe, o.quiet);
    if (!prepared) return prepared.error();
    if (built.empty()) recipe = recipe_like(recipe, *prepared);
    return &built.emplace(commit, std::move(*prepared)).first->second;
  };
  const bool visible = !o.quiet && stderr_is_terminal();
  const session::Judge judge = [&](const std::string& commit, const std::string& reference,
                                   bool more_rounds) -> model::Result<session::Judgement> {
    if (commit != bad->first.commit) ++steps;
    // BAD first: its bench targets are the ones every other commit must have.
    const auto candidate = build(commit);
    if (!candidate) return candidate.error();
    const auto baseline = build(reference);
    if (!baseline) return baseline.error();
    AbOptions longer = o;
    if (more_rounds) {
      longer.rounds = 2 * o.rounds;
      longer.max_rounds = 2 * max_rounds_of(o);
    }
    session::AbRequest request = ab_request(longer, *setup, trailing_arguments(), visible);
    request.binaries = binary_pairs(**baseline, **candidate);
    process::install_interrupt_handler();  // side by side puts the default back when it ends
    auto outcome = session::run_ab(request);
    process::install_interrupt_handler();
    if (visible) std::cerr << "\r\033[K" << std::flush;
    if (!outcome) return outcome.error();
    outcome->comparison.method_note =
        method_note(**baseline, **candidate, *setup, outcome->rounds, longer);
    return session::Judgement{session::summarise(outcome->comparison), outcome->rounds,
                              std::move(outcome->comparison)};
  };
  std::size_t number = 0;
  const auto on_step = [&](const session::BisectStep& step) {
    const std::string line = session::log_line(number++, step);
    log << line << "\n";
    log.flush();
    if (!o.quiet) {
      const session::Summary& s = step.judgement.summary;
      std::cerr << fmt::format(
          "benchkit bisect: {} {}: {} ({} {:.3f}x [{:.3f}, {:.3f}], {} rounds, "
          "against {}) {}\n",
          vcs::short_commit(step.commit), step.outcome, analysis::to_string(s.verdict), s.benchmark,
          s.ratio, s.ratio_lower, s.ratio_upper, step.judgement.rounds,
          vcs::short_commit(step.reference), vcs::commit_subject(setup->root, step.commit));
    }
  };
  const auto outcome =
      session::bisect(*candidates, good->first.commit, bad->first.commit, judge, on_step);
  if (!outcome) {
    log << "# stopped: " << outcome.error().message << "\n";
    return report_error(outcome.error());
  }
  const std::size_t builds = built.size();
  if (!outcome->first_bad) {
    std::string list;
    for (const std::string& c : outcome->candidates) {
      list += fmt::format("\n  {} {}", vcs::short_commit(c), vcs::commit_subject(setup->root, c));
    }
    log << "# undecided: the first bad commit is one of " << outcome->candidates.size() << "\n";
    std::cout << fmt::format(
        "the first bad commit could not be told apart: some commits stayed inconclusive and were "
        "skipped; it is one of:{}\n(log of every step: {}; raise --rounds for a sharper "
        "answer)\n",
        list, log_path);
    return 1;
  }
  const std::string& first = *outcome->first_bad;
  log << fmt::format("# first bad commit: {} {}\n", first, vcs::commit_subject(setup->root, first));
  std::cout << fmt::format("first bad commit: {} {}\n", first,
                           vcs::commit_subject(setup->root, first));
  std::cout << fmt::format(
      "{} commits between, {} tested besides the two ends, {} revisions built (or kept from an "
      "earlier run); every step is in {}\n\n",
      candidates->size(), outcome->commits_tested, builds, log_path);
  std::cout << "the comparison that convicted it:\n";
  AbOptions shown = o;
  shown.fail_on_regression = false;
  report_comparison(shown, outcome->convicting->judgement.comparison, nullptr, false);
  return 0;
}

void add_shared_flags(CLI::App& command, AbOptions& o) {
  command.add_option("--build-dir", o.build.build_dir,
                     "CMake: the build folder whose settings (generator, build type, compilers, "
                     "flags, package folders from its CMakeCache.txt) every revision is built "
                     "with (default: the one folder in the repository holding a CMakeCache.txt)");
  command
      .add_option("--target", o.build.targets,
                  "CMake: a bench target to build and compare (repeatable; default: every "
                  "executable linking benchkit::main)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--build", o.build.command,
                     "Not CMake: the shell command that builds a revision, run in its worktree; "
                     "{src} is the worktree and {build} its build folder (with --binary)");
  command.add_option("--binary", o.build.binary,
                     "With --build: the bench binary the command makes (relative to {build}, or "
                     "with {src}/{build})");
  command.add_option("--rounds", o.rounds,
                     "Rounds of fresh process pairs per benchmark (default 10)");
  command.add_option("--max-rounds", o.max_rounds,
                     "Benchmarks undecided after --rounds get more, --rounds at a time, up to N "
                     "(default 9 x --rounds)");
  command.add_option("--time-budget", o.time_budget,
                     "Sampling time per benchmark and side over --rounds (default 1s)");
  command.add_option("--worker-timeout", o.worker_timeout,
                     "How long a worker may take to set up or take one sample (default 120s)");
  add_format_option(command, o.format, "Format of the comparison");
  command.add_option("--out", o.out, "Write the comparison in --format to this file");
  add_html_option(command, o.html);
  add_comparison_flags(command, o.comparison);
  command.add_option("--color", o.color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command.add_flag("--quiet,-q", o.quiet, "No progress lines and no table");
}

}  // namespace

CommandRunner add_ab_command(CLI::App& app) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* command = app.add_subcommand(
      "ab",
      "Compare two git revisions: benchkit ab BASE [NEW] [-- BENCH FLAGS]. Each is checked out "
      "in its own worktree under .benchkit/worktrees (your checkout, index, branches and stash "
      "are not touched) and built the same way, then their bench binaries run side by side as "
      "--baseline does (with --mode instructions: each counts its benchmarks under valgrind). "
      "NEW defaults to the working tree with its uncommitted changes. Builds "
      "are kept: a second ab of the same revisions rebuilds nothing. Exit status: 0; 1 when a "
      "benchmark failed or, with --fail-on-regression, regressed; 2 for usage errors; 130 when "
      "interrupted. docs/ab.md.");
  command
      ->add_option("BASE", o->base,
                   "The revision compared against (tag, branch, commit, "
                   "HEAD~3)")
      ->required();
  command->add_option("NEW", o->candidate,
                      "The new revision (default: the working tree, uncommitted changes "
                      "included)");
  command->add_option("--bench,--filter", o->bench,
                      "Only benchmarks whose name matches this regular expression");
  command
      ->add_option("--cmd", o->commands,
                   "Compare a whole command instead: run it for each build ({build}, {src} "
                   "filled in), interleaved in rounds as benchkit run does")
      ->allow_extra_args(false);
  add_fail_on_regression_flag(*command, o->fail_on_regression);
  command->add_flag("--record", o->record,
                    "Record both runs (BASE and NEW, each with its commit) in the history "
                    "(docs/history.md)");
  add_store_option(*command, o->store);
  command
      ->add_option("--mode", o->mode,
                   "time (default): the builds' bench binaries take samples in turns; "
                   "instructions: each build's bench binary counts its benchmarks under "
                   "valgrind's callgrind (as its own --mode instructions does), compared with "
                   "--count-threshold; flags after -- such as --sample-size 2 go to both "
                   "(docs/instructions.md)")
      ->check(CLI::IsMember({"time", "instructions"}));
  add_shared_flags(*command, *o);
  return [command, o]() -> int {
    if (!command->parsed()) return -1;
    for (const std::string& word : trailing_arguments()) {
      if (word == "--mode" || word.starts_with("--mode=")) {
        return report_error(
            usage("--mode goes before --, to ab itself: benchkit ab BASE NEW --mode instructions "
                  "(after --, the bench binaries would get it while taking turns)"));
      }
    }
    if (o->mode == "instructions") {
      if (!o->commands.empty()) {
        return report_error(
            usage("ab --mode instructions counts the builds' bench binaries; a whole command is "
                  "counted with benchkit run --mode instructions -- CMD (in each build folder)"));
      }
      for (const char* flag : {"--rounds", "--max-rounds", "--time-budget", "--worker-timeout"}) {
        if (command->count(flag) > 0) {
          return report_error(usage(fmt::format(
              "{} is for --mode time (samples taken in turns); --mode instructions counts each "
              "build once, since counts repeat exactly (give --sample-size N after -- for fewer "
              "samples)",
              flag)));
        }
      }
      // valgrind missing is found now, not after the builds.
      if (const auto valgrind = session::find_valgrind(); !valgrind) {
        return report_error(valgrind.error());
      }
    }
    if (!o->store.empty() && !o->record) {
      return report_error(usage("--store names the history that --record writes to: add --record"));
    }
    // A format with no form for a comparison (gbench, bmf, github-action) is refused now, not
    // after the builds and the rounds.
    if (const auto format = report::parse_format(o->format); format) {
      const analysis::Comparison none;
      const std::string refused =
          report::make_reporter(*format, {})->refusal(report::Document{.comparison = &none});
      if (!refused.empty()) {
        return report_error(usage(fmt::format(
            "--format {}: {}; choose console, markdown, json, csv, html or junit for a comparison",
            o->format, refused)));
      }
    }
    // A history that cannot be opened is found now, not after the builds and the rounds.
    if (o->record) {
      if (const auto opened = session::check_history(o->store); !opened) {
        return report_error(opened.error());
      }
    }
    return run_ab(*o);
  };
}

CommandRunner add_bisect_command(CLI::App& app) {
  auto o = std::make_shared<AbOptions>();
  CLI::App* command = app.add_subcommand(
      "bisect",
      "Find the first commit between GOOD and BAD that made --bench slower: benchkit bisect GOOD "
      "BAD --bench REGEX [-- BENCH FLAGS]. Bisects git's commit graph; each step builds one "
      "commit (in a worktree, cached) and runs it side by side with the last good one: "
      "regressed -> bad, unchanged -> good, inconclusive -> more rounds, then skipped. Every "
      "step is logged (--log). Exit status: 0 found; 1 BAD is not slower or the answer stayed "
      "undecided; 2 usage errors; 130 interrupted. docs/ab.md.");
  command->add_option("GOOD", o->good, "A revision without the regression")->required();
  command->add_option("BAD", o->bad, "A later revision with it")->required();
  command->add_option("--bench,--filter", o->bench,
                      "The benchmarks to watch: a regular expression their names match "
                      "(default: every one)");
  command->add_option("--log", o->log,
                      "The log of every step (commit, verdict, ratio, rounds; default "
                      ".benchkit/bisect/bisect.log in the repository)");
  add_shared_flags(*command, *o);
  return [command, o]() -> int {
    if (!command->parsed()) return -1;
    return run_bisect(*o);
  };
}

}  // namespace benchkit::cli
