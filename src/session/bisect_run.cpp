#include "session/bisect_run.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "analysis/compare.hpp"
#include "session/revision_pairs.hpp"
#include "vcs/worktrees.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;

// The log's path: as given, or in a folder git ignores, like the worktrees, so that the user's
// git status stays as it was.
model::Result<std::string> log_path_of(const BisectPlan& plan, const std::string& root) {
  if (!plan.log.empty()) return plan.log;
  const auto folder =
      vcs::make_ignored_folder((fs::path(vcs::benchkit_folder(root)) / "bisect").string());
  if (!folder) return folder.error();
  return (fs::path(*folder) / "bisect.log").string();
}

// The verdict a step must have to be on the far side of the change looked for.
analysis::Verdict sought(const BisectPlan& plan) {
  return plan.faster ? analysis::Verdict::improved : analysis::Verdict::regressed;
}

// One bisection: its builds (each commit at most once) and its judge.
class Bisector {
 public:
  Bisector(const BisectPlan& plan, Workshop& workshop, BisectObserver& observer, Workplace place,
           std::string good, std::string bad)
      : plan_(plan),
        workshop_(workshop),
        observer_(observer),
        place_(std::move(place)),
        good_(std::move(good)),
        bad_(std::move(bad)),
        recipe_(place_.recipe) {}

  // Compares `commit` with `reference` (BAD first: its bench targets are the ones every other
  // commit must have); `more_rounds` doubles the rounds.
  model::Result<Judgement> judge(const std::string& commit, const std::string& reference,
                                 bool more_rounds) {
    if (commit != bad_) ++steps_;
    const auto candidate = build(commit);
    if (!candidate) return candidate.error();
    const auto baseline = build(reference);
    if (!baseline) return baseline.error();
    PairSettings longer = plan_.pairs;
    if (more_rounds) {
      longer.rounds = 2 * plan_.pairs.rounds;
      longer.max_rounds = 2 * plan_.pairs.max_rounds;
      if (!longer.compare.sequential_alpha.empty()) {
        longer.compare.sequential_alpha =
            analysis::sequential_levels(longer.rounds, longer.max_rounds, longer.compare.alpha);
      }
    }
    AbRequest request = pair_request(longer, observer_);
    // A round's budget stays what it was: more rounds, each as long.
    request.round_budget_ns = pair_request(plan_.pairs, observer_).round_budget_ns;
    request.binaries = binary_pairs(**baseline, **candidate);
    auto runs = workshop_.measure_binaries(request);
    observer_.measuring_ended();
    if (!runs) return runs.error();
    // A step judged on the rounds before Ctrl-C would send the search on: it stops instead.
    if (!runs->interrupted_note.empty()) {
      return model::Error{
          "interrupted while the two builds ran side by side: this step is not "
          "judged",
          model::ErrorKind::interrupted};
    }
    analysis::Comparison comparison =
        session::judge(runs->baseline, runs->candidate, longer.compare,
                       pairs_note(**baseline, **candidate, place_.description, runs->rounds, longer,
                                  Mode::time, runs->gbench),
                       /*measured_together=*/true);
    return Judgement{summarise(comparison, sought(plan_)), runs->rounds, std::move(comparison)};
  }

  std::size_t builds() const { return built_.size(); }

 private:
  model::Result<const Prepared*> build(const std::string& commit) {
    if (const auto found = built_.find(commit); found != built_.end()) return &found->second;
    Revision revision;
    revision.role = commit == good_  ? "GOOD"
                    : commit == bad_ ? "BAD"
                                     : fmt::format("step {}", steps_);
    revision.name = commit;
    revision.commit = commit;
    revision.subject = workshop_.subject(place_.root, commit);
    auto prepared = prepare_told(workshop_, place_.root, revision, vcs::Checkout{commit, "", ""},
                                 recipe_, observer_);
    if (!prepared) return prepared.error();
    if (built_.empty()) recipe_ = recipe_like(recipe_, *prepared);
    return &built_.emplace(commit, std::move(*prepared)).first->second;
  }

  const BisectPlan& plan_;
  Workshop& workshop_;
  BisectObserver& observer_;
  Workplace place_;
  std::string good_;
  std::string bad_;
  vcs::BuildRecipe recipe_;
  std::map<std::string, Prepared> built_;
  std::size_t steps_ = 0;
};

// The bisection once the log is open: the walk, every step logged and told, then its end.
model::Result<BisectReport> walk(const BisectPlan& plan, Workshop& workshop,
                                 BisectObserver& observer, const Workplace& place,
                                 const std::vector<vcs::CommitNode>& candidates,
                                 const std::string& good, const std::string& bad,
                                 std::ofstream& log) {
  Bisector bisector(plan, workshop, observer, place, good, bad);
  std::size_t number = 0;
  const auto on_step = [&](const BisectStep& step) {
    log << log_line(number++, step) << "\n";
    log.flush();
    observer.step_decided(step, workshop.subject(place.root, step.commit));
  };
  const Judge judge = [&](const std::string& commit, const std::string& reference,
                          bool more_rounds) {
    return bisector.judge(commit, reference, more_rounds);
  };
  auto outcome = bisect(candidates, good, bad, judge, on_step, sought(plan));
  if (!outcome) {
    log << "# stopped: " << outcome.error().message << "\n";
    return outcome.error();
  }
  BisectReport report;
  report.commits_between = candidates.size();
  report.builds = bisector.builds();
  if (!outcome->first_bad) {
    for (const std::string& c : outcome->candidates) {
      report.undecided.emplace_back(c, workshop.subject(place.root, c));
    }
    log << "# undecided: the first " << (plan.faster ? "faster" : "bad") << " commit is one of "
        << outcome->candidates.size() << "\n";
  } else {
    report.first_bad_subject = workshop.subject(place.root, *outcome->first_bad);
    log << fmt::format("# first {} commit: {} {}\n", plan.faster ? "faster" : "bad",
                       *outcome->first_bad, report.first_bad_subject);
  }
  report.more_change_after = more_change_after(*outcome, sought(plan));
  report.outcome = std::move(*outcome);
  return report;
}

}  // namespace

model::Result<BisectReport> bisect_revisions(const BisectPlan& plan, Workshop& workshop,
                                             BisectObserver& observer) {
  const auto place = workshop.open(plan.build);
  if (!place) return place.error();
  const auto good = workshop.resolve(place->root, "GOOD", plan.good);
  if (!good) return good.error();
  const auto bad = workshop.resolve(place->root, "BAD", plan.bad);
  if (!bad) return bad.error();
  const std::string& good_commit = good->first.commit;
  const std::string& bad_commit = bad->first.commit;
  const auto candidates = workshop.commits_between(place->root, good_commit, bad_commit);
  if (!candidates) return candidates.error();
  const auto log_path = log_path_of(plan, place->root);
  if (!log_path) return log_path.error();
  std::ofstream log(*log_path, std::ios::trunc);
  if (!log) return model::Error{fmt::format("cannot write the bisection log {}", *log_path)};
  log << fmt::format("# benchkit bisect {} {} --bench \"{}\"{}: {} commits between\n", good_commit,
                     bad_commit, plan.pairs.bench_regex, plan.faster ? " --faster" : "",
                     candidates->size());
  log << "# step\tcommit\toutcome\tverdict\tratio\t95% CI\trounds\treference\tbenchmark\n";
  log.flush();
  auto report = walk(plan, workshop, observer, *place, *candidates, good_commit, bad_commit, log);
  if (report) report->log_path = *log_path;
  return report;
}

}  // namespace benchkit::session
