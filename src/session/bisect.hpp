// benchkit bisect: the first commit between GOOD and BAD where the chosen benchmarks regressed.
// The two ends are compared first (BAD must be slower than GOOD); then, as git bisect does, the
// commit that splits the remaining candidates most evenly (vcs/bisection.hpp) is compared side
// by side with the last commit found good (GOOD at first): regressed -> bad, unchanged or
// improved -> good, inconclusive -> once more with twice the rounds, then skipped. Each step's
// build is cached, so the two ends and every commit are built once. Prints nothing; the judge
// (which builds and compares) is given, so tests can use a fake.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "model/error.hpp"
#include "session/ab.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::session {

// One comparison of `commit` (candidate) against `reference` (baseline).
struct Judgement {
  Summary summary;
  std::string rounds;  // as rounds_taken says
  analysis::Comparison comparison;
};

// Compares `commit` with `reference`; `more_rounds` asks for a second, longer try.
using Judge = std::function<model::Result<Judgement>(
    const std::string& commit, const std::string& reference, bool more_rounds)>;

struct BisectStep {
  std::string commit;
  std::string reference;
  Judgement judgement;
  // "bad", "good", "skipped" or "retry" (inconclusive, tried again with more rounds); the two
  // ends are "bad end". Seeking a speed-up: "faster", "not faster", "faster end".
  std::string outcome;
  // A commit between the ends that could not be judged (its build failed, or every benchmark
  // of it did): why; it is skipped, as `git bisect skip` does, and `judgement` is empty.
  std::string failure = {};
};

struct BisectOutcome {
  std::optional<std::string> first_bad;
  // When commits had to be skipped: the commits that may be the first bad one.
  std::vector<std::string> candidates;
  std::vector<BisectStep> steps;
  // The step that judged first_bad bad (the ends' comparison when it is BAD itself).
  std::optional<BisectStep> convicting;
  // The comparison of the two ends (BAD against GOOD), once decided.
  std::optional<BisectStep> ends;
  std::size_t commits_tested = 0;  // besides the two ends
};

// The error: BAD is not slower than GOOD (the ends' verdict says so, kind failed), or the judge's
// error (a failed build, Ctrl-C). `step` hears every step as it is decided. With `sought`
// improved (bisect --faster), the first commit that made the benchmarks faster is sought
// instead: improved -> "faster" (git bisect's new), anything else -> "not faster" (old), the ends
// "faster end", and the error says BAD is not faster.
model::Result<BisectOutcome> bisect(const std::vector<vcs::CommitNode>& candidates,
                                    const std::string& good, const std::string& bad,
                                    const Judge& judge,
                                    const std::function<void(const BisectStep&)>& step = {},
                                    analysis::Verdict sought = analysis::Verdict::regressed);

// Whether more of the change may lie after the first bad commit: the ends changed beyond the
// interval of the step that convicted it, in the direction `sought` (a range holding two changes:
// bisecting again from that commit finds the next). False when it is BAD itself or undecided.
bool more_change_after(const BisectOutcome& outcome,
                       analysis::Verdict sought = analysis::Verdict::regressed);

// One line of the bisection log: "3 1a2b3c4d5e6f bad regressed 1.153 [1.141, 1.166] rounds 10
// against 9f8e7d6c5b4a copy_string" (tab separated after the step number).
std::string log_line(std::size_t number, const BisectStep& step);

}  // namespace benchkit::session
