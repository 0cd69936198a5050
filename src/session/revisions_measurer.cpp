// The measurer of `benchkit ab` (RevisionsPlan): the repository found, NEW then BASE resolved and
// built (NEW first: its bench targets are the ones BASE must have), then their bench binaries run
// side by side or counted, or one command of each build interleaved in rounds. Every step that
// touches git, the compiler or a process goes through a Workshop (session/workshop.hpp).
#include <fmt/format.h>

#include "process/plan.hpp"
#include "session/command_events.hpp"
#include "session/plans.hpp"
#include "session/revision_pairs.hpp"
#include "session/workshop.hpp"

namespace benchkit::session {
namespace {

struct Builds {
  Workplace place;
  Prepared base;
  Prepared candidate;
};

class RevisionsMeasurer final : public Measurer {
 public:
  RevisionsMeasurer(RevisionsPlan plan, Workshop& workshop, std::unique_ptr<Workshop> owned = {})
      : plan_(std::move(plan)), workshop_(workshop), owned_(std::move(owned)) {}

  model::Result<Measured> measure(Observer& observer) override {
    auto builds = build_both(observer);
    if (!builds) return builds.error();
    return plan_.command.empty() ? measure_binaries(*builds, observer)
                                 : measure_commands(*builds, observer);
  }

 private:
  model::Result<Builds> build_both(Observer& observer) {
    BuildChoice choice = plan_.build;
    // Whole commands: the binaries they run are not known, so the whole project is built.
    choice.all_targets = !plan_.command.empty();
    auto place = workshop_.open(choice);
    if (!place) return place.error();
    const auto base = workshop_.resolve(place->root, "BASE", plan_.base);
    if (!base) return base.error();
    const auto candidate = workshop_.resolve(place->root, "NEW", plan_.candidate);
    if (!candidate) return candidate.error();
    auto built_new = prepare_told(workshop_, place->root, candidate->first, candidate->second,
                                  place->recipe, observer);
    if (!built_new) return built_new.error();
    auto built_base = prepare_told(workshop_, place->root, base->first, base->second,
                                   recipe_like(place->recipe, *built_new), observer);
    if (!built_base) return built_base.error();
    return Builds{std::move(*place), std::move(*built_base), std::move(*built_new)};
  }

  model::Result<Measured> measure_binaries(const Builds& builds, Observer& observer) {
    AbRequest request = pair_request(plan_.pairs, observer);
    request.binaries = binary_pairs(builds.base, builds.candidate);
    if (plan_.mode == Mode::instructions) {
      request.counted = true;
      request.progress = nullptr;
      request.counting = [&](const std::string& target, bool baseline, std::size_t benchmarks) {
        observer.counting_started((baseline ? builds.base : builds.candidate).revision.label(),
                                  target, benchmarks);
      };
    }
    auto runs = workshop_.measure_binaries(request);
    if (!runs) return runs.error();
    record_revision(builds.base.revision, runs->baseline.context);
    record_revision(builds.candidate.revision, runs->candidate.context);
    identify_builds(request.binaries, runs->baseline.context, runs->candidate.context);
    Measured measured;
    measured.method_note = pairs_note(builds.base, builds.candidate, builds.place.description,
                                      runs->rounds, plan_.pairs, plan_.mode, runs->gbench);
    if (!runs->budget_note.empty()) measured.method_note += "; " + runs->budget_note;
    measured.method_note += runs->interrupted_note;
    measured.interrupted = !runs->interrupted_note.empty();
    measured.round_cost_ns = runs->round_cost_ns;
    measured.baseline = std::move(runs->baseline);
    measured.run = std::move(runs->candidate);
    measured.measured_together = true;
    return measured;
  }

  // The command of each build, {src} and {build} filled in, interleaved in rounds as benchkit
  // run does, NEW compared with BASE on the paired rounds.
  model::Result<Measured> measure_commands(const Builds& builds, Observer& observer) {
    const auto words = process::split_words(plan_.command);
    if (!words) {
      return model::Error{"--cmd " + words.error().message, model::ErrorKind::usage};
    }
    CommandRequest request;
    for (const Prepared* side : {&builds.base, &builds.candidate}) {
      process::CommandSpec spec;
      for (const std::string& word : *words) {
        spec.argv.push_back(
            vcs::fill_placeholders(word, side->worktree.path, side->built.build_folder, false));
      }
      const Revision& revision = side->revision;
      spec.name = side == &builds.base ? "BASE " + vcs::short_commit(revision.commit)
                                       : "NEW " + vcs::short_commit(revision.commit) +
                                             (revision.dirty ? "+dirty" : "");
      request.commands.push_back(std::move(spec));
    }
    request.reference = request.commands.front().name;
    request.compare = plan_.pairs.compare;
    const auto commands = plan_commands(request);
    if (!commands) return commands.error();
    request.settings.budget_ns = static_cast<double>(plan_.pairs.time_budget_ns);
    request.context.command_line = plan_.command_line;
    CommandEvents events(observer);
    CommandOutcome outcome = workshop_.measure_commands(request, *commands, events);
    // Ctrl-C before a pair of rounds could be compared: nothing to show; after, the rounds so far.
    if (outcome.interrupted && !outcome.against_reference) {
      return model::Error{"interrupted while the commands ran: nothing compared",
                          model::ErrorKind::interrupted};
    }
    if (!outcome.against_reference) {
      return model::Error{outcome.reference_error
                              ? outcome.reference_error->message
                              : "the commands did not run far enough to be compared",
                          model::ErrorKind::failed};
    }
    Measured measured;
    measured.comparison = std::move(*outcome.against_reference);
    measured.comparison->method_note = fmt::format(
        "{} against {}: both checked out in worktrees under .benchkit/worktrees and built the "
        "same way; the command of each build ran interleaved in {} rounds (BASE NEW, NEW BASE, "
        "...), compared on the paired rounds",
        builds.candidate.revision.label(), builds.base.revision.label(), outcome.rounds);
    if (outcome.interrupted) {
      measured.comparison->method_note +=
          "; Ctrl-C stopped them: the verdicts rest on the rounds that finished before it";
    }
    measured.interrupted = outcome.interrupted;
    measured.run = std::move(outcome.run);
    return measured;
  }

  RevisionsPlan plan_;
  Workshop& workshop_;
  std::unique_ptr<Workshop> owned_;
};

}  // namespace

std::unique_ptr<Measurer> make_measurer(RevisionsPlan plan, Workshop& workshop) {
  return std::make_unique<RevisionsMeasurer>(std::move(plan), workshop);
}

std::unique_ptr<Measurer> make_measurer(RevisionsPlan plan) {
  auto workshop = make_workshop();
  Workshop& used = *workshop;
  return std::make_unique<RevisionsMeasurer>(std::move(plan), used, std::move(workshop));
}

}  // namespace benchkit::session
