#include "session/bisect.hpp"

#include <fmt/format.h>

#include "vcs/bisection.hpp"

namespace benchkit::session {

using analysis::Verdict;

model::Result<BisectOutcome> bisect(const std::vector<vcs::CommitNode>& candidates,
                                    const std::string& good, const std::string& bad,
                                    const Judge& judge,
                                    const std::function<void(const BisectStep&)>& step,
                                    Verdict sought) {
  const bool faster = sought == Verdict::improved;
  const std::string bad_word = faster ? "faster" : "bad";
  const std::string good_word = faster ? "not faster" : "good";
  BisectOutcome outcome;
  auto record = [&](BisectStep done) {
    if (step) step(done);
    outcome.steps.push_back(std::move(done));
    return outcome.steps.back();
  };
  // The ends: without a regression between them there is nothing to look for.
  auto ends = judge(bad, good, false);
  if (!ends) return ends.error();
  if (ends->summary.verdict == Verdict::inconclusive) {
    record({bad, good, *ends, "retry"});
    ends = judge(bad, good, true);
    if (!ends) return ends.error();
  }
  const BisectStep ends_step = record({bad, good, *ends, bad_word + " end"});
  outcome.ends = ends_step;
  if (ends->summary.verdict != sought) {
    return model::Error{
        fmt::format("BAD ({}) is not {} than GOOD ({}) for the chosen benchmarks: they are "
                    "{} ({} {:.3f}x); nothing to bisect. Check the revisions and --bench, or "
                    "raise --rounds if the change is small",
                    vcs::short_commit(bad), faster ? "faster" : "slower", vcs::short_commit(good),
                    analysis::to_string(ends->summary.verdict), ends->summary.benchmark,
                    ends->summary.ratio),
        model::ErrorKind::failed};
  }
  outcome.convicting = ends_step;
  vcs::Bisection bisection(candidates, bad);
  std::string last_good = good;
  while (const auto next = bisection.next()) {
    ++outcome.commits_tested;
    auto judged = judge(*next, last_good, false);
    if (judged && judged->summary.verdict == Verdict::inconclusive) {
      record({*next, last_good, *judged, "retry"});
      judged = judge(*next, last_good, true);
    }
    if (!judged) {
      // Ctrl-C stops; a commit that cannot be built or measured is skipped, with why (the ends
      // were built and measured, so what they share works).
      if (judged.error().kind == model::ErrorKind::interrupted) return judged.error();
      bisection.mark_skipped(*next);
      record({*next, last_good, Judgement{}, "skipped", judged.error().message});
      continue;
    }
    const Verdict verdict = judged->summary.verdict;
    if (verdict == sought) {
      bisection.mark_bad(*next);
      outcome.convicting = record({*next, last_good, *judged, bad_word});
    } else if (verdict == Verdict::inconclusive) {
      bisection.mark_skipped(*next);
      record({*next, last_good, *judged, "skipped"});
    } else {
      bisection.mark_good(*next);
      record({*next, last_good, *judged, good_word});
      last_good = *next;
    }
  }
  outcome.first_bad = bisection.first_bad();
  if (!outcome.first_bad) outcome.candidates = bisection.remaining();
  return outcome;
}

bool more_change_after(const BisectOutcome& outcome, Verdict sought) {
  if (!outcome.first_bad || !outcome.convicting || !outcome.ends) return false;
  if (outcome.convicting->commit == outcome.ends->commit) return false;
  const Summary& ends = outcome.ends->judgement.summary;
  const Summary& step = outcome.convicting->judgement.summary;
  return sought == Verdict::improved ? ends.ratio < step.ratio_lower
                                     : ends.ratio > step.ratio_upper;
}

std::string log_line(std::size_t number, const BisectStep& step) {
  if (!step.failure.empty()) {
    // One line still: a build's error quotes the end of its log, lines and tabs included.
    std::string why = step.failure;
    for (char& c : why) c = (c == '\n' || c == '\t') ? ' ' : c;
    return fmt::format("{}\t{}\t{}\tfailed\t\t\t\tagainst {}\t{}", number, step.commit,
                       step.outcome, vcs::short_commit(step.reference), why);
  }
  const Summary& s = step.judgement.summary;
  return fmt::format("{}\t{}\t{}\t{}\t{:.4f}\t[{:.4f}, {:.4f}]\trounds {}\tagainst {}\t{}", number,
                     step.commit, step.outcome, analysis::to_string(s.verdict), s.ratio,
                     s.ratio_lower, s.ratio_upper, step.judgement.rounds,
                     vcs::short_commit(step.reference), s.benchmark);
}

}  // namespace benchkit::session
