// `benchkit bisect GOOD BAD` as a whole: the repository and the commits between found, each
// commit built at most once (the two ends first, each step's commit when it comes), each step an
// ab-like measurement of two builds' bench binaries side by side, judged (judge()) and summed up
// for session/bisect.hpp's walk, every step written to the log. Everything that touches git, the
// compiler or a process goes through a Workshop (session/workshop.hpp), so the whole of it is
// tested with a fake. Prints nothing.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "session/bisect.hpp"
#include "session/pipeline.hpp"
#include "session/plans.hpp"
#include "session/workshop.hpp"

namespace benchkit::session {

// The pipeline's events (builds, rounds, failed benchmarks) and the bisection's own. Observer is
// a virtual base, so that the command line can join an Observer of report/ (which draws the
// pipeline's events, report::ProgressPrinter) with the line of a decided step.
class BisectObserver : public virtual Observer {
 public:
  // A step was decided; `subject` is its commit's subject line.
  virtual void step_decided(const BisectStep& /*step*/, const std::string& /*subject*/) {}
};

struct BisectReport {
  BisectOutcome outcome;
  std::size_t commits_between = 0;  // the candidates, the two ends included
  std::size_t builds = 0;           // revisions built (or kept from an earlier run)
  std::string log_path;
  // The first bad commit's subject, or the commits it may be with theirs (undecided).
  std::string first_bad_subject;
  std::vector<std::pair<std::string, std::string>> undecided;
  // More of the change may lie after the commit found (more_change_after).
  bool more_change_after = false;

  // 0 the first bad commit was found; 1 it stayed undecided.
  int exit_status() const { return outcome.first_bad ? 0 : 1; }
};

// The errors: what stops the bisection (the repository, a revision, a build, the log, BAD not
// slower than GOOD, Ctrl-C), each of the kind its exit status wants (exit_status_of).
model::Result<BisectReport> bisect_revisions(const BisectPlan& plan, Workshop& workshop,
                                             BisectObserver& observer);

}  // namespace benchkit::session
